package recording

import (
	"encoding/json"
	"slices"

	"github.com/mytop-go/mytop-go/snapshot"
)

// storedSnapshot is a frame as version 2 stores it: the Snapshot's JSON with
// the processlist in column form ("pl") instead of one object per thread.
// Embedding the Snapshot gives every other field its usual name, and fields
// added to it later are stored without this type knowing of them.
type storedSnapshot struct {
	*snapshot.Snapshot
	PL *storedProcesslist `json:"pl,omitempty"`
	// InnoDBText is version 4's InnoDB status: its text alone, parsed again
	// on reading (form_innodb.go); "innodb" is then omitted.
	InnoDBText *storedInnoDBText `json:"innodb_text,omitempty"`
	// Chain is version 3's thread counters and status (form_chain.go); it
	// must stay the last field: readers find it at the end of the frame.
	Chain *storedChain `json:"chain,omitempty"`
}

// frameForm turns snapshots into stored frames. It remembers the previous
// frame's string table and time base, so a thread that keeps its state
// stores the same bytes as a second ago. What it remembers only decides
// which of many exact encodings is written: every stored frame decodes alone,
// except for the thread counters and the status, which are differences from
// the previous frame (form_chain.go). A frame encoded but not stored must be followed
// by forget.
type frameForm struct {
	pl  processlistForm
	th  threadsForm
	st  statusForm
	idb innodbForm
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
	if s.InnoDB != nil {
		if st.InnoDBText = f.idb.encode(s.InnoDB); st.InnoDBText != nil {
			c.InnoDB = nil
		}
	}
	var chain storedChain
	if s.Threads != nil {
		chain.TH = f.th.encode(s.Threads, key)
		c.Threads = nil
	} else {
		f.th.forget()
	}
	if s.Status != nil {
		chain.ST = f.st.encode(s.Status, key)
		c.Status = nil
	} else {
		f.st.forget()
	}
	if chain.TH != nil || chain.ST != nil {
		st.Chain = &chain
	}
	return json.Marshal(&st)
}

// forget is called when the frame last encoded was not stored.
func (f *frameForm) forget() {
	f.th.forget()
	f.st.forget()
}

// decodeFrame parses a stored frame of any version: version 1 frames carry
// "processlist", version 2 and later "pl"; version 1 and 2 frames carry
// "threads" and "status", version 3 and later "chain", which may be relative to
// prev, the previous frame's chain; version 4 frames may carry "innodb_text"
// instead of "innodb". Variables are not in the frame.
func decodeFrame(raw []byte, prev chainState) (*snapshot.Snapshot, chainState, error) {
	s, chain, err := parseFrame(raw)
	if err != nil {
		return nil, chainState{}, err
	}
	if chain == nil {
		return s, chainState{}, nil
	}
	cs, err := chain.decode(prev)
	if err != nil {
		return nil, chainState{}, err
	}
	cs.apply(s)
	return s, cs, nil
}

// apply sets the snapshot's parts from the decoded chain, as copies: the
// chain stays the base of the next frame whatever the snapshot's user does.
func (c chainState) apply(s *snapshot.Snapshot) {
	if c.threads != nil {
		t := *c.threads
		t.Tasks = slices.Clone(t.Tasks)
		s.Threads = &t
	}
	if c.status != nil {
		s.Status = c.status.toMap()
	}
}

// parseFrame is decodeFrame but leaves version 3's chain undecoded.
func parseFrame(raw []byte) (*snapshot.Snapshot, *storedChain, error) {
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
	if st.InnoDBText != nil {
		in, err := st.InnoDBText.status()
		if err != nil {
			return nil, nil, err
		}
		s.InnoDB = in
	}
	return s, st.Chain, nil
}
