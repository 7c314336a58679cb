package analyzers

import (
	"strings"
)

// A restore: a dump file being loaded back by whatever client reads it
// (mysql, mariadb, a restore script). The client sends the file's
// statements as they are written, and the dump tools write them in a
// shape of their own that an application's statements do not have:
//
//   - the extended INSERT of mysqldump and mariadb-dump: "INSERT INTO `t`
//     VALUES (...),(...)", the name back-quoted, no column list, the rows
//     joined with no space (mariadb-dump 10.11 and mydumper put each row on
//     a line of its own: "VALUES\n(...),\n(...)"). The drivers and ORMs that batch rows write a column
//     list and ", (" between the rows, so a batch of the application's is
//     not taken for a restore (trap: a bulk insert named routine work and
//     excused);
//   - the executable comments around each table: "/*!40000 ALTER TABLE `t`
//     DISABLE KEYS */" and the "/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=…" and
//     "/*!40101 SET @OLD_…" / "@saved_cs_client" lines of the file's head.
//
// A plain "SET FOREIGN_KEY_CHECKS=0" or "LOCK TABLES t WRITE" proves
// nothing: migrations and applications send them too.

// dumpInsertProbe is how far into an INSERT the rows' joint is looked for:
// a dump's first row is a few hundred bytes; the rest of a 1 MB statement
// is not read.
const dumpInsertProbe = 4096

// dumpInsert returns the table of a dump's extended INSERT, and whether q
// is one.
func dumpInsert(q string) (table string, ok bool) {
	rest, ok := strings.CutPrefix(q, "INSERT INTO `")
	if !ok {
		return "", false
	}
	end := strings.Index(rest, "` VALUES")
	if end < 0 || end > 192 {
		return "", false
	}
	name := rest[:end]
	if strings.ContainsAny(name, "(, ") { // a column list, or not a name at all
		return "", false
	}
	head := rest[end+len("` VALUES") : min(len(rest), dumpInsertProbe)]
	if t := strings.TrimLeft(head, " \n"); !strings.HasPrefix(t, "(") {
		return "", false
	}
	if !strings.Contains(head, "),(") && !strings.Contains(head, "),\n(") {
		return "", false
	}
	return unquote(name), true
}

// dumpFileLine reads a dump file's executable comments around its tables
// (up is q upper-cased).
func dumpFileLine(q, up string) (doing string, ok bool) {
	const alter = "/*!40000 ALTER TABLE "
	switch {
	case strings.HasPrefix(up, alter) && (strings.Contains(up, " DISABLE KEYS") || strings.Contains(up, " ENABLE KEYS")):
		if t := strings.Fields(q[len(alter):]); len(t) > 0 {
			return "loading " + unquote(t[0]), true
		}
		return "loading", true
	case strings.HasPrefix(up, "/*!40014 SET @OLD_"), strings.HasPrefix(up, "/*!40101 SET @OLD_"),
		strings.HasPrefix(up, "/*!40101 SET @SAVED_CS_CLIENT"), strings.HasPrefix(up, "/*!40101 SET CHARACTER_SET_CLIENT = @SAVED_CS_CLIENT"):
		return "loading", true
	}
	return "", false
}
