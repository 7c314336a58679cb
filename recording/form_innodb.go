package recording

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// storedInnoDBText is SHOW ENGINE INNODB STATUS as version 4 stores it
// ("innodb_text"): the text exactly as the server printed it, without the
// parsed sections, which are what snapshot.ParseInnoDBStatus makes of the
// text plus the redo capacity the variables gave (FillCapacityBytes). On a
// busy server the parsed sections repeat the text's transactions, ids and
// counters in other words: 74 of a 925 B delta frame (100 busy
// connections, the status refreshed every 5 s).
//
// The writer stores this form only when parsing the text again gives the
// parsed sections byte for byte as JSON (innodbForm.encode); anything else
// (a redacted frame, which has no text; a status an importer built) keeps
// the full "innodb" object of earlier versions.
type storedInnoDBText struct {
	Raw      string `json:"raw"`
	Capacity int64  `json:"capacity_bytes,omitempty"`
}

// innodbForm remembers the last status it checked: the collector hands the
// same parsed status to every tick until the next read, so the check runs
// once per read, not once per frame.
type innodbForm struct {
	last   *snapshot.InnoDBStatus
	stored *storedInnoDBText // nil: last is not rebuilt exactly from its text
}

// encode returns in's text form, or nil when in must be stored whole.
func (f *innodbForm) encode(in *snapshot.InnoDBStatus) *storedInnoDBText {
	if in == f.last {
		return f.stored
	}
	f.last, f.stored = in, nil
	if in.Raw == "" {
		return nil
	}
	st := &storedInnoDBText{Raw: in.Raw, Capacity: in.Log.CapacityBytes}
	again, err := st.status()
	if err != nil {
		return nil
	}
	want, err1 := json.Marshal(in)
	got, err2 := json.Marshal(again)
	if err1 != nil || err2 != nil || !bytes.Equal(want, got) {
		return nil
	}
	f.stored = st
	return st
}

var errInnoDBText = errors.New("innodb_text: not InnoDB monitor output")

// status rebuilds the parsed status from the text.
func (st *storedInnoDBText) status() (*snapshot.InnoDBStatus, error) {
	in, err := parse.ParseInnoDBStatus(st.Raw)
	if err != nil {
		return nil, errInnoDBText
	}
	in.FillCapacityBytes(st.Capacity)
	return in, nil
}
