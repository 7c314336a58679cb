package parse

import (
	"strings"
	"testing"
)

// The server caps SHOW ENGINE INNODB STATUS at 1 MB: a long transaction list
// ends in "... truncated..." and the later sections still follow. The parser
// must count what was listed, say the list was cut, and read the sections
// after it as if nothing had happened.
func TestParseInnoDBStatusAtTheOneMegabyteCap(t *testing.T) {
	text := readFixture(t, "mysql-5.5-b.txt")
	whole, err := ParseInnoDBStatus(text)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(text, "---TRANSACTION 0, not started")
	entry := "---TRANSACTION B0055553, ACTIVE 3 sec\nmysql tables in use 1, locked 1\n" +
		"MySQL thread id 406404, query id 84817397 10.8.0.86 robot\nselect * from t where id = 1\n"
	n := (1<<20 - len(text)) / len(entry)
	capped := text[:at] + strings.Repeat(entry, n) + "... truncated...\n" + text[strings.Index(text, "--------\nFILE I/O"):]
	if len(capped) < 1<<20-len(entry) {
		t.Fatalf("fixture is %d bytes, want about 1 MB", len(capped))
	}
	s, err := ParseInnoDBStatus(capped)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "Truncated", s.Truncated, false)
	eq(t, "ListTruncated", s.Transactions.ListTruncated, true)
	if s.Transactions.Count < n || s.Transactions.Active < n {
		t.Errorf("counted %d transactions (%d active), want at least the %d listed", s.Transactions.Count, s.Transactions.Active, n)
	}
	eq(t, "OldestActiveSeconds", s.Transactions.OldestActiveSeconds, max(whole.Transactions.OldestActiveSeconds, 3))
	eq(t, "Log.SequenceNumber", s.Log.SequenceNumber, whole.Log.SequenceNumber)
	eq(t, "BufferPool.PagesRead", s.BufferPool.PagesRead, whole.BufferPool.PagesRead)
	eq(t, "Rows.Present", s.Rows.Present, whole.Rows.Present)
	if len(s.Transactions.Trx) > 1000 {
		t.Errorf("kept %d transactions as evidence: the list must stay capped", len(s.Transactions.Trx))
	}

	// Text cut short mid-line (a server older than the marker, a collector's
	// own limit) keeps what came before the cut and says Truncated.
	cut, err := ParseInnoDBStatus(capped[:len(capped)-37])
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "Truncated after a cut", cut.Truncated, true)
	eq(t, "BufferPool.PagesRead after a cut", cut.BufferPool.PagesRead, whole.BufferPool.PagesRead)
}
