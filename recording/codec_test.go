package recording

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDeltaFramesDecodeWithReferenceZstd checks the documented promise: a
// delta frame is plain zstd with the previous frame as a raw dictionary.
func TestDeltaFramesDecodeWithReferenceZstd(t *testing.T) {
	zstdCLI, err := exec.LookPath("zstd")
	if err != nil {
		t.Skip("zstd command not installed")
	}
	srv := newFakeServer(t, 51, 10)
	prev, _ := frameJSON(srv.frame(0).Snapshot)
	cur, _ := frameJSON(srv.frame(1).Snapshot)
	c, err := newFrameCodec()
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	data, err := c.encode(nil, cur, prev)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "prev.json"), prev, 0o600)
	os.WriteFile(filepath.Join(dir, "cur.zst"), data, 0o600)
	out, err := exec.Command(zstdCLI, "-q", "-d", "-c", "-D", filepath.Join(dir, "prev.json"), filepath.Join(dir, "cur.zst")).Output()
	if err != nil {
		t.Fatalf("zstd -d -D prev: %v", err)
	}
	if !bytes.Equal(out, cur) {
		t.Error("reference zstd decoded something else")
	}
	if len(data)*5 > len(cur) {
		t.Errorf("delta frame %d bytes for %d raw: the dictionary is not used", len(data), len(cur))
	}
}

func TestDecodeWithWrongPredecessorFails(t *testing.T) {
	srv := newFakeServer(t, 52, 10)
	a, _ := frameJSON(srv.frame(0).Snapshot)
	b, _ := frameJSON(srv.frame(1).Snapshot)
	cur, _ := frameJSON(srv.frame(2).Snapshot)
	c, err := newFrameCodec()
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	data, _ := c.encode(nil, cur, b)
	if _, err := c.decode(nil, data, a); err == nil {
		t.Error("decoding against the wrong previous frame must fail (checksum)")
	}
	if got, err := c.decode(nil, data, b); err != nil || !bytes.Equal(got, cur) {
		t.Errorf("right predecessor: %v", err)
	}
}
