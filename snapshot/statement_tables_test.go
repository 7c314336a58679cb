package snapshot

import (
	"strings"
	"testing"
)

func TestStatementTables(t *testing.T) {
	cases := []struct{ q, db, want string }{
		{"SELECT bal FROM shop.acct WHERE id = 1", "", "shop.acct"},
		{"select * from acct a join `shop`.`items` i on a.id = i.id", "shop", "shop.acct shop.items"},
		{"UPDATE LOW_PRIORITY t SET v = 1", "db", "db.t"},
		{"DELETE QUICK FROM shop.t WHERE c = 7", "", "shop.t"},
		{"INSERT INTO shop.o (a) SELECT a FROM shop.i", "", "shop.o shop.i"},
		{"ALTER TABLE shop.acct ADD COLUMN note INT", "", "shop.acct"},
		{"LOCK TABLES a WRITE, b READ", "x", "x.a x.b"},
		{"DROP TABLE IF EXISTS a, b", "x", "x.a x.b"},
		{"CREATE INDEX k ON shop.t (c)", "", "shop.t"},
		{"SELECT 1", "", ""},
		{"SELECT * FROM (SELECT 1) d", "", ""},
		{"/* app */ SELECT c FROM t WHERE id IN (SELECT id FROM u)", "d", "d.t d.u"},
	}
	for _, c := range cases {
		got := strings.Join(StatementTables(c.q, c.db), " ")
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.q, got, c.want)
		}
	}
}
