package collectors

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestExplainable(t *testing.T) {
	tests := []struct {
		q    string
		want bool
	}{
		{"UPDATE b SET x = 1 WHERE c = 2", true},
		{"  delete from b where c = 2", true},
		{"/* app:42 */ SELECT * FROM items", true},
		{"/*+ MAX_EXECUTION_TIME(1000) */ select 1", true},
		{"-- note\nUPDATE b SET x = 1", true},
		{"# note\nDELETE FROM b", true},
		{"(SELECT 1) UNION (SELECT 2)", true},
		{"WITH x AS (SELECT 1) SELECT * FROM x", true},
		{"ANALYZE SELECT * FROM b", false},
		{"EXPLAIN ANALYZE SELECT * FROM b", false},
		{"INSERT INTO b VALUES (1)", false},
		{"DROP TABLE b", false},
		{"/* unterminated SELECT", false},
		{"SELECTED", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := explainable(tt.q); got != tt.want {
			t.Errorf("explainable(%q) = %v, want %v", tt.q, got, tt.want)
		}
	}
}

func TestExplainCandidates(t *testing.T) {
	ps := []snapshot.Process{
		{ID: 1, Command: "Query", TimeMS: 3000, Info: "UPDATE a SET x=1"},
		{ID: 2, Command: "Query", TimeMS: 9000, Info: "DELETE FROM a"},
		{ID: 3, Command: "Query", TimeMS: 500, Info: "SELECT 1"},                              // too young
		{ID: 4, Command: "Sleep", TimeMS: 90000, Info: ""},                                    // idle
		{ID: 5, Command: "Query", TimeMS: 9000, Info: "ALTER TABLE a"},                        // not explainable
		{ID: 6, Command: "Execute", TimeMS: 9000, Info: "SELECT * FROM a"},                    // prepared: no running plan
		{ID: 7, Command: "Query", TimeMS: 300, Info: "UPDATE a SET x=x+1 WHERE b LIKE '%z%'"}, // short write: judged too
	}
	got := explainCandidates(ps, 2*time.Second, nil)
	if len(got) != 3 || got[0].ID != 2 || got[1].ID != 1 || got[2].ID != 7 {
		t.Errorf("got %+v, want threads 2, 1, then the short UPDATE 7", got)
	}
}

// A short SELECT seen in two ticks in a row is planned; one seen once is not.
func TestExplainCandidatesRecurringSelect(t *testing.T) {
	var e explainer
	lookup := snapshot.Process{ID: 8, Command: "Query", TimeMS: 100, Info: "SELECT id FROM app.users WHERE email = 'a@b'"}
	once := snapshot.Process{ID: 9, Command: "Query", TimeMS: 100, Info: "SELECT 2 FROM dual"}
	if r := e.recurringSelects([]snapshot.Process{lookup}); len(explainCandidates([]snapshot.Process{lookup}, 2*time.Second, r)) != 0 {
		t.Errorf("first sighting planned: %v", r)
	}
	lookup.Info, lookup.ID = "SELECT id FROM app.users WHERE email = 'c@d'", 10
	ps := []snapshot.Process{lookup, once}
	got := explainCandidates(ps, 2*time.Second, e.recurringSelects(ps))
	if len(got) != 1 || got[0].ID != 10 {
		t.Errorf("got %+v, want the lookup seen again (thread 10)", got)
	}
}

func TestDecodeExplain(t *testing.T) {
	in := tableOf([]string{"ID", "SELECT_TYPE", "TABLE", "TYPE", "POSSIBLE_KEYS", "KEY", "KEY_LEN", "REF", "ROWS", "EXTRA"},
		[]string{"1", "SIMPLE", "b", "ALL", "\x00", "\x00", "\x00", "\x00", "2104331", "Using where"},
		[]string{"1", "SIMPLE", "c", "eq_ref", "PRIMARY", "PRIMARY", "4", "shop.b.id", "1", ""})
	want := []snapshot.ExplainRow{
		{ID: "1", SelectType: "SIMPLE", Table: "b", Type: "ALL", Rows: 2104331, Extra: "Using where"},
		{ID: "1", SelectType: "SIMPLE", Table: "c", Type: "eq_ref", PossibleKeys: "PRIMARY", Key: "PRIMARY", Rows: 1},
	}
	if got := decodeExplain(in); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestExplainCacheExpiry(t *testing.T) {
	e := newExplainer(nil, nil, ExplainOptions{TTL: time.Minute})
	t0 := time.Unix(1000, 0)
	e.cache["ok"] = &snapshot.Explain{Fingerprint: "ok", At: t0}
	e.cache["failed"] = &snapshot.Explain{Fingerprint: "failed", At: t0, Error: "thread finished"}
	e.cache["slow"] = &snapshot.Explain{Fingerprint: "slow", At: t0, Error: collectorError(context.DeadlineExceeded, time.Second)}
	if e.fresh("ok", t0.Add(59*time.Second)) == nil || e.fresh("failed", t0.Add(29*time.Second)) == nil {
		t.Error("entries expired too early")
	}
	if e.fresh("failed", t0.Add(errorTTL)) != nil {
		t.Error("a failed plan must be retried after errorTTL")
	}
	if e.fresh("slow", t0.Add(timeoutTTL-time.Millisecond)) == nil || e.fresh("slow", t0.Add(timeoutTTL)) != nil {
		t.Error("a timed-out plan must be retried after timeoutTTL")
	}
	e.prune(t0.Add(time.Minute))
	if len(e.cache) != 0 {
		t.Errorf("prune left %v", e.cache)
	}
}

func TestJudgePlan(t *testing.T) {
	scan := []snapshot.ExplainRow{{ID: "1", SelectType: "SIMPLE", Table: "m", Type: "ALL", Rows: 600000}}
	finished := errors.New("Error 1933 (HY000): Target is not running an EXPLAINable command")
	tests := []struct {
		name   string
		method string
		rows   []snapshot.ExplainRow
		err    error
		want   planVerdict
	}{
		{"running plan", explainShowFor, scan, nil, planKeep},
		{"plan of the text", explainStatement, scan, nil, planKeep},
		// The seed incident's trap: an empty answer cached as the plan hid
		// the recurring UPDATE for the TTL.
		{"empty running plan is no plan", explainShowFor, nil, nil, planRetry},
		{"empty plan of the text is no plan", explainStatement, []snapshot.ExplainRow{}, nil, planRetry},
		{"running plan timed out: the text next", explainShowFor, nil, context.DeadlineExceeded, planStuck},
		{"the text timed out: kept briefly", explainStatement, nil, context.DeadlineExceeded, planKeep},
		{"refused: kept for its TTL", explainStatement, nil, finished, planKeep},
	}
	for _, tt := range tests {
		if got := judgePlan(tt.method, tt.rows, tt.err); got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestExplainErrorTTL(t *testing.T) {
	e := newExplainer(nil, nil, ExplainOptions{TTL: time.Minute})
	tests := []struct {
		err  string
		want time.Duration
	}{
		{"", time.Minute},
		{collectorError(context.DeadlineExceeded, time.Second), timeoutTTL},
		// EXPLAIN UPDATE of a MyISAM table queues for the table lock behind
		// the convoy it would explain (measured on MariaDB 10.11): 1205.
		{"Error 1205 (HY000): Lock wait timeout exceeded; try restarting transaction", timeoutTTL},
		{"Error 1933 (HY000): Target is not running an EXPLAINable command", timeoutTTL},
		{"Error 1317 (70100): Query execution was interrupted", timeoutTTL},
		{"Error 1142 (42000): SELECT command denied to user 'mon'@'localhost' for table 'm'", errorTTL},
		{"cannot EXPLAIN a CALL statement", errorTTL},
	}
	for _, tt := range tests {
		if got := e.ttl(&snapshot.Explain{Error: tt.err}); got != tt.want {
			t.Errorf("%q: ttl %s, want %s", tt.err, got, tt.want)
		}
	}
}

func TestQuoteIdent(t *testing.T) {
	if got := quoteIdent("we`ird"); got != "`we``ird`" {
		t.Errorf("got %s", got)
	}
}
