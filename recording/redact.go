package recording

import (
	"maps"
	"sort"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// replicaQueryKeys are SHOW REPLICA STATUS fields whose text may quote a
// failed statement.
var replicaQueryKeys = []string{"Last_Error", "Last_SQL_Error"}

// redacted returns a copy of s with every literal in query text replaced by
// "?" (snapshot.Redact). s itself is never modified: the dashboard shows the
// same Snapshot unredacted. The raw InnoDB status is dropped, because it
// quotes statements in places no parser can promise to find; its parsed
// sections stay.
func redacted(s *snapshot.Snapshot) *snapshot.Snapshot {
	c := *s
	if len(s.Processlist) > 0 {
		c.Processlist = make([]snapshot.Process, len(s.Processlist))
		for i, p := range s.Processlist {
			p.Info = snapshot.Redact(p.Info)
			c.Processlist[i] = p
		}
	}
	if s.InnoDB != nil {
		c.InnoDB = redactedInnoDB(s.InnoDB)
	}
	if len(s.Explains) > 0 {
		c.Explains = make(map[string]*snapshot.Explain, len(s.Explains))
		for k, e := range s.Explains {
			ec := *e
			ec.Statement = snapshot.Redact(e.Statement)
			ec.Error = snapshot.Redact(e.Error)
			c.Explains[k] = &ec
		}
	}
	c.Statements = redactedStatements(s.Statements)
	if len(s.PreparedOwners) > 0 {
		c.PreparedOwners = make([]snapshot.PreparedOwner, len(s.PreparedOwners))
		for i, o := range s.PreparedOwners {
			o.Sample = snapshot.Redact(o.Sample)
			c.PreparedOwners[i] = o
		}
	}
	c.Locks = redactedLocks(s.Locks)
	if s.Replica != nil {
		c.Replica = redactedReplica(s.Replica)
	}
	if len(s.ReplicaChannels) > 0 {
		c.ReplicaChannels = make([]map[string]string, len(s.ReplicaChannels))
		for i, r := range s.ReplicaChannels {
			c.ReplicaChannels[i] = redactedReplica(r)
		}
	}
	return &c
}

// redactedReplica is a copy of one replica status row with the literals of
// the statements its errors quote replaced.
func redactedReplica(r map[string]string) map[string]string {
	c := maps.Clone(r)
	for _, k := range replicaQueryKeys {
		if v, ok := c[k]; ok {
			c[k] = snapshot.Redact(v)
		}
	}
	return c
}

func redactedInnoDB(in *snapshot.InnoDBStatus) *snapshot.InnoDBStatus {
	c := *in
	c.Raw = ""
	c.LatestDeadlock = snapshot.Redact(in.LatestDeadlock)
	if len(in.Transactions.Trx) > 0 {
		c.Transactions.Trx = make([]snapshot.InnoDBTrx, len(in.Transactions.Trx))
		for i, t := range in.Transactions.Trx {
			t.Query = snapshot.Redact(t.Query)
			c.Transactions.Trx[i] = t
		}
	}
	return &c
}

// queryTexts lists the distinct query texts of the unredacted s, longest
// first, so findings quoting them can be scrubbed.
func queryTexts(s *snapshot.Snapshot) []string {
	seen := map[string]bool{}
	add := func(q string) {
		if strings.TrimSpace(q) != "" {
			seen[q] = true
		}
	}
	for _, p := range s.Processlist {
		add(p.Info)
	}
	if s.InnoDB != nil {
		for _, t := range s.InnoDB.Transactions.Trx {
			add(t.Query)
		}
	}
	for _, e := range s.Explains {
		add(e.Statement)
	}
	// Replication errors quote the failed statement and the duplicate value.
	for _, c := range s.Channels() {
		for _, k := range replicaQueryKeys {
			add(c.Raw[k])
		}
	}
	lockQueryTexts(s.Locks, add)
	out := make([]string, 0, len(seen))
	for q := range seen {
		out = append(out, q)
	}
	return out
}

// minQuotedPrefix is the shortest query prefix treated as a quotation when a
// finding cites a truncated statement.
const minQuotedPrefix = 12

// scrubQuotes replaces, in text, each query of queries (or the longest prefix
// of it that text quotes, since findings often truncate statements) with its
// redacted form. Findings keep their own numbers; only quoted SQL changes.
// Statements often share a prefix ("SELECT … WHERE id = 4"), so the longest
// quotation is replaced first: a shorter match of a sibling statement must
// not cut a literal in two.
func scrubQuotes(text string, queries []string) string {
	type match struct {
		q string
		n int
	}
	var ms []match
	for _, q := range queries {
		if n := quotedPrefixLen(text, q); n > 0 {
			ms = append(ms, match{q, n})
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].n > ms[j].n })
	for _, m := range ms {
		if n := quotedPrefixLen(text, m.q); n > 0 {
			text = strings.ReplaceAll(text, m.q[:n], snapshot.Redact(m.q[:n]))
		}
	}
	return text
}

// quotedPrefixLen returns the length of the longest prefix of q (at least
// minQuotedPrefix bytes) contained in text, or 0. Containment of prefixes is
// monotone in length, so a binary search finds it.
func quotedPrefixLen(text, q string) int {
	if len(q) < minQuotedPrefix || !strings.Contains(text, q[:minQuotedPrefix]) {
		return 0
	}
	lo, hi := minQuotedPrefix, len(q) // text contains q[:lo]
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if strings.Contains(text, q[:mid]) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// redactedFindings returns copies of fs with quoted statements of s scrubbed.
func redactedFindings(fs []snapshot.Finding, s *snapshot.Snapshot) []snapshot.Finding {
	if len(fs) == 0 {
		return fs
	}
	queries := queryTexts(s)
	out := make([]snapshot.Finding, len(fs))
	for i, f := range fs {
		f.Title = scrubQuotes(f.Title, queries)
		f.Advice = scrubQuotes(f.Advice, queries)
		ev := make([]string, len(f.Evidence))
		for j, e := range f.Evidence {
			ev[j] = scrubQuotes(e, queries)
		}
		f.Evidence = ev
		f.RootBlockers = redactedRootBlockers(f.RootBlockers, queries)
		out[i] = f
	}
	return out
}
