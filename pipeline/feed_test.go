package pipeline

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A screen that reads two items and quits holds the producer back to what
// fits the channel, then cancels it; the producer's error arrives after.
func TestFeed(t *testing.T) {
	emitted := 0
	quit := errors.New("q pressed")
	shown, produced := Feed(context.Background(), 2, func(ctx context.Context, emit func(int)) error {
		for i := 0; ctx.Err() == nil; i++ {
			emit(i)
			emitted++
		}
		return errors.New("stopped")
	}, func(items <-chan int) error {
		for i := 0; i < 2; i++ {
			if got := <-items; got != i {
				t.Errorf("item %d is %d", i, got)
			}
		}
		time.Sleep(50 * time.Millisecond) // the producer fills the channel and waits
		return quit
	})
	if shown != quit {
		t.Errorf("shown %v", shown)
	}
	select {
	case err := <-produced:
		if err == nil {
			t.Error("the producer's error was lost")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the producer was not cancelled when the screen quit")
	}
	if emitted > 2+2+1 {
		t.Errorf("%d items emitted past a screen that read 2 of a channel of 2", emitted)
	}
}
