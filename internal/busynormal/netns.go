package busynormal

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Link is the clients' network: a namespace of their own joined to this one
// by a veth pair. The server listens on HostAddr (this side); the clients
// run inside the namespace (Command) and reach it over the pair, so a
// throttle on the pair slows their link and nothing else of the machine.
type Link struct {
	NS       string
	HostDev  string
	PeerDev  string
	HostAddr string
	PeerAddr string
	// Throttle is how the link is slowed: netem's delay and loss where the
	// kernel has it, else a rate limit with a short queue (htb and pfifo),
	// which delays and drops as a congested link does; "" when neither.
	Throttle string
}

// throttles are the ways to slow the link, tried in order; each is the tc
// commands for one device.
var throttles = []struct {
	name string
	add  func(dev string) [][]string
}{
	{"netem delay 50ms loss 1%", func(dev string) [][]string {
		return [][]string{{"qdisc", "add", "dev", dev, "root", "netem", "delay", "50ms", "loss", "1%"}}
	}},
	// 4 Mbit/s is a tenth of what the busy normal sends its clients; a
	// 20-packet queue at that rate holds 60 ms, beyond which it drops.
	{"htb rate 4mbit, pfifo limit 20", func(dev string) [][]string {
		return [][]string{
			{"qdisc", "add", "dev", dev, "root", "handle", "1:", "htb", "default", "10"},
			{"class", "add", "dev", dev, "parent", "1:", "classid", "1:10", "htb", "rate", "4mbit", "ceil", "4mbit"},
			{"qdisc", "add", "dev", dev, "parent", "1:10", "handle", "10:", "pfifo", "limit", "20"},
		}
	}},
}

// NewLink makes the namespace and its veth pair; it returns the reason
// when this machine cannot (not root, no ip). The caller removes it with
// Close, after the server that listens on it has stopped.
func NewLink() (*Link, string) {
	if os.Geteuid() != 0 {
		return nil, "network namespaces need root"
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return nil, "ip (iproute2) is not installed"
	}
	removeStale()
	n := os.Getpid()
	sub := n % 250
	l := &Link{NS: fmt.Sprintf("%s%d", nsPrefix, n), HostDev: fmt.Sprintf("mtbn%dh", n), PeerDev: fmt.Sprintf("mtbn%dp", n),
		HostAddr: fmt.Sprintf("10.77.%d.1", sub), PeerAddr: fmt.Sprintf("10.77.%d.2", sub)}
	steps := [][]string{
		{"netns", "add", l.NS},
		{"link", "add", l.HostDev, "type", "veth", "peer", "name", l.PeerDev},
		{"link", "set", l.PeerDev, "netns", l.NS},
		{"addr", "add", l.HostAddr + "/30", "dev", l.HostDev},
		{"link", "set", l.HostDev, "up"},
		{"-n", l.NS, "addr", "add", l.PeerAddr + "/30", "dev", l.PeerDev},
		{"-n", l.NS, "link", "set", l.PeerDev, "up"},
		{"-n", l.NS, "link", "set", "lo", "up"},
	}
	for _, s := range steps {
		if out, err := exec.Command("ip", s...).CombinedOutput(); err != nil {
			l.Close()
			return nil, fmt.Sprintf("ip %s: %v: %s", strings.Join(s, " "), err, strings.TrimSpace(string(out)))
		}
	}
	l.Throttle = l.findThrottle()
	return l, ""
}

// nsPrefix begins the name of each namespace a bed makes; the test
// process's pid ends it.
const nsPrefix = "mytopbn"

// removeStale removes the namespaces (and their pairs) of test processes
// that died without their cleanups (a timeout, a kill).
func removeStale() {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], nsPrefix) {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimPrefix(f[0], nsPrefix))
		if err != nil {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
			continue
		}
		exec.Command("ip", "link", "del", fmt.Sprintf("mtbn%dh", pid)).Run()
		exec.Command("ip", "netns", "del", f[0]).Run()
	}
}

// findThrottle tries each throttle on the host side and takes it off again.
func (l *Link) findThrottle() string {
	if _, err := exec.LookPath("tc"); err != nil {
		return ""
	}
	for _, th := range throttles {
		ok := true
		for _, c := range th.add(l.HostDev) {
			if exec.Command("tc", c...).Run() != nil {
				ok = false
				break
			}
		}
		exec.Command("tc", "qdisc", "del", "dev", l.HostDev, "root").Run()
		if ok {
			return th.name
		}
	}
	return ""
}

// Slow puts the throttle on both ends of the pair; the returned func takes
// it off.
func (l *Link) Slow() (undo func(), err error) {
	for _, th := range throttles {
		if th.name != l.Throttle {
			continue
		}
		undo = func() {
			exec.Command("tc", "qdisc", "del", "dev", l.HostDev, "root").Run()
			exec.Command("ip", "netns", "exec", l.NS, "tc", "qdisc", "del", "dev", l.PeerDev, "root").Run()
		}
		for _, c := range th.add(l.HostDev) {
			if out, err := exec.Command("tc", c...).CombinedOutput(); err != nil {
				undo()
				return nil, fmt.Errorf("tc %s: %v: %s", strings.Join(c, " "), err, out)
			}
		}
		for _, c := range th.add(l.PeerDev) {
			args := append([]string{"netns", "exec", l.NS, "tc"}, c...)
			if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
				undo()
				return nil, fmt.Errorf("tc in %s %s: %v: %s", l.NS, strings.Join(c, " "), err, out)
			}
		}
		return undo, nil
	}
	return nil, fmt.Errorf("no way to slow a link here (tc has neither netem nor htb)")
}

// Command runs name inside the namespace (ip netns exec replaces itself
// with it, so the process is name's own and killing it kills name).
func (l *Link) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return command(ctx, "ip", append([]string{"netns", "exec", l.NS, name}, args...)...)
}

// Close removes the pair and the namespace.
func (l *Link) Close() {
	exec.Command("ip", "link", "del", l.HostDev).Run()
	exec.Command("ip", "netns", "del", l.NS).Run()
}
