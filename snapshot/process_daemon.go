package snapshot

// IsDaemon reports a thread that stays in its command for as long as it lives
// and waits for work there: the event scheduler and other Daemon threads, a
// replica's binlog dump. Neither a client's statement nor an idle session.
func (p *Process) IsDaemon() bool {
	switch p.Command {
	case "Daemon", "Binlog Dump", "Binlog Dump GTID":
		return true
	}
	return false
}
