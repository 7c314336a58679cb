package collectors

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

// fakeCollector records its runs and returns a scripted error.
type fakeCollector struct {
	name string
	err  error
	runs int
	last string
}

func (f *fakeCollector) Name() snapshot.CollectorName { return snapshot.CollectorName(f.name) }

func (f *fakeCollector) Collect(_ context.Context, s *snapshot.Snapshot) error {
	f.runs++
	if f.err != nil {
		return f.err
	}
	f.last = fmt.Sprint(f.runs)
	s.Status = map[string]string{f.name: f.last}
	return nil
}

func (f *fakeCollector) carry(_, cur *snapshot.Snapshot) {
	cur.Status = map[string]string{f.name: "carried " + f.last}
}

func newSnap(at time.Time) *snapshot.Snapshot {
	return &snapshot.Snapshot{Time: at, Collectors: map[snapshot.CollectorName]snapshot.CollectorState{}}
}

func TestRunDBPeriods(t *testing.T) {
	slow := &fakeCollector{name: "slow"}
	entries := []*scheduled{{c: slow, every: 5 * time.Second}}
	t0 := time.Unix(1000, 0)
	var prev *snapshot.Snapshot
	var got []string
	for i := 0; i < 11; i++ {
		s := newSnap(t0.Add(time.Duration(i) * time.Second))
		runDB(context.Background(), entries, prev, s, time.Second)
		if s.Collectors["slow"].Stale {
			t.Fatalf("tick %d: a carried part is not stale", i)
		}
		got = append(got, s.Status["slow"])
		prev = s
	}
	want := "1,carried 1,carried 1,carried 1,carried 1,2,carried 2,carried 2,carried 2,carried 2,3"
	if fmt.Sprint(got) != fmt.Sprint(strings.Split(want, ",")) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestRunDBFailures(t *testing.T) {
	refused := &mysql.MySQLError{Number: 1227, Message: "Access denied; you need the PROCESS privilege"}
	tests := []struct {
		name         string
		errs         []error
		wantAnswered bool
		wantLost     bool
		wantTimedOut snapshot.CollectorName
		wantRuns     []int
	}{
		{"all fine", []error{nil, nil, nil}, true, false, "", []int{1, 1, 1}},
		{"a refused statement is an answer", []error{refused, nil, nil}, true, false, "", []int{1, 1, 1}},
		{"lost first: the rest are skipped", []error{mysql.ErrInvalidConn, nil, nil}, false, true, "", []int{1, 0, 0}},
		{"lost after an answer", []error{nil, errors.New("x"), mysql.ErrInvalidConn}, true, true, "", []int{1, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var entries []*scheduled
			var fakes []*fakeCollector
			for i, err := range tt.errs {
				f := &fakeCollector{name: fmt.Sprint("c", i), err: err}
				fakes = append(fakes, f)
				entries = append(entries, &scheduled{c: f})
			}
			s := newSnap(time.Unix(1000, 0))
			run := runDB(context.Background(), entries, nil, s, time.Second)
			if run.answered != tt.wantAnswered || (run.lost != nil) != tt.wantLost || run.timedOut != tt.wantTimedOut {
				t.Errorf("run %+v", run)
			}
			for i, f := range fakes {
				if f.runs != tt.wantRuns[i] {
					t.Errorf("%s ran %d times, want %d", f.name, f.runs, tt.wantRuns[i])
				}
				st := s.Collectors[f.Name()]
				if (tt.errs[i] != nil || f.runs == 0) != st.Stale || (st.Stale && st.Error == "") {
					t.Errorf("%s state %+v", f.name, st)
				}
			}
		})
	}
}

func TestRunDBTimeoutNamesTheCollector(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := &fakeCollector{name: "status", err: context.DeadlineExceeded}
	s := newSnap(time.Unix(1000, 0))
	run := runDB(ctx, []*scheduled{{c: f}}, nil, s, time.Second)
	if run.timedOut != "status" || describeLost(run) != "no answer to status within the tick" {
		t.Errorf("run %+v: %q", run, describeLost(run))
	}
	if st := s.Collectors["status"]; !st.Stale || st.Error == "" {
		t.Errorf("state %+v", st)
	}
}

// A failing source keeps its period: a refused 5-s source is asked again
// after 5 s, not on every tick, and says why meanwhile.
func TestRunDBFailingCollectorKeepsItsPeriod(t *testing.T) {
	slow := &fakeCollector{name: "slow", err: &mysql.MySQLError{Number: 1114, Message: "The table '/tmp/#sql' is full"}}
	entries := []*scheduled{{c: slow, every: 5 * time.Second}}
	t0 := time.Unix(1000, 0)
	var prev *snapshot.Snapshot
	for i := 0; i < 11; i++ {
		s := newSnap(t0.Add(time.Duration(i) * time.Second))
		runDB(context.Background(), entries, prev, s, time.Second)
		if st := s.Collectors["slow"]; !st.Stale || !strings.Contains(st.Error, "is full") {
			t.Errorf("tick %d: state %+v, want stale with the error until the next run", i, st)
		}
		prev = s
	}
	if slow.runs != 3 {
		t.Errorf("a failing 5-s source ran %d times in 11 ticks of 1 s, want 3", slow.runs)
	}
}
