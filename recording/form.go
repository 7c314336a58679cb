package recording

import (
	"encoding/json"

	"github.com/mytop-go/mytop-go/snapshot"
)

// storedSnapshot is a frame as version 2 stores it: the Snapshot's JSON with
// the processlist in column form ("pl") instead of one object per thread.
// Embedding the Snapshot gives every other field its usual name, and fields
// added to it later are stored without this type knowing of them.
type storedSnapshot struct {
	*snapshot.Snapshot
	PL *storedProcesslist `json:"pl,omitempty"`
	// TH is version 3's per-thread counters (form_threads.go); it must stay
	// the last field: readers find it at the end of the frame.
	TH *storedThreads `json:"th,omitempty"`
}

// frameForm turns snapshots into stored frames. It remembers the previous
// frame's string table and time base, so a thread that keeps its state
// stores the same bytes as a second ago. What it remembers only decides
// which of many exact encodings is written: every stored frame decodes alone,
// except for the thread counters, which are differences from the previous
// frame (form_threads.go). A frame encoded but not stored must be followed
// by forget.
type frameForm struct {
	pl processlistForm
	th threadsForm
}

// encode serialises s without its variables, which live in their own table.
// key starts a keyframe: the string table is rebuilt from this frame alone,
// which drops strings no longer in use.
func (f *frameForm) encode(s *snapshot.Snapshot, key bool) ([]byte, error) {
	c := *s
	c.Variables = nil
	st := storedSnapshot{Snapshot: &c}
	if len(s.Processlist) > 0 {
		st.PL = f.pl.encode(s.Processlist, key)
		c.Processlist = nil
	}
	if s.Threads != nil {
		st.TH = f.th.encode(s.Threads, key)
		c.Threads = nil
	} else {
		f.th.forget()
	}
	return json.Marshal(&st)
}

// forget is called when the frame last encoded was not stored.
func (f *frameForm) forget() { f.th.forget() }

// decodeFrame parses a stored frame of any version: version 1 frames carry
// "processlist", version 2 and 3 frames "pl"; version 1 and 2 frames carry
// "threads", version 3 frames "th", whose counters may be differences from
// prevThreads, the previous frame's. Variables are not in the frame.
func decodeFrame(raw []byte, prevThreads *snapshot.Threads) (*snapshot.Snapshot, error) {
	s, th, err := parseFrame(raw)
	if err != nil {
		return nil, err
	}
	if th != nil {
		if s.Threads, err = th.threads(prevThreads); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// parseFrame is decodeFrame but leaves version 3's thread counters stored.
func parseFrame(raw []byte) (*snapshot.Snapshot, *storedThreads, error) {
	s := new(snapshot.Snapshot)
	st := storedSnapshot{Snapshot: s}
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, nil, err
	}
	if st.PL != nil {
		rows, err := st.PL.rows()
		if err != nil {
			return nil, nil, err
		}
		s.Processlist = rows
	}
	return s, st.TH, nil
}
