package pipeline

import "context"

// Feed is the one bridge from a producer (Run, fleet.Run) to a screen:
// produce runs on its own goroutine and emits into a channel of size items
// that show reads, so a slow screen holds the producer back instead of
// frames piling up. When show returns, produce is cancelled; produced yields
// its error once it has ended (a stalled server need not be waited for).
func Feed[T any](ctx context.Context, size int, produce func(context.Context, func(T)) error, show func(<-chan T) error) (shown error, produced <-chan error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan T, size)
	errc := make(chan error, 1)
	go func() {
		defer close(items)
		errc <- produce(ctx, func(it T) {
			select {
			case items <- it:
			case <-ctx.Done():
			}
		})
	}()
	return show(items), errc
}
