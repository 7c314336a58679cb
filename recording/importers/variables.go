package importers

// SHOW GLOBAL VARIABLES saved by the mysql client, boxed or tab-separated: no
// samples of its own, it goes beside the others and names the server. Its
// sniff, and its reader in a pile.

import (
	"os"

	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// kindVariables is SHOW GLOBAL VARIABLES, either layout.
const kindVariables fileKind = "variables"

// isVariables: SHOW VARIABLES in a status table's layout.
func isVariables(head []byte, lines []string) bool {
	return (isBoxedStatus(head) || isTSVTable(lines)) && isVariablesTable(lines)
}

// isVariablesTable: SHOW VARIABLES and SHOW STATUS print the same layout;
// variable names are lower case, status names capitalised.
func isVariablesTable(lines []string) bool {
	for _, l := range lines {
		name, _, ok := parse.ParseBoxedRow(l)
		if !ok {
			name, _, ok = parse.ParseStatusRow(l)
		}
		if ok {
			return isLower(name[0])
		}
	}
	return false
}

// readVariables keeps a SHOW VARIABLES table for the samples of the pile.
func (p *pileReader) readVariables(pf *pileFile) error {
	path := pf.path
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	p.run.in.advance(int64(len(raw)))
	vars, err := parse.ParseStatusTable(string(raw))
	if err != nil {
		p.sess.Problems.add(path, 1, err.Error())
		return nil
	}
	if p.tl.variables == nil {
		p.tl.variables = map[string]string{}
	}
	for k, v := range vars {
		p.tl.variables[k] = v
	}
	return nil
}
