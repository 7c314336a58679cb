package recording

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"sort"
	"testing"
)

var reencode = flag.String("reencode", "", "re-encode the frames of this recording and print bytes per delta frame by part")

// TestReencode answers "where do a real recording's bytes go?": it decodes
// every frame of -reencode FILE, stores it again as this build would, and
// prints the mean delta frame and what each top-level part of the snapshot
// costs in it (the delta frame with the part minus the frame without it).
// Run with `go test ./recording -run TestReencode -reencode FILE -v`.
func TestReencode(t *testing.T) {
	if *reencode == "" {
		t.Skip("needs -reencode FILE")
	}
	r := openT(t, *reencode)
	var stored, v1 [][]byte
	var form frameForm
	for i := range r.Len() {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := form.encode(s, i%defaultKeyframeEvery == 0)
		if err != nil {
			t.Fatal(err)
		}
		old, err := v1JSON(s)
		if err != nil {
			t.Fatal(err)
		}
		stored, v1 = append(stored, raw), append(v1, old)
	}
	c, err := newFrameCodec()
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	full := meanDelta(t, c, stored)
	fmt.Printf("version 1 form: raw %.0f B, delta frame %.0f B, keyframe %d B\n",
		meanLen(v1), meanDelta(t, c, v1), keyframeLen(t, c, v1[len(v1)/2]))
	fmt.Printf("%d frames, raw %.0f B, delta frame %.0f B, keyframe %d B\n",
		len(stored), meanLen(stored), full, keyframeLen(t, c, stored[len(stored)/2]))
	parts := map[string]float64{}
	for _, part := range topLevelKeys(t, stored[len(stored)/2]) {
		parts[part] = full - meanDelta(t, c, withoutPart(t, stored, part))
	}
	names := make([]string, 0, len(parts))
	for k := range parts {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return parts[names[i]] > parts[names[j]] })
	for _, k := range names {
		fmt.Printf("  %-22s %6.0f B\n", k, parts[k])
	}
}

func meanLen(frames [][]byte) float64 {
	n := 0
	for _, f := range frames {
		n += len(f)
	}
	return float64(n) / float64(len(frames))
}

func keyframeLen(t *testing.T, c *frameCodec, raw []byte) int {
	out, err := c.encode(nil, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	return len(out)
}

// meanDelta is the mean size of frames[1:] compressed against their
// predecessors.
func meanDelta(t *testing.T, c *frameCodec, frames [][]byte) float64 {
	t.Helper()
	var buf []byte
	total := 0
	for i := 1; i < len(frames); i++ {
		var err error
		if buf, err = c.encode(buf[:0], frames[i], frames[i-1]); err != nil {
			t.Fatal(err)
		}
		total += len(buf)
	}
	return float64(total) / float64(len(frames)-1)
}

func topLevelKeys(t *testing.T, raw []byte) []string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// withoutPart returns the frames with one top-level key removed, keeping the
// others' bytes and order.
func withoutPart(t *testing.T, frames [][]byte, part string) [][]byte {
	out := make([][]byte, len(frames))
	for i, f := range frames {
		var m orderedObject
		if err := json.Unmarshal(f, &m); err != nil {
			t.Fatal(err)
		}
		m.drop(part)
		out[i] = m.marshal()
	}
	return out
}

// orderedObject is a JSON object that keeps its keys' order, so removing one
// leaves the rest byte for byte as written.
type orderedObject struct {
	keys []string
	vals []json.RawMessage
}

func (o *orderedObject) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		o.keys, o.vals = append(o.keys, tok.(string)), append(o.vals, v)
	}
	return nil
}

func (o *orderedObject) drop(key string) {
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			o.vals = append(o.vals[:i:i], o.vals[i+1:]...)
			return
		}
	}
}

func (o *orderedObject) marshal() []byte {
	b := []byte{'{'}
	for i, k := range o.keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, _ := json.Marshal(k)
		b = append(append(append(b, kb...), ':'), o.vals[i]...)
	}
	return append(b, '}')
}
