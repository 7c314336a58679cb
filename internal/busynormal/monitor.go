package busynormal

import (
	"context"
	"flag"
	"io"
	"sync"
	"time"

	"github.com/mytop-go/mytop-go/analyzers"
	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Monitor is what `mytop-go record` runs, in this process: the live source
// its flags open, the Builder with the default analyzers, a recording
// writer. It keeps the frames, the live verdicts, for the test to judge.
type Monitor struct {
	Path   string
	cancel context.CancelFunc
	done   chan error
	mu     sync.Mutex
	frames []*snapshot.Frame
}

// Watch starts monitoring the server at socket as root, recording to path.
func Watch(socket, path string) (*Monitor, error) {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	lf := collectors.AddLiveFlags(fs)
	if err := fs.Parse([]string{"--socket", socket, "--user", "root", "--no-defaults"}); err != nil {
		return nil, err
	}
	live, err := lf.Open(io.Discard)
	if err != nil {
		return nil, err
	}
	w, err := recording.Create(path, recording.WriterOptions{Interval: time.Second, Version: "busynormal"})
	if err != nil {
		live.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Monitor{Path: path, cancel: cancel, done: make(chan error, 1)}
	b := NewBuilder(snapshot.ModeLive)
	b.Recording = path
	go func() {
		err := pipeline.Run(ctx, live, b, func(f *snapshot.Frame) error {
			m.mu.Lock()
			m.frames = append(m.frames, f)
			m.mu.Unlock()
			return w.Write(f)
		})
		live.Close()
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		m.done <- err
	}()
	return m, nil
}

// NewBuilder is the Builder every command of the binary uses.
func NewBuilder(mode snapshot.Mode) *pipeline.Builder {
	return pipeline.NewBuilder(mode, analyzers.NewEngine(analyzers.DefaultConfig()))
}

// Stop ends the monitoring and returns its frames.
func (m *Monitor) Stop() ([]*snapshot.Frame, error) {
	m.cancel()
	err := <-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.frames, err
}

// Replay reads a recording, or a capture another tool made, through the
// same pipeline as `mytop-go replay` and `report`, and returns its frames.
func Replay(path string) ([]*snapshot.Frame, error) {
	src, err := recording.OpenSource(path, recording.SourceOptions{}, io.Discard)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	b := NewBuilder(src.Mode)
	var out []*snapshot.Frame
	err = pipeline.Run(context.Background(), src.Frames(time.Time{}, time.Time{}), b, func(f *snapshot.Frame) error {
		out = append(out, f)
		return nil
	})
	return out, err
}
