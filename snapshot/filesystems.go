package snapshot

// Filesystem is one filesystem holding the server's files, as statfs(2)
// reports it, read only when the server runs on the monitor's machine.
type Filesystem struct {
	// Path is the first of the server's directories found on it; Roles say
	// what the server keeps there ("datadir", "tmpdir", "binlog", "redo",
	// "undo", "innodb_data", "aria_log", "relay_log"), Dirs the directories.
	Path  string   `json:"path"`
	Roles []string `json:"roles"`
	Dirs  []string `json:"dirs,omitempty"`
	// SizeBytes is the filesystem's size; AvailBytes what an unprivileged
	// process (the server) may still write (f_bavail: root's reserved blocks
	// excluded); FreeBytes includes them.
	SizeBytes  uint64 `json:"size"`
	AvailBytes uint64 `json:"avail"`
	FreeBytes  uint64 `json:"free"`
	// Inodes and InodesFree are the file slots (0 when the filesystem has
	// no fixed number, e.g. btrfs).
	Inodes     uint64 `json:"inodes,omitempty"`
	InodesFree uint64 `json:"inodes_free,omitempty"`
}

// AvailPct is the share of the filesystem the server may still write, in %.
func (f Filesystem) AvailPct() float64 {
	if f.SizeBytes == 0 {
		return 100
	}
	return 100 * float64(f.AvailBytes) / float64(f.SizeBytes)
}
