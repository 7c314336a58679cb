package picture

import "testing"

func TestReadGridWideRuneCoversTwoCells(t *testing.T) {
	s := newScreen(t, 4, 1)
	put(s, 0, 0, "世", redBackground)
	s.Show()
	g, err := readGrid(s)
	if err != nil {
		t.Fatal(err)
	}
	wide, cont := g.cells[0], g.cells[1]
	if wide.text != "世" || wide.width != 2 {
		t.Errorf("wide cell = %+v", wide)
	}
	if cont.text != "" || cont.width != 0 || cont.paint != wide.paint {
		t.Errorf("continuation = %+v, want empty with the wide cell's paint %+v", cont, wide.paint)
	}
	if g.cells[2].text != " " || g.cells[2].width != 1 {
		t.Errorf("cell after = %+v", g.cells[2])
	}
}

func TestReadGridWideRuneInLastColumnIsBlank(t *testing.T) {
	s := newScreen(t, 3, 1)
	put(s, 2, 0, "世", redBackground)
	s.Show()
	g, err := readGrid(s)
	if err != nil {
		t.Fatal(err)
	}
	if c := g.cells[2]; c.text != " " || c.width != 1 {
		t.Errorf("last cell = %+v, want a narrow blank", c)
	}
}

func TestCellText(t *testing.T) {
	tests := []struct {
		runes []rune
		want  string
	}{
		{nil, " "},
		{[]rune{'a'}, "a"},
		{[]rune{'e', 0x301}, "e\u0301"},
		{[]rune{0x07}, " "},
		{[]rune{0x9b}, " "},
		{[]rune{'x', 0x01, 0xffff}, "x"},
		{[]rune{0xd800}, " "},
	}
	for _, tt := range tests {
		if got := cellText(tt.runes); got != tt.want {
			t.Errorf("cellText(%U) = %q, want %q", tt.runes, got, tt.want)
		}
	}
}
