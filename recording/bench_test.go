package recording

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// benchFrames serialises n consecutive snapshots of a busy fake server.
func benchFrames(b *testing.B, n int) [][]byte {
	b.Helper()
	return storedFrames(b, newFakeServer(b, 3, 100), n)
}

// BenchmarkEncodeFrame measures compressing one delta frame against its
// predecessor, and reports raw and compressed bytes per frame.
func BenchmarkEncodeFrame(b *testing.B) {
	frames := benchFrames(b, 61)
	c, err := newFrameCodec()
	if err != nil {
		b.Fatal(err)
	}
	defer c.close()
	var buf []byte
	raw, packed := 0, 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := 1 + i%60
		buf, err = c.encode(buf[:0], frames[k], frames[k-1])
		if err != nil {
			b.Fatal(err)
		}
		raw, packed = raw+len(frames[k]), packed+len(buf)
	}
	b.ReportMetric(float64(raw)/float64(b.N), "raw-B/frame")
	b.ReportMetric(float64(packed)/float64(b.N), "zstd-B/frame")
}

// BenchmarkEncodeKeyframe measures compressing one self-contained frame.
func BenchmarkEncodeKeyframe(b *testing.B) {
	frames := benchFrames(b, 1)
	c, err := newFrameCodec()
	if err != nil {
		b.Fatal(err)
	}
	defer c.close()
	var buf []byte
	for b.Loop() {
		if buf, err = c.encode(buf[:0], frames[0], nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(buf)), "zstd-B/frame")
}

// BenchmarkDecodeFrame measures decompressing one delta frame.
func BenchmarkDecodeFrame(b *testing.B) {
	frames := benchFrames(b, 61)
	c, err := newFrameCodec()
	if err != nil {
		b.Fatal(err)
	}
	defer c.close()
	packed := make([][]byte, len(frames))
	for k := 1; k < len(frames); k++ {
		if packed[k], err = c.encode(nil, frames[k], frames[k-1]); err != nil {
			b.Fatal(err)
		}
	}
	var out []byte
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := 1 + i%60
		if out, err = c.decode(out[:0], packed[k], frames[k-1]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite measures a whole Write: redaction off, one transaction.
func BenchmarkWrite(b *testing.B) {
	srv := newFakeServer(b, 4, 100)
	frames := make([]*snapshot.Frame, 120)
	for i := range frames {
		frames[i] = srv.frame(i)
	}
	w, err := Create(b.TempDir()+"/bench.mytop", WriterOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		f := *frames[i%len(frames)]
		s := *f.Snapshot
		s.Time = s.Time.Add(0)
		f.Snapshot = &s
		if err := w.Write(&f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.Size())/float64(b.N), "file-B/frame")
}
