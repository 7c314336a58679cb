package busynormal

import (
	"context"
)

// slowNetwork slows the clients' link (netns.go): delay and loss with
// netem, or a congested link where the kernel has no netem.
var slowNetwork = Fault{
	Name:  "slow-network",
	Cause: "network",
	Inject: func(ctx context.Context, b *Bed) error {
		undo, err := b.Link.Slow()
		if err != nil {
			return err
		}
		defer undo()
		<-ctx.Done()
		return nil
	},
	Unavailable: func(b *Bed) string {
		switch {
		case b.Link == nil:
			return "no network namespace for the clients: " + b.NoLink
		case b.Link.Throttle == "":
			return "tc can slow no link here (neither netem nor htb)"
		}
		return ""
	},
	Felt: func(normal, during Effect) string {
		return fell("bytes sent to clients per second", normal.BytesSent, during.BytesSent, 0.7)
	},
}
