package parse

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

func verticalRows(text string) []VerticalRow {
	var out []VerticalRow
	v := VerticalRows{Emit: func(r VerticalRow) { out = append(out, r) }}
	for i, line := range strings.Split(text, "\n") {
		v.Line(i+1, line)
	}
	v.Flush()
	return out
}

func TestParseCapturedLockWait(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		ok      bool
		wantErr string
		want    CapturedLockWait
	}{{
		// pt-stalk 3.2.1 on MariaDB 10.11.19: our own capture
		// (recording/importers/testdata/ptstalk-lockwaits).
		name: "pt-stalk INNODB_LOCK_WAITS join",
		text: `*************************** 3. row ***************************
    waiting_trx_id: 25
    waiting_thread: 6
         wait_time: 22
     waiting_query: UPDATE shop.acct SET bal=bal+2 WHERE id=1
waiting_table_lock: ` + "`shop`.`acct`" + `
   blocking_trx_id: 24
   blocking_thread: 5
     blocking_host: 
     blocking_port: localhost
       idle_in_trx: 0
    blocking_query: UPDATE shop.acct SET bal=bal+1 WHERE id=1`,
		ok: true,
		want: CapturedLockWait{WaitingTrx: "25", BlockingTrx: "24", Waiter: 6, Blocker: 5, WaitS: 22,
			Table: "shop.acct", WaitingQuery: "UPDATE shop.acct SET bal=bal+2 WHERE id=1",
			BlockingQuery: "UPDATE shop.acct SET bal=bal+1 WHERE id=1", BlockerIdleS: 0,
			WaiterTrxAgeS: -1, BlockerTrxAgeS: -1, WaiterRowsLocked: -1, BlockerRowsLocked: -1},
	}, {
		// Written from the MySQL 8.0 Reference Manual's sys.innodb_lock_waits
		// column list (not captured: no MySQL 8 server here).
		name: "MySQL 8 sys.innodb_lock_waits (from the documentation)",
		text: `*************************** 1. row ***************************
                wait_started: 2026-12-02 03:04:11
                    wait_age: 00:00:23
               wait_age_secs: 23
                locked_table: ` + "`shop`.`acct`" + `
         locked_table_schema: shop
           locked_table_name: acct
      locked_table_partition: NULL
   locked_table_subpartition: NULL
                locked_index: PRIMARY
                 locked_type: RECORD
              waiting_trx_id: 1555
         waiting_trx_started: 2026-12-02 03:04:11
             waiting_trx_age: 00:00:23
     waiting_trx_rows_locked: 1
   waiting_trx_rows_modified: 0
                 waiting_pid: 5
               waiting_query: UPDATE shop.acct SET bal=bal+1
                                WHERE id=1
             waiting_lock_id: 140211201964816:2:4:2:140211086465800
           waiting_lock_mode: X,REC_NOT_GAP
             blocking_trx_id: 1554
                blocking_pid: 4
              blocking_query: NULL
            blocking_lock_id: 140211201963888:2:4:2:140211086459880
          blocking_lock_mode: X,REC_NOT_GAP
        blocking_trx_started: 2026-12-02 03:04:09
            blocking_trx_age: 00:00:25
    blocking_trx_rows_locked: 2
  blocking_trx_rows_modified: 2
     sql_kill_blocking_query: KILL QUERY 4
sql_kill_blocking_connection: KILL 4`,
		ok: true,
		want: CapturedLockWait{WaitingTrx: "1555", BlockingTrx: "1554", Waiter: 5, Blocker: 4, WaitS: 23,
			LockID: "140211201964816:2:4:2:140211086465800", Table: "shop.acct", Index: "PRIMARY",
			Mode: "X,REC_NOT_GAP", WaitingQuery: "UPDATE shop.acct SET bal=bal+1\n                                WHERE id=1",
			BlockerIdleS: -1, WaiterTrxAgeS: 23, BlockerTrxAgeS: 25, WaiterRowsLocked: 1, BlockerRowsLocked: 2},
	}, {
		// Written from the MySQL 8.0 manual's data_lock_waits example: no
		// connection ids, they come from INNODB_TRX.
		name: "MySQL 8 performance_schema.data_lock_waits (from the documentation)",
		text: `*************************** 1. row ***************************
                          ENGINE: INNODB
       REQUESTING_ENGINE_LOCK_ID: 140211201964816:2:4:2:140211086465800
REQUESTING_ENGINE_TRANSACTION_ID: 1555
            REQUESTING_THREAD_ID: 47
             REQUESTING_EVENT_ID: 5
REQUESTING_OBJECT_INSTANCE_BEGIN: 140211086465800
         BLOCKING_ENGINE_LOCK_ID: 140211201963888:2:4:2:140211086459880
  BLOCKING_ENGINE_TRANSACTION_ID: 1554
              BLOCKING_THREAD_ID: 46
               BLOCKING_EVENT_ID: 12
  BLOCKING_OBJECT_INSTANCE_BEGIN: 140211086459880`,
		ok: true,
		want: CapturedLockWait{WaitingTrx: "1555", BlockingTrx: "1554", WaitS: -1,
			LockID: "140211201964816:2:4:2:140211086465800", BlockerIdleS: -1, WaiterTrxAgeS: -1,
			BlockerTrxAgeS: -1, WaiterRowsLocked: -1, BlockerRowsLocked: -1},
	}, {
		name: "cut short after the waiting side",
		text: `*************************** 7. row ***************************
    waiting_trx_id: 26
    waiting_thread: 7
         wait_time: 21`,
		ok: true, wantErr: "names no waiting or no blocking transaction",
	}, {
		name: "garbled thread id",
		text: `*************************** 2. row ***************************
    waiting_trx_id: 26
    waiting_thread: 7x
   blocking_trx_id: 23
   blocking_thread: 4`,
		ok: true, wantErr: `thread "7x" is not a connection id`,
	}, {
		name: "another table's row",
		text: `*************************** 1. row ***************************
      trx_id: 23
   trx_state: RUNNING`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows := verticalRows(tc.text)
			if len(rows) != 1 {
				t.Fatalf("%d rows", len(rows))
			}
			got, ok, err := ParseCapturedLockWait(rows[0])
			if ok != tc.ok {
				t.Fatalf("ok = %v", ok)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ok && got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestCapturedSummaryTrxAndLockRows(t *testing.T) {
	rows := verticalRows(`*************************** 1. row ***************************
   who_blocks: thread 4 from localhost
  idle_in_trx: 24
max_wait_time: 23
  num_waiters: 4
*************************** 1. row ***************************
                    trx_id: 24
                 trx_state: LOCK WAIT
               trx_started: 2026-12-02 03:04:11
     trx_requested_lock_id: 24:5:3:2
          trx_wait_started: 2026-12-02 03:04:11
       trx_mysql_thread_id: 5
           trx_rows_locked: 1
*************************** 1. row ***************************
    lock_id: 24:5:3:2
lock_trx_id: 24
  lock_mode: X
  lock_type: RECORD
 lock_table: ` + "`shop`.`acct`" + `
 lock_index: PRIMARY`)
	if len(rows) != 3 || !IsLockWaitSummary(rows[0]) || IsLockWaitSummary(rows[1]) {
		t.Fatalf("rows %+v", rows)
	}
	trx, ok := ParseCapturedTrx(rows[1], time.UTC)
	want := CapturedTrx{ID: "24", Thread: 5, State: "LOCK WAIT", RowsLocked: 1, RequestedLock: "24:5:3:2",
		Started: time.Date(2026, 12, 2, 3, 4, 11, 0, time.UTC), WaitStarted: time.Date(2026, 12, 2, 3, 4, 11, 0, time.UTC)}
	if !ok || trx != want {
		t.Errorf("trx %+v", trx)
	}
	if _, ok := ParseCapturedTrx(rows[2], time.UTC); ok {
		t.Error("a lock row read as a transaction")
	}
	id, obj, ok := ParseCapturedLock(rows[2])
	if !ok || id != "24:5:3:2" || obj != (snapshot.RowLockObject{Object: "shop.acct PRIMARY", Mode: "X"}) {
		t.Errorf("lock %q %+v %v", id, obj, ok)
	}
}

// An AUTO-INC queue (innodb_autoinc_lock_mode=0): INNODB_LOCKS says
// lock_type TABLE, so the waits are table-lock edges to the copy holding it,
// which the load view counts as table-lock waits and the table-lock rule reads.
func TestRowWaitSetTableLockEdges(t *testing.T) {
	rows := verticalRows(`*************************** 1. row ***************************
    lock_id: 64:19
lock_trx_id: 64
  lock_mode: AUTO_INC
  lock_type: TABLE
 lock_table: ` + "`app`.`dst`" + `
 lock_index: NULL`)
	id, obj, ok := ParseCapturedLock(rows[0])
	if !ok || !obj.Table || obj.Object != "app.dst" || obj.Mode != "AUTO_INC" {
		t.Fatalf("lock %q %+v %v", id, obj, ok)
	}
	var set infer.RowWaitSet
	set.Add("64", "60", id, snapshot.RowLockObject{})
	set.Add("65", "60", "65:19", snapshot.RowLockObject{})
	got := set.Edges(infer.RowWaitThreads{Thread: map[string]int64{"60": 9, "64": 10, "65": 11}},
		map[string]snapshot.RowLockObject{id: obj, "65:19": {Object: "app.acct PRIMARY", Mode: "X"}})
	if len(got) != 2 || got[0].Kind != snapshot.LockTable || got[0].Blocker != 9 || got[0].Object != "app.dst" ||
		got[1].Kind != snapshot.LockRow {
		t.Errorf("edges %+v", got)
	}
}
