package testdb

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMissingBinaryNamesPackage(t *testing.T) {
	_, err := findBinary("mariadbd-that-does-not-exist")
	if err == nil || !strings.Contains(err.Error(), "apt-get install mariadb-server") {
		t.Errorf("got %v", err)
	}
}

func TestHeavyTestsRunOneAtATime(t *testing.T) {
	// Heavy skips under -short, as every test holding it needs a server.
	SkipShort(t)
	withoutRunLock(t)
	var mu sync.Mutex
	running, most := 0, 0
	for i := range 3 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			t.Cleanup(acquireHeavy(t, false)) // Heavy itself skips under -short
			mu.Lock()
			running++
			most = max(most, running)
			mu.Unlock()
			time.Sleep(300 * time.Millisecond)
			mu.Lock()
			running--
			mu.Unlock()
		})
	}
	t.Cleanup(func() {
		if most != 1 {
			t.Errorf("%d heavy tests ran at once, want 1", most)
		}
	})
}

func TestToolFindsOrSkips(t *testing.T) {
	t.Setenv(RequireToolsEnv, "")
	if p := Tool(t, "coreutils", "no-such-tool-for-testdb", "true"); !strings.HasSuffix(p, "/true") {
		t.Errorf("Tool found %q, want the path of true", p)
	}
	var skipped bool
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Tool(t, "nothing", "no-such-tool-for-testdb")
		t.Error("Tool returned for a missing tool")
	})
	if !skipped {
		t.Error("a missing tool did not skip")
	}
}

func TestHeavyLoadsGoBeforeWaitingHeavyTests(t *testing.T) {
	withoutRunLock(t)
	// The load queues before, among and after three whole tests.
	for _, at := range []int{0, 2, 3} {
		release := acquireHeavy(t, false)
		var mu sync.Mutex
		var order []string
		done := make(chan bool)
		enter := func(name string, load bool) {
			r := acquireHeavy(t, load)
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			r()
			done <- true
		}
		for i := range 4 {
			if i == at {
				go enter("load", true)
			} else {
				go enter(fmt.Sprint("test", i), false)
			}
			time.Sleep(50 * time.Millisecond)
		}
		release()
		for range 4 {
			<-done
		}
		if order[0] != "load" {
			t.Errorf("load queued at %d: slot taken in the order %v, want the load first", at, order)
		}
	}
}
