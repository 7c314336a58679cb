package parse

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Deadlock is the LATEST DETECTED DEADLOCK section read into its parts: the
// transactions, what each ran, the locks each held and waited for, and the
// one InnoDB rolled back.
type Deadlock struct {
	Trx []DeadlockTrx
	// Victim is the Number of the transaction rolled back; 0 if not printed.
	Victim int
}

// DeadlockTrx is one "*** (N) TRANSACTION:" entry.
type DeadlockTrx struct {
	Number        int
	ID            string
	ActiveSeconds int64
	ThreadID      int64
	// Who is "user@host" from the thread line, when printed.
	Who   string
	Query string
	// Holds and Waits are the locks, each shortened to "index X of table Y,
	// lock_mode ..." (or the lock line as printed).
	Holds []string
	Waits []string
}

var (
	dlTrxHeadRe = regexp.MustCompile(`^\*\*\* \((\d+)\) TRANSACTION:`)
	dlTrxLineRe = regexp.MustCompile(`^TRANSACTION ([0-9A-Fa-f]+|\d+ \d+), ACTIVE (\d+) sec`)
	dlThreadRe  = regexp.MustCompile(`^(?:MySQL|MariaDB) thread id (\d+), (?:OS thread handle \w+, )?query id \d+ (\S+) (\S+)`)
	dlVictimRe  = regexp.MustCompile(`^\*\*\* WE ROLL BACK TRANSACTION \((\d+)\)`)
	dlLockRe    = regexp.MustCompile("(index \\S+ of table \\S+|table \\S+).*?((?:lock[_ ]mode|lock mode) .*)$")
)

// deadlock parser states: which lines the current "***" header introduces.
const (
	dlNone = iota
	dlQuery
	dlHolds
	dlWaits
)

// ParseDeadlock reads the section text kept in InnoDBStatus.LatestDeadlock.
func ParseDeadlock(text string) Deadlock {
	var d Deadlock
	var cur *DeadlockTrx
	state := dlNone
	for line := range lines(text) {
		line = strings.TrimRight(line, "\r")
		switch {
		case dlTrxHeadRe.MatchString(line):
			n, _ := strconv.Atoi(dlTrxHeadRe.FindStringSubmatch(line)[1])
			d.Trx = append(d.Trx, DeadlockTrx{Number: n})
			cur, state = &d.Trx[len(d.Trx)-1], dlNone
		case dlVictimRe.MatchString(line):
			d.Victim, _ = strconv.Atoi(dlVictimRe.FindStringSubmatch(line)[1])
			cur, state = nil, dlNone
		case cur == nil:
		case strings.HasPrefix(line, "***"):
			state = deadlockHeader(line)
		default:
			state = cur.readLine(line, state)
		}
	}
	d.placeHolds()
	return d
}

var dlLockTrxRe = regexp.MustCompile(`\btrx id (\S+)`)

// placeHolds gives each held lock to the transaction its line names: under
// "CONFLICTING WITH" a transaction's entry lists the other one's locks.
// Lines are shortened only then, since the shortening drops the trx id.
func (d *Deadlock) placeHolds() {
	byID := map[string]int{}
	for i, t := range d.Trx {
		byID[t.ID] = i
	}
	held := make([][]string, len(d.Trx))
	for i, t := range d.Trx {
		for _, l := range t.Holds {
			owner := i
			if m := dlLockTrxRe.FindStringSubmatch(l); m != nil {
				if j, ok := byID[m[1]]; ok {
					owner = j
				}
			}
			if s := shortLock(l); !slices.Contains(held[owner], s) {
				held[owner] = append(held[owner], s)
			}
		}
	}
	for i := range d.Trx {
		d.Trx[i].Holds = held[i]
	}
}

// deadlockHeader maps a "***" line to what follows it. "CONFLICTING WITH"
// (MariaDB 10.6+, MySQL 8.0.18+) lists locks the other transaction holds.
func deadlockHeader(line string) int {
	switch {
	case strings.Contains(line, "HOLDS THE LOCK"), strings.Contains(line, "CONFLICTING WITH"):
		return dlHolds
	case strings.Contains(line, "WAITING FOR THIS LOCK"):
		return dlWaits
	}
	return dlNone
}

func (t *DeadlockTrx) readLine(line string, state int) int {
	if m := dlTrxLineRe.FindStringSubmatch(line); m != nil {
		t.ID = m[1]
		t.ActiveSeconds, _ = strconv.ParseInt(m[2], 10, 64)
		return dlNone
	}
	if m := dlThreadRe.FindStringSubmatch(line); m != nil {
		t.ThreadID, _ = strconv.ParseInt(m[1], 10, 64)
		t.Who = m[3] + "@" + m[2]
		return dlQuery
	}
	switch state {
	case dlQuery:
		if strings.TrimSpace(line) != "" {
			t.Query = strings.TrimSpace(strings.TrimSpace(t.Query + " " + line))
		}
	case dlHolds, dlWaits:
		if !strings.HasPrefix(line, "RECORD LOCKS") && !strings.HasPrefix(line, "TABLE LOCK") {
			return state
		}
		if state == dlHolds {
			t.Holds = append(t.Holds, line) // shortened once placed
		} else {
			t.Waits = append(t.Waits, shortLock(line))
		}
	}
	return state
}

// shortLock keeps the index, table and lock mode of a lock line.
func shortLock(line string) string {
	if m := dlLockRe.FindStringSubmatch(line); m != nil {
		return m[1] + ", " + m[2]
	}
	return line
}
