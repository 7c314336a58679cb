package visibility

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// A monitoring user as on RDS granted mysql.rds_kill but not
// mysql.rds_kill_query: k and X would fail, so check says so and names the
// missing GRANT; with both granted, kill is not a blind spot.
func TestProbeNamesTheMissingKillProcedure(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	srv.AddRDSKillUser(t, "rds_mon", "pw")
	srv.Exec(t, "REVOKE EXECUTE ON PROCEDURE mysql.rds_kill_query FROM 'rds_mon'@'localhost'")
	db, err := sql.Open("mysql", fmt.Sprintf("rds_mon:pw@unix(%s)/", srv.Socket))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	a, spots, err := Probe(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	kill := killSpot(spots)
	if kill == nil {
		t.Fatalf("kill not said blind with only mysql.rds_kill granted: %+v", spots)
	}
	if want := "GRANT EXECUTE ON PROCEDURE mysql.rds_kill_query TO 'rds_mon'@'localhost';"; fixFor(*kill, a) != want {
		t.Errorf("fix %q, want %q (why %q)", fixFor(*kill, a), want, kill.Why)
	}

	srv.Exec(t, "GRANT EXECUTE ON PROCEDURE mysql.rds_kill_query TO 'rds_mon'@'localhost'")
	if _, spots, err = Probe(ctx, db); err != nil {
		t.Fatal(err)
	}
	if kill := killSpot(spots); kill != nil {
		t.Errorf("both procedures granted, yet kill said blind: %q", kill.Why)
	}
}

func killSpot(spots []Spot) *Spot {
	for i := range spots {
		if spots[i].Source == srcKill {
			return &spots[i]
		}
	}
	return nil
}
