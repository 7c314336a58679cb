package importers

// SHOW GLOBAL STATUS as `mysql -B` prints it: `name<TAB>value` rows, with or
// without the Variable_name header, one table or many in a file. Its sniff, and
// its reader in a pile.

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// kindStatusTSV is mysql -B SHOW GLOBAL STATUS.
const kindStatusTSV fileKind = "status-tsv"

// isTSVTable: nearly every line a `name<TAB>value` row, as `mysql -B -e
// 'SHOW GLOBAL STATUS'` prints (with or without its header).
func isTSVTable(lines []string) bool {
	rows := 0
	for _, l := range lines {
		if _, _, ok := parse.ParseStatusRow(l); ok && strings.Contains(l, "\t") || strings.HasPrefix(l, "Variable_name\t") {
			rows++
		}
	}
	return rows >= 3 && rows*10 >= len(lines)*9
}

// readTSVStatus reads one or more `name<TAB>value` tables: a new table starts
// at a Variable_name header or where a name comes round again.
func (p *pileReader) readTSVStatus(pf *pileFile) error {
	var samples []map[string]string
	var cur map[string]string
	err := p.run.in.eachLine(pf.path, func(n int, line string) {
		t := strings.TrimSpace(line)
		if t == "" {
			return
		}
		if strings.HasPrefix(t, "Variable_name") {
			cur = nil
			return
		}
		name, value, ok := parse.ParseStatusRow(line)
		if !ok {
			p.sess.Problems.add(pf.path, n, "not a Variable_name<TAB>Value row")
			return
		}
		if _, again := cur[name]; again || cur == nil {
			cur = make(map[string]string, 512)
			samples = append(samples, cur)
		}
		cur[strings.Clone(name)] = strings.Clone(value)
	})
	if err == nil && len(samples) > 0 {
		p.addStatus(pf, samples)
	}
	return err
}
