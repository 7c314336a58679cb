package collectors

import (
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stallProxy forwards TCP between the monitor and a server on loopback, and
// can stall like a link that drops every packet without closing anything:
// the connections across it at the stall never carry a byte again, and
// neither end learns that the other has closed (a firewall or NAT that lost
// their state). Connections made during a stall get no answer. Connections
// made after it work normally. With a delay set, every chunk the monitor
// sends reaches the server that much later: each statement's answer comes
// one delay late, as from a server that takes that long to answer.
type stallProxy struct {
	ln       net.Listener
	upstream string
	delay    atomic.Int64 // nanoseconds

	mu      sync.Mutex
	stalled bool
	live    []*proxyPair
	held    []net.Conn // every socket, closed when the test ends
	wg      sync.WaitGroup
}

type proxyPair struct {
	client, server net.Conn
	severed        bool // under stallProxy.mu
}

func newStallProxy(t *testing.T, upstream string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln, upstream: upstream}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *stallProxy) addr() string { return p.ln.Addr().String() }

// stall cuts every connection across the proxy, for good, and leaves new
// ones unanswered until resume.
func (p *stallProxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stalled = true
	for _, pair := range p.live {
		pair.severed = true
	}
	p.live = nil
}

// setDelay delays every chunk from the monitor to the server by d.
func (p *stallProxy) setDelay(d time.Duration) { p.delay.Store(int64(d)) }

func (p *stallProxy) resume() {
	p.mu.Lock()
	p.stalled = false
	p.mu.Unlock()
}

func (p *stallProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.held = append(p.held, c)
		stalled := p.stalled
		p.mu.Unlock()
		if stalled {
			continue // no answer, no close
		}
		s, err := net.Dial("tcp", p.upstream)
		if err != nil {
			c.Close()
			continue
		}
		pair := &proxyPair{client: c, server: s}
		p.mu.Lock()
		p.held = append(p.held, s)
		p.live = append(p.live, pair)
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pump(pair, c, s, true)
		go p.pump(pair, s, c, false)
	}
}

// pump copies src to dst until src ends; on a severed pair it drops the
// bytes and leaves dst open. Chunks to the server wait for the delay.
func (p *stallProxy) pump(pair *proxyPair, src, dst net.Conn, toServer bool) {
	defer p.wg.Done()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if d := time.Duration(p.delay.Load()); toServer && n > 0 && d > 0 {
			time.Sleep(d)
		}
		p.mu.Lock()
		severed := pair.severed
		p.mu.Unlock()
		if n > 0 && !severed {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				err = werr
			}
		}
		if err != nil {
			if !severed {
				dst.Close()
			}
			return
		}
	}
}

func (p *stallProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.held {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
