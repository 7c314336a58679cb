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

// BenchmarkStoreFrame measures what the recorder pays per tick for a delta
// frame: serialising the snapshot and compressing it, for a busy
// 100-connection server, 5,000 idle and 5,000 busy connections (~1 MB
// frames), in version 1's form
// (one object per thread) and the current one.
func BenchmarkStoreFrame(b *testing.B) {
	for _, c := range []struct {
		name         string
		conns, churn int
	}{{"100busy", 100, 1}, {"5000idle", 5000, 0}, {"5000busy", 5000, 1}} {
		srv := newFakeServer(b, 3, c.conns)
		srv.churn = float64(c.churn)
		snaps := make([]*snapshot.Snapshot, 61)
		for i := range snaps {
			snaps[i] = srv.frame(i).Snapshot
		}
		for _, form := range []string{"v1", "v2"} {
			b.Run(c.name+"/"+form, func(b *testing.B) {
				benchStore(b, snaps, form == "v1")
			})
		}
	}
}

func benchStore(b *testing.B, snaps []*snapshot.Snapshot, v1 bool) {
	codec, err := newFrameCodec()
	if err != nil {
		b.Fatal(err)
	}
	defer codec.close()
	var form frameForm
	store := func(i int) []byte {
		var raw []byte
		if v1 {
			raw, err = v1JSON(snaps[i])
		} else {
			raw, err = form.encode(snaps[i], i == 0)
		}
		if err != nil {
			b.Fatal(err)
		}
		return raw
	}
	prev := store(0)
	var buf []byte
	raw, packed := 0, 0
	for i := 0; b.Loop(); i++ {
		k := 1 + i%(len(snaps)-1)
		if k == 1 {
			prev = store(0)
		}
		cur := store(k)
		if buf, err = codec.encode(buf[:0], cur, prev); err != nil {
			b.Fatal(err)
		}
		raw, packed, prev = raw+len(cur), packed+len(buf), cur
	}
	b.ReportMetric(float64(raw)/float64(b.N), "raw-B/frame")
	b.ReportMetric(float64(packed)/float64(b.N), "zstd-B/frame")
}
