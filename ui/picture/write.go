package picture

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// writers maps an output file's extension to the format written there.
var writers = map[string]func(io.Writer, tcell.SimulationScreen) error{
	".svg": writeSVG,
	".png": writePNG,
	".txt": writeText,
}

// Write saves the screen to path in the format its extension names: .svg,
// .png or .txt (any case). A failed write leaves no partial file behind.
func Write(path string, screen tcell.SimulationScreen) error {
	ext := strings.ToLower(filepath.Ext(path))
	write, ok := writers[ext]
	if !ok {
		return fmt.Errorf("picture: cannot write %q: unknown extension %q (use .svg, .png or .txt)", path, ext)
	}
	if _, err := readGrid(screen); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("picture: %w", err)
	}
	err = write(f, screen)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("picture: writing %s: %w", path, err)
	}
	return nil
}

// InlineSVG is the screen as SVG markup to embed in an HTML page (the HTML
// postmortem): the same drawing as a .svg file, without its XML prolog.
func InlineSVG(screen tcell.SimulationScreen) (string, error) {
	var b strings.Builder
	if err := writeSVG(&b, screen); err != nil {
		return "", err
	}
	s := b.String()
	if i := strings.Index(s, "?>\n"); strings.HasPrefix(s, "<?xml") && i > 0 {
		s = s[i+3:]
	}
	return s, nil
}
