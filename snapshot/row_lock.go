package snapshot

import "strings"

// RowLockObject is what a requested lock locks: "shop.acct PRIMARY", its
// mode and the record (lock_data) where the source says them. Table marks
// an InnoDB table lock (lock_type TABLE: AUTO-INC, LOCK TABLES), whose
// waits are table-lock edges, not row-lock ones.
type RowLockObject struct {
	Object, Mode, Record string
	Table                bool
}

// InnoDBTableLock reports a lock table's lock_type naming a table lock.
func InnoDBTableLock(lockType string) bool {
	return strings.EqualFold(strings.TrimSpace(lockType), "TABLE")
}

// NewRowLockObject names a table's index lock ("" index: the table alone).
func NewRowLockObject(table, index, mode string) RowLockObject {
	o := RowLockObject{Object: table, Mode: mode}
	if index != "" {
		o.Object += " " + index
	}
	return o
}
