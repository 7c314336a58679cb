package ui

import (
	"bytes"
	"encoding/base64"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
	"github.com/mytop-go/mytop-go/snapshot"
)

// captureTty is a terminal that keeps what the screen writes to it, so the
// test reads the bytes a real terminal would get.
type captureTty struct {
	mu   sync.Mutex
	out  bytes.Buffer
	in   *io.PipeReader
	inW  *io.PipeWriter
	once sync.Once
}

func newCaptureTty() *captureTty {
	r, w := io.Pipe()
	return &captureTty{in: r, inW: w}
}

func (c *captureTty) Start() error        { return nil }
func (c *captureTty) Stop() error         { return nil }
func (c *captureTty) Drain() error        { c.once.Do(func() { c.inW.Close() }); return nil }
func (c *captureTty) NotifyResize(func()) {}
func (c *captureTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: 80, Height: 24}, nil
}
func (c *captureTty) Read(p []byte) (int, error) { return c.in.Read(p) }
func (c *captureTty) Close() error               { c.inW.Close(); return nil }
func (c *captureTty) written() string            { c.mu.Lock(); defer c.mu.Unlock(); return c.out.String() }
func (c *captureTty) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(p)
}

var osc52 = regexp.MustCompile("\x1b\\]52;c;([A-Za-z0-9+/=]*)(\x1b\\\\|\a)")

// clipboardOf returns every text posted with OSC 52 in out.
func clipboardOf(t *testing.T, out string) []string {
	t.Helper()
	var texts []string
	for _, m := range osc52.FindAllStringSubmatch(out, -1) {
		b, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil {
			t.Fatalf("OSC 52 payload is not base64: %v", err)
		}
		texts = append(texts, string(b))
	}
	return texts
}

// ttyDashboard draws d on a terminfo screen for term writing to a captureTty.
func ttyDashboard(t *testing.T, d *Dashboard, term string) (*captureTty, tcell.Screen) {
	t.Helper()
	ti, err := terminfo.LookupTerminfo(term)
	if err != nil {
		t.Fatalf("terminfo %s: %v", term, err)
	}
	tty := newCaptureTty()
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Fini)
	d.root.SetRect(0, 0, 80, 24)
	d.root.Draw(s)
	s.Show()
	return tty, s
}

func TestCopySendsOSC52(t *testing.T) {
	for _, term := range []string{"xterm-256color", "tmux-256color", "screen"} {
		t.Run(term, func(t *testing.T) {
			t.Setenv("TERM", term)
			d := New(Options{Actions: &fakeActions{plan: []snapshot.ExplainRow{explainRow("1", "SIMPLE", "b", "ALL", 2104331, "Using where")}}})
			d.Update(incidentFrame())
			tty, _ := ttyDashboard(t, d, term)
			p := d.procs.selected()
			if p == nil || p.Info == "" {
				t.Fatal("no selected thread with a statement")
			}

			press(d, 'y')
			got := clipboardOf(t, tty.written())
			if len(got) != 1 || got[0] != p.Info {
				t.Fatalf("clipboard %q, want the query %q", got, p.Info)
			}
			mustContain(t, d.footer(80), "copied query of thread") // drawing elsewhere would move the clipboard off the tty

			pressKey(d, tcell.KeyTab) // findings
			press(d, 'y')
			got = clipboardOf(t, tty.written())
			f := d.findings.selected()
			if len(got) != 2 || !strings.HasPrefix(got[1], f.ID+": "+f.Title) || !strings.Contains(got[1], "- "+f.Evidence[0]) {
				t.Fatalf("finding copy %q (%s)", got[len(got)-1], d.status)
			}

			pressKey(d, tcell.KeyTab)
			press(d, 'e') // EXPLAIN view: y copies the statement and its plan
			press(d, 'y')
			got = clipboardOf(t, tty.written())
			if len(got) != 3 || !strings.Contains(got[2], p.Info) || !strings.Contains(got[2], "select_type") || strings.Contains(got[2], "[::b]") {
				t.Fatalf("EXPLAIN copy %q", got[len(got)-1])
			}
		})
	}
}
