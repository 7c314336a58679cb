package collectors

// Whether the ids in the servers' greetings are the server's thread ids:
// unknown until an open's CONNECTION_ID() is compared with its greeting.
const (
	greetingsUnknown int32 = iota
	greetingsServer        // every open so far was greeted with its own id
	greetingsProxy         // one was not: a proxy answers the handshake
)

// greetingsConfirm compares the ids greeted during an open with the id the
// session it returned reports (CONNECTION_ID()). Not among them, the
// greeting came from something else than the server, and no greeted id is
// trusted again on this link; a proxy never turns into a server.
func (l *serverLink) greetingsConfirm(greeted []int64, kept int64) {
	if len(greeted) == 0 {
		return
	}
	if !containsID(greeted, kept) {
		l.greetingTrust.Store(greetingsProxy)
		return
	}
	l.greetingTrust.CompareAndSwap(greetingsUnknown, greetingsServer)
}

// greetingsTrusted is whether a greeted id may be taken for a server
// thread's.
func (l *serverLink) greetingsTrusted() bool {
	return l.greetingTrust.Load() == greetingsServer
}
