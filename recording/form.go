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
}

// frameForm turns snapshots into stored frames. It remembers the previous
// frame's string table and time base, so a thread that keeps its state
// stores the same bytes as a second ago. What it remembers only decides
// which of many exact encodings is written: every stored frame decodes alone.
type frameForm struct {
	pl processlistForm
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
	return json.Marshal(&st)
}

// decodeFrame parses a stored frame of either version: version 1 frames carry
// "processlist", version 2 frames "pl". Variables are not in the frame.
func decodeFrame(raw []byte) (*snapshot.Snapshot, error) {
	s := new(snapshot.Snapshot)
	st := storedSnapshot{Snapshot: s}
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, err
	}
	if st.PL != nil {
		rows, err := st.PL.rows()
		if err != nil {
			return nil, err
		}
		s.Processlist = rows
	}
	return s, nil
}
