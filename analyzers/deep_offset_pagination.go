package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// LIMIT … OFFSET n reads and throws away n rows (in InnoDB: n clustered-index
// entries) to return a page; deep pages cost as much as a scan (incident 000:
// OFFSET 60000 read 60,000 rows to return 20).

type offsetQuery struct {
	p      *snapshot.Process
	offset int64
}

func checkDeepOffsetPagination(w *window, c *Config) verdict {
	if r := w.unavailable(collectorProcesslist); r != "" {
		return notApplicable(r)
	}
	var deep []offsetQuery
	for _, p := range w.processes().running(0, "SELECT") {
		if off, ok := limitOffset(p.Info); ok && off >= c.DeepOffsetMin {
			deep = append(deep, offsetQuery{p, off})
		}
	}
	if len(deep) == 0 {
		return quiet()
	}
	worst := deep[0]
	for _, d := range deep[1:] {
		if d.offset > worst.offset {
			worst = d
		}
	}
	title := fmt.Sprintf("%d SELECTs page with OFFSET up to %s, reading the skipped rows each time", len(deep),
		fmtCount(worst.offset))
	var ev []string
	procs := make([]*snapshot.Process, 0, len(deep))
	for i, d := range deep {
		procs = append(procs, d.p)
		if i < maxThreadLines {
			ev = append(ev, fmt.Sprintf("OFFSET %s: %s", fmtCount(d.offset), threadLine(d.p)))
		}
	}
	if len(deep) > maxThreadLines {
		ev = append(ev, fmt.Sprintf("… and %d more", len(deep)-maxThreadLines))
	}
	ev = appendNonEmpty(ev, w.counterLine("Handler_read_next"), w.counterLine("Handler_read_rnd_next"),
		w.counterLine("Innodb_rows_read"))
	return raise(snapshot.Warning, title, ev,
		"Use key-set (seek) pagination instead of OFFSET: remember the last key of the page and ask for "+
			"WHERE key > :last ORDER BY key LIMIT n, with an index on the ordering columns; or cap how deep "+
			"users may page.", ids(procs, maxThreadIDs))
}
