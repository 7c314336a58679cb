package analyzers

import (
	"slices"
	"testing"
)

func TestLimitOffset(t *testing.T) {
	cases := []struct {
		q    string
		want int64
		ok   bool
	}{
		{"SELECT * FROM t LIMIT 20 OFFSET 60000", 60000, true},
		{"select * from t limit 60000, 20", 60000, true},
		{"SELECT * FROM t LIMIT 60000 , 20", 60000, true},
		{"SELECT * FROM t LIMIT 20", 0, false},
		{"SELECT * FROM (SELECT id FROM t LIMIT 5, 10) x LIMIT 10 OFFSET 70000", 70000, true},
		{"SELECT 'LIMIT 99999, 1'", 99999, true},
		{"SELECT * FROM t LIMIT 5 OFFSET", 0, false},
		{"SELECT * FROM t LIMIT 5,", 0, false},
		{"SELECT unlimit 70000, 5 FROM t", 0, false},
		{"SELECT * FROM t\nLIMIT\t20\nOFFSET\t80000", 80000, true}, // text only adds detail; the rule also needs SELECT to run
	}
	for _, c := range cases {
		got, ok := limitOffset(c.q)
		if got != c.want || ok != c.ok {
			t.Errorf("limitOffset(%q) = %d, %v; want %d, %v", c.q, got, ok, c.want, c.ok)
		}
	}
}

func TestTargetTable(t *testing.T) {
	cases := map[string]string{
		"UPDATE b SET c = 1 WHERE d = 2":                   "b",
		"update LOW_PRIORITY ignore `shop`.`b` set c=1":    "shop.b",
		"/* app */ UPDATE b SET c = 1":                     "b",
		"DELETE FROM orders WHERE id < 10":                 "orders",
		"DELETE QUICK IGNORE FROM shop.orders WHERE x = 1": "shop.orders",
		"SELECT 1": "",
	}
	for q, want := range cases {
		if got := targetTable(q); got != want {
			t.Errorf("targetTable(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestWhereColumns(t *testing.T) {
	cases := []struct {
		q    string
		want []string
	}{
		{"UPDATE b SET x = 1 WHERE c = 42 AND `d` IN (1,2)", []string{"c", "d"}},
		{"UPDATE b SET x = 1 WHERE c > 4 AND c < 9 ORDER BY e LIMIT 5", []string{"c"}},
		{"DELETE FROM t WHERE name LIKE 'a%' OR t.k IS NULL", []string{"name", "t.k"}},
		{"UPDATE b SET x = 1", nil},
	}
	for _, c := range cases {
		if got := whereColumns(c.q); !slices.Equal(got, c.want) {
			t.Errorf("whereColumns(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

func TestSameTable(t *testing.T) {
	if !sameTable("shop.b", "b") || !sameTable("`B`", "b") || sameTable("b", "bb") {
		t.Error("sameTable")
	}
}
