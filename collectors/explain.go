package collectors

import (
	"context"
	"database/sql"
	"sort"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// ExplainOptions tune which running statements get their plan fetched.
// Zero values take the defaults.
type ExplainOptions struct {
	// After is how long a statement must have run (default 2 s).
	After time.Duration
	// TTL is how long a plan is reused for the same fingerprint (default 10 min).
	TTL time.Duration
	// PerTick caps the plans fetched in one tick (default 2).
	PerTick int
	// Disabled turns plan fetching off.
	Disabled bool
}

// How soon a failed plan is tried again: after a refusal that will recur
// (privileges, syntax), and sooner after a failure of the moment: a timeout,
// which a busy tick can cause, a lock wait (EXPLAIN UPDATE on a MyISAM/Aria
// table queues for the table lock behind the very convoy it would explain),
// or a thread that finished between the sample and the EXPLAIN. A short
// full-scan UPDATE sent again and again hits those every few seconds; held
// for errorTTL, its fingerprint went unjudged for half a minute at a time.
const (
	errorTTL   = 30 * time.Second
	timeoutTTL = 3 * time.Second
)

// transientErrors are server errors of the moment: lock wait timeout (1205),
// query interrupted (1317), target not running an EXPLAINable command (1933).
var transientErrors = []string{"Error 1205 ", "Error 1317 ", "Error 1933 "}

// transientPlanError reports a stored plan error worth retrying soon.
func transientPlanError(msg string) bool {
	if strings.HasPrefix(msg, timedOutPrefix) {
		return true
	}
	for _, p := range transientErrors {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

func (o ExplainOptions) withDefaults() ExplainOptions {
	if o.After <= 0 {
		o.After = 2 * time.Second
	}
	if o.TTL <= 0 {
		o.TTL = 10 * time.Minute
	}
	if o.PerTick <= 0 {
		o.PerTick = 2
	}
	return o
}

// explainer fetches plans of long-running statements once per fingerprint on
// the on-demand connection, so analyzers (and replays) can judge full scans
// without talking to the server.
type explainer struct {
	link    *serverLink
	actions *actionConn
	opts    ExplainOptions
	cache   map[string]*snapshot.Explain
	// stuck are threads that did not show their running plan in time (e.g.
	// waiting for a lock); they get plain EXPLAIN of their text instead.
	stuck map[int64]time.Time
	// lastSelects are the SELECT fingerprints running at the previous tick.
	lastSelects map[string]bool
}

// recurringSelects are the SELECT fingerprints running now that were also
// running at the previous tick: a 100-ms SELECT sent again and again is seen
// in sample after sample though no run lasts a second, and is the read side
// of the full-scan incident. Its plan is fetched once per fingerprint (then
// cached), like a write's.
func (e *explainer) recurringSelects(ps []snapshot.Process) map[string]bool {
	now := map[string]bool{}
	var out map[string]bool
	for _, p := range ps {
		if p.Command != "Query" || firstWord(stripLeadingComments(p.Info)) != "SELECT" {
			continue
		}
		fp := snapshot.Fingerprint(p.Info)
		now[fp] = true
		if e.lastSelects[fp] {
			if out == nil {
				out = map[string]bool{}
			}
			out[fp] = true
		}
	}
	e.lastSelects = now
	return out
}

// minExplainTime is the least time left in a tick worth starting a fetch in.
const minExplainTime = 50 * time.Millisecond

func newExplainer(link *serverLink, actions *actionConn, opts ExplainOptions) *explainer {
	return &explainer{link: link, actions: actions, opts: opts.withDefaults(),
		cache: map[string]*snapshot.Explain{}, stuck: map[int64]time.Time{}}
}

// Name implements Collector.
func (e *explainer) Name() snapshot.CollectorName { return snapshot.CollectorExplain }

// Collect implements Collector. It must run after the processlist. Its own
// failures are stored in the plan, never returned as a lost connection: the
// sampling connection is not the one that failed.
func (e *explainer) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := e.link.session()
	if sess == nil {
		return errNotConnected
	}
	if e.opts.Disabled {
		return nil
	}
	fetched := 0
	recurring := e.recurringSelects(s.Processlist)
	for _, p := range explainCandidates(s.Processlist, e.opts.After, recurring) {
		fp := snapshot.Fingerprint(p.Info)
		if s.Explains[fp] != nil {
			continue
		}
		ex := e.fresh(fp, s.Time)
		if ex == nil && fetched < e.opts.PerTick && timeLeft(ctx) >= minExplainTime {
			fetched++
			ex = e.fetch(ctx, sess.Caps, p, fp, s.Time)
		}
		if ex != nil {
			if s.Explains == nil {
				s.Explains = map[string]*snapshot.Explain{}
			}
			s.Explains[fp] = ex
		}
	}
	e.prune(s.Time)
	return nil
}

// fresh returns a cached plan that is still valid at now.
func (e *explainer) fresh(fp string, now time.Time) *snapshot.Explain {
	ex := e.cache[fp]
	if ex == nil || now.Sub(ex.At) >= e.ttl(ex) {
		return nil
	}
	return ex
}

func (e *explainer) ttl(ex *snapshot.Explain) time.Duration {
	switch {
	case ex.Error == "":
		return e.opts.TTL
	case transientPlanError(ex.Error):
		return timeoutTTL
	default:
		return errorTTL
	}
}

func (e *explainer) prune(now time.Time) {
	for fp, ex := range e.cache {
		if now.Sub(ex.At) >= e.ttl(ex) {
			delete(e.cache, fp)
		}
	}
	for id, at := range e.stuck {
		if now.Sub(at) >= e.opts.TTL {
			delete(e.stuck, id)
		}
	}
}

// timeLeft is the time until ctx's deadline (a long time without one).
func timeLeft(ctx context.Context) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		return time.Until(dl)
	}
	return time.Hour
}

// fetch gets one plan; nil when the UI holds the on-demand connection.
func (e *explainer) fetch(ctx context.Context, caps Capabilities, p snapshot.Process, fp string, now time.Time) *snapshot.Explain {
	method := caps.Explain
	if _, stuck := e.stuck[p.ID]; stuck {
		method = explainStatement
	}
	rows, method, ran, err := planOf(ctx, e.actions.tryDo, method, p)
	if !ran {
		return nil
	}
	switch judgePlan(method, rows, err) {
	case planStuck:
		e.stuck[p.ID] = now // next tick: the text, without waiting again
		return nil
	case planRetry:
		return nil
	}
	ex := &snapshot.Explain{Fingerprint: fp, ThreadID: p.ID, Statement: p.Info, Method: method, Rows: rows, At: now}
	if err != nil {
		ex.Error = collectorError(err, time.Since(now))
	} else {
		e.actions.tryDo(ctx, func(c *sql.Conn) error {
			ex.TableRows = tableRowEstimates(ctx, c, p.DB, rows)
			return nil
		})
	}
	e.cache[fp] = ex
	return ex
}

// What fetch does with an answer.
type planVerdict int

const (
	planKeep  planVerdict = iota // cache it (a failure for its error's TTL)
	planRetry                    // cache nothing: ask again at the next sighting
	planStuck                    // the running plan timed out: EXPLAIN the text next time
)

// judgePlan decides what an answer is worth. No row is no plan (EXPLAIN
// always prints one, even for an impossible WHERE): the thread moved on
// mid-answer, or the tick ran out between the two tries. Caching it as the
// fingerprint's plan would leave a recurring full-scan UPDATE unjudged for
// the whole TTL, so nothing is cached and the next sighting asks again.
func judgePlan(method string, rows []snapshot.ExplainRow, err error) planVerdict {
	switch {
	case err != nil && method != explainStatement && isDeadline(err):
		return planStuck
	case err == nil && len(rows) == 0:
		return planRetry
	}
	return planKeep
}

// explainCandidates are running SELECT statements older than after or
// recurring (a fingerprint in recurring), and UPDATE/DELETE statements of
// any age, longest-running first. A full-scan
// UPDATE that takes 0.3 s but is sent again and again is the common form of
// the incident; its plan is fetched once per fingerprint (then cached), so
// judging every write costs one EXPLAIN per new statement shape.
func explainCandidates(ps []snapshot.Process, after time.Duration, recurring map[string]bool) []snapshot.Process {
	var out []snapshot.Process
	for _, p := range ps {
		if p.Command == "Query" && explainable(p.Info) && (p.TimeMS >= after.Milliseconds() || isWrite(p.Info) ||
			recurring != nil && recurring[snapshot.Fingerprint(p.Info)]) {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].TimeMS > out[j].TimeMS })
	return out
}

// isWrite reports an UPDATE or DELETE.
func isWrite(q string) bool {
	switch firstWord(stripLeadingComments(q)) {
	case "UPDATE", "DELETE":
		return true
	}
	return false
}

// explainable reports whether plain EXPLAIN may be put before the statement:
// only statements EXPLAIN plans without running them.
func explainable(q string) bool {
	switch firstWord(stripLeadingComments(q)) {
	case "SELECT", "UPDATE", "DELETE", "WITH":
		return true
	}
	return false
}
