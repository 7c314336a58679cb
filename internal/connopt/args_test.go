package connopt

import (
	"reflect"
	"testing"
)

func TestNormalizeArgs(t *testing.T) {
	cases := []struct {
		in, want []string
	}{
		{[]string{"-uroot", "-psecret", "-P3307", "-h127.0.0.1"},
			[]string{"--user=root", "--password=secret", "--port=3307", "--host=127.0.0.1"}},
		{[]string{"-u", "app", "-p", "-S", "/tmp/s"},
			[]string{"--user", "app", "--password-prompt", "--socket", "/tmp/s"}},
		{[]string{"--password", "--interval", "2s"}, []string{"--password-prompt", "--interval", "2s"}},
		{[]string{"--password=x", "--port=1"}, []string{"--password=x", "--port=1"}},
		{[]string{"-o", "f.mytop", "--", "-pnot-a-flag"}, []string{"-o", "f.mytop", "--", "-pnot-a-flag"}},
	}
	for _, c := range cases {
		if got := NormalizeArgs(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("NormalizeArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
