package recording

import (
	"fmt"
	"runtime"
	"testing"
)

// idleFrames serialises n consecutive snapshots of a server with conns idle
// connections (all in Sleep, their times growing): at 5,000 a frame is the
// ~1 MB case of the recorder's memory and CPU targets.
func idleFrames(t testing.TB, conns, n int) [][]byte {
	t.Helper()
	srv := newFakeServer(t, 9, conns)
	srv.churn = 0
	return storedFrames(t, srv, n)
}

// TestCodecMemory prints the heap a writer's codec holds once it has encoded
// a keyframe and delta frames, for a busy 100-connection server (~50 KB
// frames) and 5,000 idle connections (~1 MB), and fails past a bound.
func TestCodecMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 5,000-connection stream")
	}
	cases := []struct {
		name   string
		frames [][]byte
		maxMB  float64
	}{
		{"100 busy", busyFrames(t, 8), 5},
		{"5000 idle", idleFrames(t, 5000, 8), 8},
		{"5000 busy", storedFrames(t, newFakeServer(t, 4, 5000), 8), 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mb := codecHeapMB(t, c.frames)
			fmt.Printf("codec heap, %s connections, %d KB frames: %.1f MB\n", c.name, len(c.frames[0])>>10, mb)
			if mb > c.maxMB {
				t.Errorf("codec holds %.1f MB, want <= %.0f", mb, c.maxMB)
			}
		})
	}
}

// busyFrames serialises n snapshots of a busy 100-connection server.
func busyFrames(t testing.TB, n int) [][]byte {
	return storedFrames(t, newFakeServer(t, 3, 100), n)
}

// codecHeapMB encodes frames (the first as a keyframe) with a new codec and
// returns the heap in use that the codec accounts for.
func codecHeapMB(t *testing.T, frames [][]byte) float64 {
	before := heapInUse()
	c, err := newFrameCodec()
	if err != nil {
		t.Fatal(err)
	}
	var buf []byte
	for i, raw := range frames {
		var prev []byte
		if i%4 != 0 { // two keyframe groups: both encoders in use
			prev = frames[i-1]
		}
		if buf, err = c.encode(buf[:0], raw, prev); err != nil {
			t.Fatal(err)
		}
	}
	buf = nil
	after := heapInUse()
	c.close()
	return float64(int64(after)-int64(before)) / (1 << 20)
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
