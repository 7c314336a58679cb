package busynormal

import (
	"context"
)

// rateDoubled is a second application instance sending the same mix at
// the same rate: the request rate doubles.
var rateDoubled = Fault{
	Name:  "rate-doubled",
	Cause: "workload spike",
	Inject: func(ctx context.Context, b *Bed) error {
		cmd, err := b.sysbenchStart(ctx, "spike")
		if err != nil {
			return err
		}
		cmd.Wait()
		return nil
	},
	Felt: func(normal, during Effect) string {
		return rose("statements per second", normal.Questions, during.Questions, 1.5, 0)
	},
}
