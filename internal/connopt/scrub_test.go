package connopt

import (
	"strings"
	"testing"
)

// The passwords of the command line are overwritten in the argv memory, and
// nothing else is: a DSN's user, address and database stay readable in ps.
func TestScrubArgsOverwritesPasswordsInPlace(t *testing.T) {
	cases := []struct {
		in, want []string
	}{
		{[]string{"-uapp", "-pHunter2"}, []string{"-uapp", "-pxxxxxxx"}},
		{[]string{"--password=Hunter2"}, []string{"--password=xxxxxxx"}},
		{[]string{"--dsn", "app:Hunter2@tcp(db1:3306)/"}, []string{"--dsn", "app:xxxxxxx@tcp(db1:3306)/"}},
		{[]string{"-dsn", "app:Hunter2@unix(/run/mysqld.sock)/shop"}, []string{"-dsn", "app:xxxxxxx@unix(/run/mysqld.sock)/shop"}},
		{[]string{"--dsn=app:Hun@ter:2@tcp(db1)/"}, []string{"--dsn=app:xxxxxxxxx@tcp(db1)/"}},
		{[]string{"-dsn=app:p/w@tcp(db1)"}, []string{"-dsn=app:xxx@tcp(db1)"}},
		{[]string{"--dsn", "app@tcp(db1)/"}, []string{"--dsn", "app@tcp(db1)/"}},
		{[]string{"record", "--dsn"}, []string{"record", "--dsn"}},
		{[]string{"--", "-pkept"}, []string{"--", "-pkept"}},
	}
	for _, c := range cases {
		args := make([]string, len(c.in))
		for i, a := range c.in {
			args[i] = strings.Clone(a) // writable memory, as argv is
		}
		scrubArgs(args)
		if strings.Join(args, " ") != strings.Join(c.want, " ") {
			t.Errorf("scrubArgs(%q) = %q, want %q", c.in, args, c.want)
		}
	}
}
