package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// WaitClass is what an active session is doing at one instant: on CPU, or
// waiting, and for what. Every active session is in exactly one class, so
// the classes of a sample add up to its active sessions. The names are the
// JSON contract's keys of load.per_second[].classes (README, "Database load").
type WaitClass uint8

// Wait classes, in the order the load view stacks them (the CPU first, so
// the reference line of the CPU count reads against it).
const (
	ClassCPU          WaitClass = iota // running, or no wait known
	ClassIO                            // reading or writing storage
	ClassRowLock                       // an InnoDB row lock
	ClassMetadataLock                  // a metadata lock (DDL, LOCK TABLES against a transaction)
	ClassTableLock                     // a table-level lock (MyISAM, LOCK TABLES, table flush)
	ClassGlobalLock                    // FLUSH TABLES WITH READ LOCK, the backup lock
	ClassQueryCache                    // the query cache's lock
	ClassCommit                        // redo/binlog flush, group commit, semi-sync ack
	ClassNetwork                       // sending to or reading from the client
	ClassReplication                   // a replica applying or fetching events
	ClassSleep                         // SLEEP() inside a statement
	ClassOther                         // waiting for something none of the above names
	NumWaitClasses
)

var waitClassNames = [NumWaitClasses]string{
	"cpu", "io", "row_lock", "metadata_lock", "table_lock", "global_lock",
	"query_cache", "commit", "network", "replication", "sleep", "other",
}

func (c WaitClass) String() string {
	if c < NumWaitClasses {
		return waitClassNames[c]
	}
	return "other"
}

// MarshalText writes the class's contract name.
func (c WaitClass) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a contract name.
func (c *WaitClass) UnmarshalText(b []byte) error {
	w, ok := waitClassNamed(string(b))
	if !ok {
		return fmt.Errorf("unknown wait class %q", b)
	}
	*c = w
	return nil
}

// waitClassNamed returns the class with the contract name s.
func waitClassNamed(s string) (WaitClass, bool) {
	for i, n := range waitClassNames {
		if n == s {
			return WaitClass(i), true
		}
	}
	return ClassOther, false
}

// ClassLoad is sessions per class: a count in one sample, an average over
// several. In JSON it is an object keyed by class name, zero classes left out.
type ClassLoad [NumWaitClasses]float64

// Total is the sum over classes: the active sessions.
func (l *ClassLoad) Total() float64 {
	t := 0.0
	for _, v := range l {
		t += v
	}
	return t
}

// Add adds o, scaled by k, to l.
func (l *ClassLoad) Add(o *ClassLoad, k float64) {
	for i, v := range o {
		l[i] += v * k
	}
}

// Top returns the class with the most sessions (ClassCPU when all are zero).
func (l *ClassLoad) Top() WaitClass {
	best := ClassCPU
	for i, v := range l {
		if v > l[best] {
			best = WaitClass(i)
		}
	}
	return best
}

// MarshalJSON writes {"cpu": 2, "row_lock": 12.5}, rounded to thousandths so
// reports stay readable and golden files stable.
func (l ClassLoad) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, v := range l {
		v = math.Round(v*1000) / 1000
		if v == 0 {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(waitClassNames[i]))
		b.WriteByte(':')
		b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the object MarshalJSON writes; unknown classes (a
// newer writer's) are ignored.
func (l *ClassLoad) UnmarshalJSON(b []byte) error {
	var m map[string]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*l = ClassLoad{}
	for k, v := range m {
		if c, ok := waitClassNamed(k); ok {
			l[c] = v
		}
	}
	return nil
}
