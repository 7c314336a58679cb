package analyzers

import (
	"regexp"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// How one session is recognised as routine work: by its statement's own
// markers (a dump's, a backup's, a restore's, an online schema change's,
// a checksum's, table maintenance) and, as a hint, its account's name.

// backupUser: an account named after the job (a common practice). A name is
// a hint, never proof: it names a session only while it does what such tools
// do (a markerLike statement: table definitions, information_schema, FTWRL, a
// consistent snapshot), never while it is idle or writing, since applications
// are named "backup_api" or "dumpster" too. Read without a regexp: it runs on
// every connection of every frame.
func backupUser(u string) bool {
	l := strings.ToLower(u) // no allocation for the usual lower-case name
	return strings.Contains(l, "backup") || strings.Contains(l, "dump") || l == "sst" || strings.HasPrefix(l, "sst_") ||
		strings.HasSuffix(l, "_sst")
}

// classifyRoutine reads one process.
func classifyRoutine(p *snapshot.Process) routineSighting {
	s := classifyRoutineStatement(p.Info)
	if s.strength == markerLike && p.User != "" && backupUser(p.User) && !infer.IsWriter(p.Info) {
		return routineSighting{tool: toolBackupUser + " '" + p.User + "'", doing: s.doing, strength: markerTool}
	}
	// A dump's statements name their tables without the schema: the
	// session's default schema is the one being loaded.
	if s.tool == toolRestore && p.DB != "" && strings.HasPrefix(s.doing, "loading ") && !strings.Contains(s.doing, ".") {
		s.doing = "loading " + p.DB + "." + strings.TrimPrefix(s.doing, "loading ")
	}
	return s
}

var (
	dumpSelectRe   = regexp.MustCompile("(?is)^\\s*SELECT\\s+/\\*!40001 SQL_NO_CACHE \\*/\\s+.*?\\bFROM\\s+([`\\w.$]+)")
	forceIndexRe   = regexp.MustCompile(`(?i)\bFORCE INDEX\s*\(`)
	limitRe        = regexp.MustCompile(`(?i)\bLIMIT\s+[\d?]`)
	shadowTableRe  = regexp.MustCompile("(?i)`?(_[\\w$]+_(new|old))`?")
	ghostTableRe   = regexp.MustCompile("(?i)`?(_[\\w$]+_(gho|ghc|del))`")
	analyzeRe      = regexp.MustCompile("(?i)^\\s*(ANALYZE|OPTIMIZE|CHECK|REPAIR)\\s+(NO_WRITE_TO_BINLOG\\s+|LOCAL\\s+)?TABLES?\\s+([`\\w.$]+)")
	intoTableRe    = regexp.MustCompile("(?i)\\bINTO\\s+([`\\w.$]+)")
	ddlRe          = regexp.MustCompile("(?i)^\\s*(ALTER\\s+(?:ONLINE\\s+|IGNORE\\s+)*TABLE|CREATE\\s+(?:UNIQUE\\s+|FULLTEXT\\s+|SPATIAL\\s+)?INDEX\\s+\\S+\\s+ON|CREATE\\s+(?:OR\\s+REPLACE\\s+)?TABLE(?:\\s+IF\\s+NOT\\s+EXISTS)?)\\s+([`\\w.$]+)")
	backupStageRe  = regexp.MustCompile(`(?i)^\s*BACKUP\s+(STAGE\s+\w+|LOCK|UNLOCK)`)
	perconaInitRe  = regexp.MustCompile(`(?i)SET @@SQL_QUOTE_SHOW_CREATE = 1/\*!40101, @@SQL_MODE='NO_AUTO_VALUE_ON_ZERO`)
	perconaChunkRe = regexp.MustCompile(`(?i)/\*(first lower boundary|next chunk boundary|key_len|explain [^*]*|past (lower|upper) chunk)\*/`)
)

// classifyRoutineStatement reads a statement's own markers. The texts are
// those the tools send (mariadb-dump 10.11, mariabackup 10.11, Percona
// Toolkit 3, gh-ost), as a general log of each shows them.
func classifyRoutineStatement(q string) routineSighting {
	if q == "" || plainAppStatement(q) {
		return routineSighting{}
	}
	if len(q) > 4096 {
		q = q[:4096]
	}
	tool := func(t, doing string) routineSighting { return routineSighting{t, doing, markerTool} }
	like := func(t, doing string) routineSighting { return routineSighting{t, doing, markerLike} }
	if t, ok := dumpInsert(q); ok {
		return tool(toolRestore, "loading "+t)
	}
	up := strings.ToUpper(q)
	if doing, ok := dumpFileLine(q, up); ok {
		return tool(toolRestore, doing)
	}
	switch {
	// Percona Toolkit marks its statements with the tool's name.
	case strings.Contains(q, "pt-online-schema-change") || strings.Contains(q, "pt_osc_"):
		return tool(toolPTOSC, ptoscDoing(q, up))
	case strings.Contains(q, "pt-table-checksum") || strings.Contains(up, "`PERCONA`.`CHECKSUMS`") ||
		strings.Contains(q, "/*checksum chunk*/"):
		return tool(toolChecksum, checksumDoing(q))
	case strings.Contains(q, "pt-archiver"):
		return tool(toolArchiver, "archiving")
	case strings.Contains(q, "gh-ost") || ghostTableRe.MatchString(q):
		return tool(toolGhost, ghostDoing(q, up))
	// Hot backups.
	case backupStageRe.MatchString(q):
		f := strings.Fields(q)
		return tool(toolBackup, strings.Join(f[:min(3, len(f))], " "))
	case strings.Contains(up, "MARIADB_BACKUP_HISTORY"):
		return tool(toolBackup, "recording its history")
	case strings.Contains(up, "XTRABACKUP_HISTORY"):
		return tool(toolXtraBackup, "recording its history")
	case strings.Contains(up, "FOR BACKUP"):
		return tool(toolXtraBackup, "taking its backup locks")
	case strings.Contains(up, "PERFORMANCE_SCHEMA.LOG_STATUS"):
		return tool(toolXtraBackup, "reading the log position")
	case strings.HasPrefix(up, "SET SESSION WAIT_TIMEOUT=2147483") ||
		strings.Contains(up, "FROM INFORMATION_SCHEMA.PLUGINS WHERE PLUGIN_NAME='ROCKSDB'") ||
		strings.HasPrefix(up, "FLUSH NO_WRITE_TO_BINLOG ENGINE LOGS"):
		return tool(toolBackup, "copying")
	// Logical dumps.
	case dumpSelectRe.MatchString(q):
		t := dumpSelectRe.FindStringSubmatch(q)[1]
		if forceIndexRe.MatchString(q) && limitRe.MatchString(q) {
			if perconaChunkRe.MatchString(q) {
				return tool(toolPercona, "reading "+unquote(t)+" in chunks")
			}
			return tool(toolArchiver, "reading "+unquote(t)+" in chunks")
		}
		return tool(toolDump, "dumping "+unquote(t))
	case strings.Contains(up, "START TRANSACTION /*!40100 WITH CONSISTENT SNAPSHOT */"),
		strings.HasPrefix(up, "/*!40100 SET @@SQL_MODE='' */"), strings.HasPrefix(up, "/*!40103 SET TIME_ZONE="),
		strings.HasPrefix(up, "FLUSH /*!40101 LOCAL */ TABLES"):
		return tool(toolDump, "starting its consistent snapshot")
	case perconaInitRe.MatchString(q) || perconaChunkRe.MatchString(q):
		return tool(toolPercona, "")
	case strings.HasPrefix(up, "SELECT SQL_NO_CACHE "):
		// The digest text of the markers above: the server drops the comments.
		if forceIndexRe.MatchString(q) && limitRe.MatchString(q) {
			return like(toolPercona, "reading in chunks")
		}
		return like(toolDump, "dumping")
	case strings.HasPrefix(up, "FLUSH TABLES WITH READ LOCK") || strings.HasPrefix(up, "FLUSH TABLES") && strings.Contains(up, "WITH READ LOCK"):
		return like(toolBackup, "holding FLUSH TABLES WITH READ LOCK")
	case strings.Contains(up, "WITH CONSISTENT SNAPSHOT"):
		return like(toolDump, "starting its consistent snapshot")
	case analyzeRe.MatchString(q):
		m := analyzeRe.FindStringSubmatch(q)
		return tool(toolMaintenance, strings.ToUpper(m[1])+" TABLE "+unquote(m[3]))
	// DDL someone started on purpose: ALTER TABLE, CREATE INDEX, and
	// CREATE TABLE … SELECT (a copy), not a plain CREATE TABLE.
	case ddlRe.MatchString(q) && (!strings.HasPrefix(strings.TrimSpace(up), "CREATE TABLE") || strings.Contains(up, "SELECT")):
		m := ddlRe.FindStringSubmatch(q)
		return tool(toolDDL, strings.Join(strings.Fields(strings.ToUpper(m[1])), " ")+" "+unquote(m[2]))
	}
	// What the tools do that an application may do too.
	switch {
	case strings.HasPrefix(up, "SHOW CREATE") || strings.HasPrefix(up, "SHOW FULL TABLES") ||
		strings.HasPrefix(up, "SHOW TRIGGERS") || strings.HasPrefix(up, "SHOW TABLE STATUS") ||
		strings.HasPrefix(up, "SHOW FIELDS") || strings.HasPrefix(up, "SHOW COLUMNS"):
		return like(toolDump, "reading table definitions")
	// A dump with --routines and --events lists them by schema; MariaDB makes
	// an on-disk temporary table for each of these reads.
	case showRoutinesRe.MatchString(up):
		return like(toolDump, "reading routine definitions")
	case strings.Contains(up, "INFORMATION_SCHEMA"):
		return like(toolDump, "reading information_schema")
	case strings.HasPrefix(up, "SAVEPOINT SP") || strings.HasPrefix(up, "ROLLBACK TO SAVEPOINT SP") ||
		strings.HasPrefix(up, "RELEASE SAVEPOINT SP"):
		return like(toolDump, "")
	case strings.HasPrefix(up, "INSERT") && shadowTableRe.MatchString(q):
		if m := intoTableRe.FindStringSubmatch(q); m != nil && shadowTableRe.MatchString(m[1]) {
			return like(toolPTOSC, "copying rows into "+unquote(m[1]))
		}
	}
	return routineSighting{}
}

// plainAppStatement is the fast path for the processlist's bulk: a DML
// statement with none of the tools' markers, read without upper-casing it.
func plainAppStatement(q string) bool {
	q = strings.TrimLeft(q, " \t\r\n(")
	dml := false
	for _, v := range []string{"SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE"} {
		if len(q) >= len(v) && strings.EqualFold(q[:len(v)], v) {
			dml = true
			break
		}
	}
	if !dml {
		return false
	}
	if _, ok := dumpInsert(q); ok { // a restore's rows: no marker but their shape
		return false
	}
	for _, m := range []string{"/*", "`_", "information_schema", "INFORMATION_SCHEMA", "percona", "backup_history",
		"log_status", "pt-", "_new", "_gho", "_ghc", "plugins", "SQL_NO_CACHE", "sql_no_cache"} {
		if strings.Contains(q, m) {
			return false
		}
	}
	return true
}

func ptoscDoing(q, up string) string {
	switch {
	case strings.HasPrefix(up, "INSERT"):
		if m := intoTableRe.FindStringSubmatch(q); m != nil {
			return "copying rows into " + unquote(m[1])
		}
		return "copying rows"
	case strings.HasPrefix(up, "CREATE TRIGGER"):
		return "creating its triggers"
	case strings.HasPrefix(up, "DROP TRIGGER"):
		return "dropping its triggers"
	case strings.HasPrefix(up, "ANALYZE"):
		return "analyzing the new table"
	case strings.HasPrefix(up, "RENAME"):
		return "swapping the tables"
	}
	return ""
}

func ghostDoing(q, up string) string {
	f := strings.Fields(up)
	switch {
	case len(f) > 0 && f[0] == "INSERT":
		if m := ghostTableRe.FindStringSubmatch(q); m != nil {
			return "copying rows into " + m[1]
		}
		return "copying rows"
	case strings.Contains(up, "RENAME"):
		return "swapping the tables"
	}
	return ""
}

var fromTableRe = regexp.MustCompile("(?i)\\bFROM\\s+([`\\w.$]+)")

// checksumDoing names the table a checksum chunk reads, not the
// percona.checksums table it writes.
func checksumDoing(q string) string {
	for _, m := range fromTableRe.FindAllStringSubmatch(q, -1) {
		if t := unquote(m[1]); !strings.EqualFold(t, "percona.checksums") {
			return "checksumming " + t
		}
	}
	return "checksumming"
}

func unquote(t string) string { return strings.ReplaceAll(t, "`", "") }
