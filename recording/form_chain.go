package recording

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// storedChain holds the parts of a version 3 frame that are stored as
// differences from the previous frame: the thread counters and the status.
// It is the frame's last key ("chain"), so a reader walking a keyframe
// group decodes each frame's chain without parsing the rest of the frame.
// A keyframe's chain is absolute, as is the part after a frame that lacked
// it, so a keyframe group decodes from its keyframe, as the zstd dictionary
// chain already requires.
type storedChain struct {
	TH *storedThreads `json:"th,omitempty"`
	ST *storedStatus  `json:"st,omitempty"`
}

// chainState is what a frame's chain decodes to, the base of the next.
type chainState struct {
	threads *snapshot.Threads
	status  *statusState
}

func (c *storedChain) decode(prev chainState) (chainState, error) {
	var out chainState
	var err error
	if c == nil {
		return out, nil
	}
	if c.TH != nil {
		if out.threads, err = c.TH.threads(prev.threads); err != nil {
			return out, fmt.Errorf("threads: %w", err)
		}
	}
	if c.ST != nil {
		if out.status, err = c.ST.status(prev.status); err != nil {
			return out, fmt.Errorf("status: %w", err)
		}
	}
	return out, nil
}

// chainKey starts the chain, the last key of a version 3 frame.
var chainKey = []byte(`,"chain":`)

// frameChain decodes only the chain of a stored frame. A frame without one
// (version 1 and 2) gives the zero state.
func frameChain(raw []byte, prev chainState) (chainState, error) {
	i := bytes.LastIndex(raw, chainKey)
	if i < 0 || raw[len(raw)-1] != '}' {
		return chainState{}, nil
	}
	var c storedChain
	if err := json.Unmarshal(raw[i+len(chainKey):len(raw)-1], &c); err != nil {
		// not the frame's last key: a string or key inside some other value
		return chainState{}, nil
	}
	return c.decode(prev)
}
