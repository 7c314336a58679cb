package baseline

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// stateVersion is the format of a saved baseline; a file of another
// version is ignored (the baseline warms up again), never misread.
const stateVersion = 2

// state is a baseline as saved beside the recordings, so a restart of
// serve keeps the servers' normal: the last 30 minutes' buckets (judging
// resumes at once when the restart was short) and each hour of the week's
// normal (judging resumes against Monday 9:00 after a long one).
type state struct {
	Version  int                   `json:"version"`
	Saved    time.Time             `json:"saved"`
	Bucket   int64                 `json:"bucket"`
	Stamps   []int64               `json:"stamps"`
	Admitted []bool                `json:"admitted"`
	Signals  []savedSignal         `json:"signals"`
	Hours    map[string]hourNormal `json:"hours,omitempty"`
}

type savedSignal struct {
	Name  string    `json:"name"`
	Kind  kind      `json:"kind"`
	Dir   direction `json:"dir"`
	Floor float64   `json:"floor"`
	Unit  string    `json:"unit,omitempty"`
	Zero  bool      `json:"zero,omitempty"`
	// Ring, Highs and Lows are the buckets' float32 values, little-endian,
	// in base64 (NaN has no JSON number).
	Ring  string `json:"ring"`
	Highs string `json:"highs"`
	Lows  string `json:"lows"`
}

func encodeRing(r *[nBuckets]float32) string {
	buf := make([]byte, 4*nBuckets)
	for i, v := range r {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(v))
	}
	return base64.StdEncoding.EncodeToString(buf)
}

func decodeRing(s string, r *[nBuckets]float32) error {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(raw) != 4*nBuckets {
		return errors.New("saved baseline: a damaged signal")
	}
	for k := range r {
		r[k] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*k:]))
	}
	return nil
}

// MarshalJSON saves the baseline.
func (t *Tracker) MarshalJSON() ([]byte, error) {
	st := state{Version: stateVersion, Saved: t.last, Bucket: t.bucket, Stamps: t.stamps[:], Admitted: t.admitted[:],
		Hours: map[string]hourNormal{}}
	for _, g := range t.sigs {
		st.Signals = append(st.Signals, savedSignal{Name: g.name, Kind: g.kind, Dir: g.dir, Floor: g.floor, Unit: g.unit,
			Zero: g.zeroWhenAbsent, Ring: encodeRing(&g.ring), Highs: encodeRing(&g.highs), Lows: encodeRing(&g.lows)})
	}
	for h, hn := range t.hours {
		st.Hours[strconv.Itoa(h)] = hn
	}
	return json.Marshal(st)
}

// UnmarshalJSON restores a saved baseline into a tracker that has observed
// nothing yet; the next frame continues it (buckets older than the window
// fall out then).
func (t *Tracker) UnmarshalJSON(b []byte) error {
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("saved baseline: %w", err)
	}
	if st.Version != stateVersion || len(st.Stamps) != nBuckets || len(st.Admitted) != nBuckets {
		return errors.New("saved baseline: another format version")
	}
	t.Reset()
	copy(t.stamps[:], st.Stamps)
	copy(t.admitted[:], st.Admitted)
	t.bucket, t.last = st.Bucket, st.Saved
	for _, s := range st.Signals {
		i, ok := t.byName[s.Name]
		if !ok {
			if len(t.sigs)-len(fixedSignals) >= maxNamed {
				continue
			}
			i = t.add(spec{name: s.Name, kind: s.Kind, dir: s.Dir, floor: s.Floor, unit: s.Unit, zeroWhenAbsent: s.Zero})
		}
		g := t.sigs[i]
		if err := errors.Join(decodeRing(s.Ring, &g.ring), decodeRing(s.Highs, &g.highs), decodeRing(s.Lows, &g.lows)); err != nil {
			t.Reset()
			return errors.New("saved baseline: a damaged signal")
		}
	}
	for h, hn := range st.Hours {
		if n, err := strconv.Atoi(h); err == nil && n >= 0 && n < 7*24 {
			t.hours[n] = hn
		}
	}
	t.restat(t.bucket + 1)
	t.observed = false
	return nil
}
