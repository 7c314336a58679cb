package picture

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteChoosesFormatByExtension(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		prefix string
	}{
		{"shot.txt", "QPS ▁▃▅█"},
		{"shot.svg", "<?xml"},
		{"SHOT.PNG", "\x89PNG\r\n\x1a\n"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := Write(path, sampleScreen(t)); err != nil {
			t.Fatalf("Write(%s): %v", tt.name, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(got, []byte(tt.prefix)) {
			t.Errorf("%s starts %q, want %q", tt.name, got[:min(len(got), 12)], tt.prefix)
		}
	}
}

func TestWriteRefusesBadTargets(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, path, wantErr string
	}{
		{"unknown extension", filepath.Join(dir, "shot.jpg"), `unknown extension ".jpg"`},
		{"no extension", filepath.Join(dir, "shot"), `unknown extension ""`},
		{"missing directory", filepath.Join(dir, "nope", "shot.png"), "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Write(tt.path, sampleScreen(t))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line containing %q", err, tt.wantErr)
			}
			if _, statErr := os.Stat(tt.path); !os.IsNotExist(statErr) {
				t.Errorf("%s exists after a failed write", tt.path)
			}
		})
	}
}

func TestWriteEmptyScreenLeavesNoFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shot.png")
	if err := Write(path, newScreen(t, 0, 0)); err == nil {
		t.Fatal("Write of a 0×0 screen: no error")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("%s exists after a failed write", path)
	}
}
