package picture

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
)

// svgElement is one parsed element with its attributes and character data.
type svgElement struct {
	name  string
	attrs map[string]string
	text  string
}

// parseSVG decodes the whole document, failing the test if it is not XML.
func parseSVG(t *testing.T, doc []byte) []svgElement {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var els []svgElement
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return els
		}
		if err != nil {
			t.Fatalf("SVG is not valid XML: %v\n%s", err, doc)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			attrs := map[string]string{}
			for _, a := range tok.Attr {
				attrs[a.Name.Local] = a.Value
			}
			els = append(els, svgElement{name: tok.Name.Local, attrs: attrs})
		case xml.CharData:
			if len(els) > 0 {
				els[len(els)-1].text += string(tok)
			}
		}
	}
}

func sampleSVG(t *testing.T) []svgElement {
	var b bytes.Buffer
	if err := writeSVG(&b, sampleScreen(t)); err != nil {
		t.Fatal(err)
	}
	return parseSVG(t, b.Bytes())
}

func TestSVGSizeIsCellsTimesCellSize(t *testing.T) {
	root := sampleSVG(t)[0]
	if root.name != "svg" || root.attrs["width"] != "117.6" || root.attrs["height"] != "85" {
		t.Errorf("root = %+v, want svg of 14×8.4 by 5×17", root)
	}
}

func TestSVGTextRunsCarryTheScreenText(t *testing.T) {
	var texts []string
	for _, el := range sampleSVG(t) {
		if el.name == "text" {
			texts = append(texts, el.text)
		}
	}
	all := strings.Join(texts, "|")
	for _, want := range []string{"QPS", "┌──┐", "║═╗", "a<b & c>", "世", "e\u0301", "└──┘"} {
		if !strings.Contains(all, want) {
			t.Errorf("no <text> holds %q; texts: %q", want, texts)
		}
	}
	if strings.ContainsAny(all, "▁▃▅█") {
		t.Errorf("block elements should be rectangles, not text: %q", texts)
	}
}

func TestSVGStylesAndFills(t *testing.T) {
	els := sampleSVG(t)
	find := func(name, attr, value string) *svgElement {
		for i := range els {
			if els[i].name == name && els[i].attrs[attr] == value {
				return &els[i]
			}
		}
		return nil
	}
	if r := find("rect", "fill", "#ff0000"); r == nil || r.attrs["x"] != "84" || r.attrs["y"] != "0" {
		t.Errorf("red background rect = %+v, want one at column 10 of row 0", r)
	}
	// Reverse bold text: default background colour as text on a light-grey rect.
	if r := find("rect", "fill", hexColor(defaultForeground)); r == nil || r.attrs["y"] != "51" {
		t.Errorf("reverse-video background rect = %+v, want one on row 3", r)
	}
	if tx := find("text", "fill", hexColor(defaultBackground)); tx == nil || tx.attrs["font-weight"] != "bold" {
		t.Errorf("reverse bold text = %+v", tx)
	}
	// ▅ in column 6: 5/8 of the row, sitting on its bottom edge.
	if r := find("rect", "x", "50.4"); r == nil || r.attrs["height"] != "10.63" || r.attrs["y"] != "6.38" ||
		r.attrs["fill"] != "#008000" {
		t.Errorf("▅ rect = %+v", r)
	}
}

func TestWriteSVGRejectsEmptyScreen(t *testing.T) {
	if err := writeSVG(io.Discard, newScreen(t, 0, 3)); err == nil {
		t.Error("WriteSVG on a screen without cells: no error")
	}
}
