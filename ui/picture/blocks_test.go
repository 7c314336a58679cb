package picture

import "testing"

func TestBlockArea(t *testing.T) {
	tests := []struct {
		text string
		want area
		ok   bool
	}{
		{"▁", area{0, 7.0 / 8, 1, 1}, true},
		{"▅", area{0, 3.0 / 8, 1, 1}, true},
		{"█", area{0, 0, 1, 1}, true},
		{"▀", area{0, 0, 1, 0.5}, true},
		{"▉", area{0, 0, 7.0 / 8, 1}, true},
		{"▏", area{0, 0, 1.0 / 8, 1}, true},
		{"▐", area{0.5, 0, 1, 1}, true},
		{"░", area{}, false}, // shades are glyphs in Go Mono
		{"─", area{}, false},
		{"a", area{}, false},
		{"▅\u0301", area{}, false},
		{"", area{}, false},
	}
	for _, tt := range tests {
		got, ok := blockArea(tt.text)
		if ok != tt.ok || got != tt.want {
			t.Errorf("blockArea(%q) = %v, %v; want %v, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}
