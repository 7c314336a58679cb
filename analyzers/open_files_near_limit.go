package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Open files near open_files_limit (FILE-01): past the limit the server
// cannot open a table, a temporary file or a connection's socket, and fails
// statements with "Too many open files" (errno 24, error 23 / 1016).

// OpenFilesConfig holds open_files_near_limit's thresholds. Embedded in
// Config.
type OpenFilesConfig struct {
	// OpenFilesWarn / OpenFilesCrit: % of open_files_limit in use, the larger
	// of Open_files (files the server opened through its own file layer:
	// MyISAM/Aria data and index files, logs) and Innodb_num_open_files
	// (FILE-01: APA MysqlTooManyOpenFiles warns > 75 %; MT's badprint is
	// > 85 %, used as the higher tier). Trap: Opened_files, a cumulative
	// count of opens, which grows for ever on a healthy server; only the
	// files open now count.
	OpenFilesWarn float64
	OpenFilesCrit float64
}

func (c *OpenFilesConfig) defaults() {
	*c = OpenFilesConfig{OpenFilesWarn: 75, OpenFilesCrit: 85}
}

// IDOpenFilesNearLimit names the findings of open_files_near_limit: a contract
// (the README's findings table), stable, never reused.
const IDOpenFilesNearLimit = "open_files_near_limit"

// openFilesNearLimitRule is open_files_near_limit in the rules table
// (rule.go). Levels against the server's own limit: one sample proves them.
var openFilesNearLimitRule = rule{id: IDOpenFilesNearLimit, check: checkOpenFilesNearLimit,
	persist: persistFor(time.Second, 5*time.Second)}

func checkOpenFilesNearLimit(w *window, c *Config) verdict {
	if r := w.statusNA("Open_files"); r != "" {
		return notApplicable(r)
	}
	limit, ok := w.snap.VarFloat("open_files_limit")
	if !ok || limit <= 0 {
		if len(w.snap.Variables) > 0 {
			return notApplicable("server does not report open_files_limit")
		}
		return quiet()
	}
	files, _ := w.snap.StatusFloat("Open_files")
	innodb, _ := w.snap.StatusFloat("Innodb_num_open_files")
	n, what := files, "Open_files"
	if innodb > files {
		n, what = innodb, "Innodb_num_open_files"
	}
	pct := 100 * n / limit
	if pct < c.OpenFilesWarn {
		return quiet()
	}
	sev := snapshot.Warning
	if pct >= c.OpenFilesCrit {
		sev = snapshot.Critical
	}
	ev := []string{fmt.Sprintf("%s %.0f of open_files_limit %.0f (%.0f %%)", what, n, limit, pct),
		fmt.Sprintf("Open_files %.0f, Innodb_num_open_files %.0f", files, innodb)}
	if v, ok := w.snap.StatusFloat("Open_tables"); ok {
		if size, ok := w.snap.VarFloat("table_open_cache"); ok {
			ev = append(ev, fmt.Sprintf("Open_tables %.0f of table_open_cache %.0f", v, size))
		}
	}
	if v, ok := w.snap.StatusFloat("Open_table_definitions"); ok {
		if size, ok := w.snap.VarFloat("table_definition_cache"); ok {
			ev = append(ev, fmt.Sprintf("Open_table_definitions %.0f of table_definition_cache %.0f", v, size))
		}
	}
	if v, ok := w.variable("innodb_open_files"); ok {
		ev = append(ev, "innodb_open_files="+v)
	}
	ev = append(ev, w.counterLines("Opened_files", "Opened_tables")...)
	want := 2 * limit
	return raise(sev, fmt.Sprintf("%.0f of %.0f open files in use (%.0f %% of open_files_limit)", n, limit, pct), ev,
		fmt.Sprintf("Raise open_files_limit (to %.0f, twice the current; it needs a restart, and the service's "+
			"LimitNOFILE under systemd, or ulimit -n, must allow it: the server silently caps it at the OS "+
			"limit), or lower table_open_cache if the open tables are what holds the files. Past the limit "+
			"statements fail with \"Too many open files\".", want), nil)
}
