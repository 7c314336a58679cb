package baseline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Keeper keeps each server's baseline in a small JSON file in Dir (serve
// puts it beside the recordings), so a restart of the monitor does not
// start every server's normal afresh.
type Keeper struct {
	Dir string
	// Every is how much frame time passes between two saves of a server.
	Every time.Duration
	mu    sync.Mutex
	saved map[string]time.Time
}

// keepEvery is the default time between saves: a restart loses at most a
// minute of normal.
const keepEvery = time.Minute

// Path is the server's file.
func (k *Keeper) Path(server string) string {
	return filepath.Join(k.Dir, fileSafe(server)+".baseline.json")
}

// Restore loads the server's saved baseline into t. A missing file is no
// error (a first run); a damaged or foreign one is reported and ignored.
func (k *Keeper) Restore(server string, t *Tracker) error {
	b, err := os.ReadFile(k.Path(server))
	if os.IsNotExist(err) {
		return nil
	}
	if err == nil {
		err = t.UnmarshalJSON(b)
	}
	if err != nil {
		t.Reset()
		return fmt.Errorf("%s: %w (starting its baseline afresh)", k.Path(server), err)
	}
	return nil
}

// Save writes the server's baseline when Every has passed since the last
// save (force: now). It must run where frames are built for that server
// (between two of them), never beside them.
func (k *Keeper) Save(server string, t *Tracker, at time.Time, force bool) error {
	k.mu.Lock()
	if k.saved == nil {
		k.saved = map[string]time.Time{}
	}
	every := k.Every
	if every <= 0 {
		every = keepEvery
	}
	last, ok := k.saved[server]
	due := force || !ok || at.Sub(last) >= every || at.Before(last)
	if due {
		k.saved[server] = at
	}
	k.mu.Unlock()
	if !due {
		return nil
	}
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(k.Dir, 0o700); err != nil {
		return err
	}
	tmp := k.Path(server) + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, k.Path(server))
}

// fileSafe keeps a server's name to letters, digits, dot, dash and
// underscore.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// Tee passes each server's frames to next, then saves that server's
// baseline when due. It runs in the goroutine that builds the server's
// frames, between two of them, so it reads the tracker safely. A failed
// save is said once per server on log and the frames keep flowing.
func (k *Keeper) Tee(trackers map[string]*Tracker, next func(string, *snapshot.Frame), log io.Writer) func(string, *snapshot.Frame) {
	var mu sync.Mutex
	failed := map[string]bool{}
	return func(server string, f *snapshot.Frame) {
		next(server, f)
		t := trackers[server]
		if t == nil || f == nil || f.Snapshot == nil {
			return
		}
		if err := k.Save(server, t, f.Time(), false); err != nil {
			mu.Lock()
			if !failed[server] {
				failed[server] = true
				fmt.Fprintf(log, "mytop-go: %s: keeping its baseline: %v\n", server, err)
			}
			mu.Unlock()
		}
	}
}

// SaveAll saves every server's baseline now (when the feeds have stopped).
func (k *Keeper) SaveAll(trackers map[string]*Tracker) error {
	var errs []error
	for server, t := range trackers {
		if t.Observed() {
			errs = append(errs, k.Save(server, t, t.last, true))
		}
	}
	return errors.Join(errs...)
}
