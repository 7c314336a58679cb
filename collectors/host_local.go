package collectors

import (
	"context"
	"net"
	"os"
	"strings"
	"time"
)

// addressMayBeLocal reports whether a server address (host:port, a socket
// path, or a go-sql-driver "unix(…)"/"tcp(…)" address) points at this
// machine: a unix socket, localhost, a loopback address, or an address of one
// of this machine's interfaces. Host names are resolved, with a short
// timeout; an unresolvable name counts as remote. It only rules a server
// out: a loopback address may be a tunnel to another machine, a socket
// another instance's, so a server is taken as this machine's only once its
// process is found (serverProc.locate, mysqld_locate.go).
func addressMayBeLocal(addr string) bool {
	addr = strings.TrimSpace(addr)
	switch {
	case addr == "", strings.HasPrefix(addr, "/"), strings.HasPrefix(addr, "./"), strings.HasPrefix(addr, "@"),
		strings.HasPrefix(addr, "unix("), strings.HasSuffix(addr, ".sock"):
		return true // unix socket (path, relative path or abstract name)
	case strings.HasPrefix(addr, "tcp(") && strings.HasSuffix(addr, ")"):
		addr = addr[len("tcp(") : len(addr)-1]
	}
	host := addr
	if h, _, err := net.SplitHostPort(addr); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if i := strings.IndexByte(host, '%'); i >= 0 {
		host = host[:i] // zone of a link-local IPv6 address
	}
	if host == "" || strings.EqualFold(host, "localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil {
		return isLocalIP(ip)
	}
	if name, err := os.Hostname(); err == nil && strings.EqualFold(name, host) {
		return true
	}
	return resolvesLocally(host)
}

func resolvesLocally(host string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if isLocalIP(a.IP) {
			return true
		}
	}
	return false
}

func isLocalIP(ip net.IP) bool {
	if ip.IsLoopback() || ip.IsUnspecified() {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}
