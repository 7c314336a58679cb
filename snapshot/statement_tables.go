package snapshot

import "strings"

// StatementTables returns the tables a statement names, as "db.table" in
// lower case (db is the thread's default database for unqualified names).
// It reads the words after FROM, JOIN, UPDATE, INTO, TABLE and TABLES (and
// ON in CREATE/DROP INDEX): enough to tell which waiter and which holder
// touch the same table, never a parser of SQL. Unknown shapes give nothing.
func StatementTables(q, db string) []string {
	sc := sqlScanner{q: q}
	verb := StatementVerb(q)
	var out []string
	expect := false // the next name is a table
	list := false   // a ',' continues the table list
	for {
		kind, text := sc.nextSignificant()
		switch kind {
		case tokEnd:
			return out
		case tokWord, tokQuoted:
			w := strings.ToUpper(text)
			switch {
			case kind == tokWord && tableKeyword(w, verb):
				expect, list = true, true
			case kind == tokWord && expect && tableModifier[w]:
			case expect && !(kind == tokWord && notTable[w]):
				name := tableName(&sc, text, kind, db)
				if !containsString(out, name) {
					out = append(out, name)
				}
				expect = false
			default:
				expect = false
				if kind == tokWord && listEnd[w] {
					list = false
				}
			}
		case tokPunct:
			expect = text == "," && list
			if text != "," {
				list = list && text != "(" && text != ";"
			}
		default:
			expect = false
		}
	}
}

func tableKeyword(w, verb string) bool {
	switch w {
	case "FROM", "JOIN", "UPDATE", "INTO", "TABLE", "TABLES":
		return true
	case "ON":
		return verb == "CREATE" || verb == "DROP"
	}
	return false
}

// tableModifier are words that may stand between a keyword and the table.
var tableModifier = map[string]bool{
	"LOW_PRIORITY": true, "HIGH_PRIORITY": true, "IGNORE": true, "QUICK": true, "DELAYED": true,
	"IF": true, "NOT": true, "EXISTS": true, "ONLY": true, "NO_WRITE_TO_BINLOG": true, "LOCAL": true,
}

// notTable are words after FROM or JOIN that start something else.
var notTable = map[string]bool{"SELECT": true, "DUAL": true, "LATERAL": true, "WITH": true}

// listEnd are words that end a list of tables (FROM a, b WHERE ...).
var listEnd = map[string]bool{
	"WHERE": true, "SET": true, "VALUES": true, "VALUE": true, "SELECT": true, "ON": true, "USING": true,
	"GROUP": true, "ORDER": true, "LIMIT": true, "HAVING": true, "ADD": true, "MODIFY": true, "DROP": true,
	"CHANGE": true, "RENAME": true, "ENGINE": true, "UNION": true, "FOR": true, "WINDOW": true,
	"PARTITION": true, "TO": true,
}

// tableName reads "name" or "db.name" starting at first.
func tableName(sc *sqlScanner, first string, kind tokKind, db string) string {
	name := identifier(first, kind)
	save := sc.i
	if k, t := sc.next(); k == tokPunct && t == "." {
		if k2, t2 := sc.next(); k2 == tokWord || k2 == tokQuoted {
			return name + "." + identifier(t2, k2)
		}
	}
	sc.i = save
	if db == "" {
		return name
	}
	return strings.ToLower(db) + "." + name
}

func identifier(text string, kind tokKind) string {
	if kind == tokQuoted {
		text = strings.ReplaceAll(strings.Trim(text, "`"), "``", "`")
	}
	return strings.ToLower(text)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
