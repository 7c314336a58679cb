package parse

import (
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

const (
	// maxTrxListed caps InnoDBTransactions.Trx; counts cover every entry.
	maxTrxListed = 64
	// maxTrxQuery caps the statement text kept per transaction.
	maxTrxQuery = 4096
)

// parseTransactions reads the TRANSACTIONS section. Trx keeps only transactions that are
// not "not started": idle sessions fill the list on busy servers and are
// printed before the active ones, so a capped list of everything would lose
// exactly the entries that matter.
func parseTransactions(t *snapshot.InnoDBTransactions, body string) {
	t.Present = true
	var cur snapshot.InnoDBTrx // the entry being read; valid while inTrx
	inTrx, inQuery := false, false
	flush := func() {
		if inTrx {
			addTrx(t, &cur)
		}
		inTrx, inQuery = false, false
	}
	for line := range lines(body) {
		switch {
		case strings.HasPrefix(line, "---TRANSACTION "):
			flush()
			cur, inTrx = parseTrxHeader(strings.TrimPrefix(line, "---TRANSACTION ")), true
		case strings.HasPrefix(line, "Trx id counter "):
			if v, ok := parseTrxID(strings.TrimPrefix(line, "Trx id counter ")); ok {
				t.TrxIDCounter = v
			}
		case strings.HasPrefix(line, "History list length "):
			setInt(&t.HistoryListLength, line, "length ")
		case strings.HasPrefix(line, "... truncated..."):
			t.ListTruncated = true
		case !inTrx:
		case inQuery && !isTrxDetail(line):
			appendTrxQuery(&cur, line)
		default:
			inQuery = parseTrxDetail(&cur, line)
		}
	}
	flush()
}

func addTrx(t *snapshot.InnoDBTransactions, trx *snapshot.InnoDBTrx) {
	t.Count++
	if trx.LockWait {
		t.LockWaits++
	}
	if !strings.HasPrefix(trx.State, "ACTIVE") {
		if trx.State != "not started" && len(t.Trx) < maxTrxListed {
			t.Trx = append(t.Trx, *trx)
		}
		return
	}
	t.Active++
	t.OldestActiveSeconds = max(t.OldestActiveSeconds, trx.ActiveSeconds)
	if len(t.Trx) < maxTrxListed {
		t.Trx = append(t.Trx, *trx)
	}
}

// parseTrxHeader reads what follows "---TRANSACTION ": "8885, ACTIVE
// (PREPARED) 0 sec", "0 94997419, not started, process no ...",
// "(0x7f9fb83b9680), ACTIVE 0 sec starting index read".
func parseTrxHeader(rest string) snapshot.InnoDBTrx {
	id, state, _ := strings.Cut(rest, ", ")
	trx := snapshot.InnoDBTrx{ID: strings.Trim(id, "()")}
	if !strings.HasPrefix(state, "ACTIVE") {
		trx.State, _, _ = strings.Cut(state, ",")
		return trx
	}
	trx.State = "ACTIVE"
	if strings.HasPrefix(state, "ACTIVE (PREPARED)") {
		trx.State = "ACTIVE (PREPARED)"
	}
	if v, ok := intBefore(state, " sec"); ok {
		trx.ActiveSeconds = v
	}
	return trx
}

// parseDetail reads one line of a transaction entry and reports whether the
// statement text starts on the next line.
func parseTrxDetail(trx *snapshot.InnoDBTrx, line string) (queryFollows bool) {
	switch {
	case strings.HasPrefix(line, "mysql tables in use "):
		setInt(&trx.TablesInUse, line, "in use ")
		setInt(&trx.TablesLocked, line, "locked ")
	case strings.Contains(line, " lock struct(s)"):
		trx.LockWait = trx.LockWait || strings.HasPrefix(line, "LOCK WAIT ")
		if v, ok := intBefore(line, " row lock(s)"); ok {
			trx.RowLocks = v
		}
		setInt(&trx.UndoEntries, line, "undo log entries ")
	case strings.HasPrefix(line, "MySQL thread id "), strings.HasPrefix(line, "MariaDB thread id "):
		setInt(&trx.ThreadID, line, "thread id ")
		trx.OSThread = osThreadHandle(line)
		return true
	case strings.HasPrefix(line, "Trx read view will not see trx with id >= "):
		if _, sees, ok := strings.Cut(line, "sees < "); ok {
			trx.ReadViewSees, _ = parseTrxID(sees)
		}
	case strings.HasPrefix(line, "------- TRX HAS BEEN WAITING "):
		trx.LockWait = true
		trx.LockWaitSeconds = lockWaitSeconds(line)
	}
	return false
}

// osThreadHandle reads "OS thread handle 140256328988416" or "... handle
// 0x7f3ad0ef2700" and returns it in decimal, or "".
func osThreadHandle(line string) string {
	_, rest, ok := strings.Cut(line, "OS thread handle ")
	if !ok {
		return ""
	}
	h, _, _ := strings.Cut(rest, ",")
	h = strings.TrimSpace(h)
	if hex, ok := strings.CutPrefix(h, "0x"); ok {
		if v, err := strconv.ParseUint(hex, 16, 64); err == nil {
			return strconv.FormatUint(v, 10)
		}
		return ""
	}
	if _, err := strconv.ParseUint(h, 10, 64); err != nil {
		return ""
	}
	return h
}

// lockWaitSeconds reads "TRX HAS BEEN WAITING 7 SEC FOR THIS LOCK" (MySQL)
// or "... WAITING 7051133 us FOR ..." (MariaDB).
func lockWaitSeconds(line string) int64 {
	v, _ := intAfter(line, "WAITING ")
	if strings.Contains(line, " us FOR ") {
		return v / 1e6
	}
	return v
}

func appendTrxQuery(trx *snapshot.InnoDBTrx, line string) {
	if len(trx.Query) >= maxTrxQuery || line == "" {
		return
	}
	if trx.Query != "" {
		line = "\n" + line
	}
	trx.Query += line[:min(len(line), maxTrxQuery-len(trx.Query))]
}

// isTrxDetail reports whether line is one of the fixed lines that end the
// statement text of a transaction entry.
func isTrxDetail(line string) bool {
	for _, p := range trxDetailPrefixes {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

var trxDetailPrefixes = []string{
	"Trx read view", "TABLE LOCK ", "RECORD LOCKS ", "------- TRX HAS BEEN WAITING",
	"Record lock", "TOO MANY LOCKS PRINTED", "Trx #rec lock", "mysql tables in use ",
	"---", " 0: len", "Trx has approximately",
}
