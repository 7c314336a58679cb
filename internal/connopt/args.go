package connopt

import "strings"

// shortWithValue are the mysql-client short options that take a value and may
// have it attached (-uroot, -P3307, -hdb1, -S/tmp/s).
var shortWithValue = map[byte]string{'h': "host", 'P': "port", 'u': "user", 'S': "socket", 'D': "database"}

// NormalizeArgs rewrites mysql-client style arguments into forms the flag
// package understands: "-uroot" -> "--user=root", "-pSECRET" -> "--password=SECRET",
// a bare "-p" -> "--password-prompt". As with the mysql client, "-p VALUE" does
// not take VALUE as the password, so a bare -p always prompts.
func NormalizeArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i:]...)
		case a == "-p" || a == "--password":
			out = append(out, "--password-prompt")
		case strings.HasPrefix(a, "-p") && !strings.HasPrefix(a, "--"):
			out = append(out, "--password="+a[2:])
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && shortWithValue[a[1]] != "":
			out = append(out, "--"+shortWithValue[a[1]]+"="+a[2:])
		case len(a) == 2 && a[0] == '-' && shortWithValue[a[1]] != "":
			out = append(out, "--"+shortWithValue[a[1]])
		default:
			out = append(out, a)
		}
	}
	return out
}
