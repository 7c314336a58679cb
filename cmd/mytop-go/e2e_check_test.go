package main

import (
	"encoding/json"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/visibility"
)

// TestCheckPrivilegeTiers runs `check --format json` as four monitoring
// users on one throwaway MariaDB with performance_schema on, each with more
// grants, and asserts what each is said to see, to miss, and the GRANT
// named for each gap; the exit status says whether a rule is blind.
func TestCheckPrivilegeTiers(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t, "--performance-schema=ON")
	srv.Exec(t,
		"CREATE USER 'usage_only'@'localhost' IDENTIFIED BY 'pw'",
		"CREATE USER 'proc'@'localhost' IDENTIFIED BY 'pw'",
		"GRANT PROCESS ON *.* TO 'proc'@'localhost'",
		"CREATE USER 'proc_repl'@'localhost' IDENTIFIED BY 'pw'",
		"GRANT PROCESS, SLAVE MONITOR ON *.* TO 'proc_repl'@'localhost'",
		"CREATE USER 'proc_pfs'@'localhost' IDENTIFIED BY 'pw'",
		"GRANT PROCESS ON *.* TO 'proc_pfs'@'localhost'",
		"GRANT SELECT ON performance_schema.* TO 'proc_pfs'@'localhost'",
		// The column grant check advises: account limits without the
		// password hashes.
		"GRANT SELECT (User, Host, max_user_connections) ON mysql.user TO 'proc_pfs'@'localhost'",
	)
	tiers := []struct {
		user      string
		blind     map[string]string // source -> the fix named for it
		sees      []string
		blindRule []string // rules that must be listed blind
		exit      int
	}{
		{"usage_only", map[string]string{
			"processlist":    "GRANT PROCESS ON *.* TO 'usage_only'@'localhost';",
			"innodb":         "GRANT PROCESS ON *.* TO 'usage_only'@'localhost';",
			"locks":          "GRANT PROCESS ON *.* TO 'usage_only'@'localhost';",
			"replica":        "GRANT SLAVE MONITOR ON *.* TO 'usage_only'@'localhost';",
			"statements":     "GRANT SELECT ON performance_schema.* TO 'usage_only'@'localhost';",
			"host_cache":     "GRANT SELECT ON performance_schema.* TO 'usage_only'@'localhost';",
			"kill":           "GRANT CONNECTION ADMIN ON *.* TO 'usage_only'@'localhost';",
			"account_limits": "GRANT SELECT (User, Host, max_user_connections) ON mysql.user TO 'usage_only'@'localhost';",
		}, []string{"status", "variables"}, []string{"long_transaction", "full_scan_update", "replication_lag"}, 3},
		{"proc", map[string]string{
			"replica":        "GRANT SLAVE MONITOR ON *.* TO 'proc'@'localhost';",
			"statements":     "GRANT SELECT ON performance_schema.* TO 'proc'@'localhost';",
			"host_cache":     "GRANT SELECT ON performance_schema.* TO 'proc'@'localhost';",
			"kill":           "GRANT CONNECTION ADMIN ON *.* TO 'proc'@'localhost';",
			"account_limits": "GRANT SELECT (User, Host, max_user_connections) ON mysql.user TO 'proc'@'localhost';",
		}, []string{"processlist", "innodb", "status"}, []string{"replication_lag", "replication_stopped"}, 3},
		{"proc_repl", map[string]string{
			"statements":     "GRANT SELECT ON performance_schema.* TO 'proc_repl'@'localhost';",
			"host_cache":     "GRANT SELECT ON performance_schema.* TO 'proc_repl'@'localhost';",
			"kill":           "GRANT CONNECTION ADMIN ON *.* TO 'proc_repl'@'localhost';",
			"account_limits": "GRANT SELECT (User, Host, max_user_connections) ON mysql.user TO 'proc_repl'@'localhost';",
		}, []string{"processlist", "innodb", "replica"}, nil, -1},
		{"proc_pfs", map[string]string{
			"replica": "GRANT SLAVE MONITOR ON *.* TO 'proc_pfs'@'localhost';",
			"kill":    "GRANT CONNECTION ADMIN ON *.* TO 'proc_pfs'@'localhost';",
		}, []string{"processlist", "innodb", "statements"}, []string{"replication_lag"}, 3},
	}
	for _, tier := range tiers {
		t.Run(tier.user, func(t *testing.T) {
			r, code := checkAs(t, bin, srv, tier.user)
			got := map[string]string{}
			for _, s := range r.Blind {
				got[s.Source] = s.Fix
				if len(s.Panels) == 0 {
					t.Errorf("%s: blind spot %s names no panel", tier.user, s.Source)
				}
			}
			for src, fix := range tier.blind {
				if f, ok := got[src]; !ok {
					t.Errorf("%s: %s not said to be blind (blind: %v)", tier.user, src, got)
				} else if f != fix {
					t.Errorf("%s: %s fix %q, want %q", tier.user, src, f, fix)
				}
			}
			for src := range got {
				if _, ok := tier.blind[src]; !ok && src != "metadata_locks" && src != "innodb_size" {
					t.Errorf("%s: %s said blind, yet this user can read it (%s)", tier.user, src, got[src])
				}
			}
			for _, src := range tier.sees {
				if !slices.Contains(r.Sees, src) {
					t.Errorf("%s: sees %v, want %s among them", tier.user, r.Sees, src)
				}
			}
			for _, id := range tier.blindRule {
				if !slices.Contains(r.RulesBlind, id) {
					t.Errorf("%s: rule %s not listed blind (%v)", tier.user, id, r.RulesBlind)
				}
			}
			want := tier.exit
			if want < 0 { // whatever the report says
				want = 0
				if r.BlindToRules() {
					want = 3
				}
			}
			if code != want {
				t.Errorf("%s: exit %d, want %d (rules blind %v)", tier.user, code, want, r.RulesBlind)
			}
		})
	}
}

func checkAs(t *testing.T, bin string, srv *testdb.Server, user string) (visibility.Report, int) {
	t.Helper()
	cmd := exec.Command(bin, "check", "--no-defaults", "-S", srv.Socket, "-u"+user, "-ppw", "--format", "json")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var r visibility.Report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%s: check printed no JSON (exit %d): %v\n%s\nstderr: %s", user, code, err, out, stderr.String())
	}
	return r, code
}
