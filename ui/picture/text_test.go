package picture

import (
	"bytes"
	"strings"
	"testing"
)

func TestTextShowsEveryRowTrimmed(t *testing.T) {
	got := text(sampleScreen(t))
	if got != sampleText {
		t.Errorf("Text:\n%q\nwant\n%q", got, sampleText)
	}
}

func TestWriteTextMatchesText(t *testing.T) {
	var b bytes.Buffer
	if err := writeText(&b, sampleScreen(t)); err != nil {
		t.Fatal(err)
	}
	if b.String() != sampleText {
		t.Errorf("WriteText wrote %q", b.String())
	}
}

func TestTextOfScreenWithoutCells(t *testing.T) {
	if got := text(nil); got != "" {
		t.Errorf("Text(nil) = %q", got)
	}
	err := writeText(&bytes.Buffer{}, newScreen(t, 0, 0))
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("WriteText on 0×0 screen: err = %v, want a one-line error", err)
	}
}
