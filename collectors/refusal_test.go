package collectors

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

func TestOnlyPrivilegeAndMissingTableRefusalsAreRemembered(t *testing.T) {
	for _, tt := range []struct {
		errno               uint16
		remember, transient bool
	}{
		{1227, true, false}, // needs PROCESS
		{1142, true, false}, // SELECT denied on a table
		{1143, true, false}, // column denied
		{1044, true, false}, // database denied
		{1146, true, false}, // no such table
		{1109, true, false}, // unknown information_schema table (plugin not loaded)
		{1317, false, true}, // the read was killed
		{1114, false, true}, // temporary table full
		{1021, false, true}, // disk full
		{1205, false, true}, // lock wait timeout
		{1969, false, true}, // MariaDB max_statement_time
		{3024, false, true}, // MySQL MAX_EXECUTION_TIME
		{1064, false, false},
	} {
		err := &mysql.MySQLError{Number: tt.errno, Message: "x"}
		if got := rememberRefusal(err); got != tt.remember {
			t.Errorf("%d: remembered %v, want %v", tt.errno, got, tt.remember)
		}
		if got := transientRefusal(err); got != tt.transient {
			t.Errorf("%d: transient %v, want %v", tt.errno, got, tt.transient)
		}
	}
	for _, err := range []error{nil, context.DeadlineExceeded, errors.New("x")} {
		if rememberRefusal(err) {
			t.Errorf("%v remembered", err)
		}
	}
}

// A remembered refusal expires, so a GRANT given mid-incident is picked up
// within a minute.
func TestRefusalsExpire(t *testing.T) {
	r := refusals{}
	t0 := time.Unix(1000, 0)
	r.set("performance_schema.data_lock_waits", "not permitted", t0)
	if _, ok := r.get("performance_schema.data_lock_waits"); !ok {
		t.Fatal("not remembered")
	}
	if r.expire(t0.Add(refusalTTL - time.Second)) {
		t.Error("forgotten early")
	}
	if !r.expire(t0.Add(refusalTTL)) {
		t.Error("not forgotten")
	}
	if _, ok := r.get("performance_schema.data_lock_waits"); ok || refusalTTL > 50*time.Second {
		t.Errorf("still remembered, or remembered too long (%v) to pick a GRANT up within a minute", refusalTTL)
	}
}
