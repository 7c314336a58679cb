package snapshot

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestFingerprint(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT * FROM t WHERE id = 42", "select * from t where id = ?"},
		{"select  *\n\tfrom t\r\nwhere id=42;", "select * from t where id=?"},
		{"SELECT 'it''s', 'a\\'b', \"q\\\"x\" FROM t", "select ?, ?, ? from t"},
		{"SELECT `Order`, `we``ird` FROM `Db`.`T1`", "select `Order`, `we``ird` from `Db`.`T1`"},
		{"select c2, t1.col_3 from t1", "select c2, t1.col_3 from t1"},
		{"UPDATE t SET a = -5, b = +1.5e-3, c = a - 1 WHERE d > -0x1F", "update t set a = ?, b = ?, c = a - ? where d > ?"},
		{"select x'4142', X'00', b'101', 0b11, N'abc', _utf8mb4'é', .5 from t", "select ?, ?, ?, ?, ?, ?, ? from t"},
		{"SELECT * FROM t WHERE id IN (1, 2, 3)", "select * from t where id in (?+)"},
		{"select * from t where id in(  'a' ,'b' ) and x in (-1)", "select * from t where id in (?+) and x in (?+)"},
		{"select * from t where (a,b) in ((1,2),(3,NULL))", "select * from t where (a,b) in (?+)"},
		{"select * from t where id in (select id from u where v = 7)", "select * from t where id in (select id from u where v = ?)"},
		{"INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y'),(3,'z')", "insert into t (a, b) values (?+)"},
		{"insert into t values (1, now())", "insert into t values (?, now())"},
		{"/* mytop-go */ SELECT 1 -- trailing\n# another\n", "select ?"},
		{"SELECT /*+ MAX_EXECUTION_TIME(1000) */ a FROM t", "select a from t"},
		{"select a--b from t", "select a--b from t"},
		{"select 1abc, abc1 from t", "select 1abc, abc1 from t"},
		{"select 'unterminated", "select ?"},
		{"", ""},
	}
	for _, c := range cases {
		if got := Fingerprint(c.in); got != c.want {
			t.Errorf("Fingerprint(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestFingerprintGroupsStatementsThatDifferOnlyInValues(t *testing.T) {
	a := Fingerprint("SELECT * FROM orders WHERE customer = 'alice' AND id IN (1,2,3) LIMIT 10")
	b := Fingerprint("select *   from orders where customer = 'bob' and id in (99) limit 20")
	if a != b {
		t.Errorf("%q != %q", a, b)
	}
}

func TestFingerprintNonUTF8SurvivesJSON(t *testing.T) {
	q := "select \xff\xfecol from t\x80 where v = '\xc3'"
	fp := Fingerprint(q)
	if !utf8.ValidString(fp) {
		t.Fatalf("invalid UTF-8 in %q", fp)
	}
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	var back string
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if got := Fingerprint(back); got != fp {
		t.Errorf("after JSON %q, before %q", got, fp)
	}
}

func TestFingerprintIsLinearOnHugeQuery(t *testing.T) {
	var b strings.Builder
	b.WriteString("SELECT * FROM t WHERE id IN (")
	for b.Len() < 1<<20 {
		b.WriteString("123456, 'abc', ")
	}
	b.WriteString("1) AND x IN (((((((((( /* ( */ ")
	start := time.Now()
	fp := Fingerprint(b.String())
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("1 MB query took %v", d)
	}
	if !strings.HasPrefix(fp, "select * from t where id in (?+) and x in (") {
		t.Errorf("got %.80q", fp)
	}
	if len(Redact(b.String())) >= b.Len() {
		t.Error("Redact did not shorten the literals")
	}
}

func TestRedact(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT * FROM users WHERE email = 'bob@example.com' AND pin=1234",
			"SELECT * FROM users WHERE email = ? AND pin=?"},
		{"UPDATE `t1` SET `col 2` = 'a\\'b''c', x = -7.5e3\nWHERE id IN (1,2)",
			"UPDATE `t1` SET `col 2` = ?, x = -?\nWHERE id IN (?,?)"},
		{"INSERT INTO t VALUES (0xDEAD, x'BEEF', b'1', N'n')", "INSERT INTO t VALUES (?, ?, ?, ?)"},
		{"select 1 /* user='carol' id=5 */ -- card 4111111111111111\n# ssn '123-45-6789\nfrom t",
			"select ? /* user=? id=? */ -- card ?\n# ssn ?\nfrom t"},
		// An open quote inside a comment runs to the comment's end.
		{"select a /* it's open */ , 'x' from t", "select a /* it?*/ , ? from t"},
		{"select t1.c2 from t1", "select t1.c2 from t1"},
		{"select '\xff\xfe' from \xff", "select ? from \xff"},
	}
	for _, c := range cases {
		got := Redact(c.in)
		if got != c.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestRedactLeavesNoLiteral(t *testing.T) {
	secret := []string{"hunter2", "4111", "s3cr3t", "DEAD"}
	q := "/* app='hunter2' */ UPDATE t SET pw='hunter2', pin = 4111, k = X'DEAD' WHERE note = \"s3cr3t\" -- 4111"
	got := Redact(q)
	for _, s := range secret {
		if strings.Contains(got, s) {
			t.Errorf("%q survived in %q", s, got)
		}
	}
}

func TestStatementVerb(t *testing.T) {
	cases := []struct{ in, want string }{
		{"update t set a=1", "UPDATE"},
		{"  /* mytop-go */ Delete FROM t", "DELETE"},
		{"-- x\n# y\n((select 1) union (select 2))", "SELECT"},
		{"/*!40101 SET NAMES utf8 */", "SET"},
		{"/*M!100100 replace into t values (1) */", "REPLACE"},
		{"", ""},
		{"   ", ""},
		{"'x'", ""},
		{"WITH c AS (SELECT 1) UPDATE t SET a = 1", "WITH"},
	}
	for _, c := range cases {
		if got := StatementVerb(c.in); got != c.want {
			t.Errorf("StatementVerb(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzFingerprint(f *testing.F) {
	f.Add("SELECT * FROM t WHERE a IN (1,'x',-2) /* c */ AND b = X'0f'")
	f.Add("insert into t values (1,2),(3,4)")
	f.Add("select `a``b`, \"q\\\"\", '\\\\' -- c\n")
	f.Add("/*!50000 select 1*/ /* unterminated")
	f.Fuzz(func(t *testing.T, q string) {
		fp := Fingerprint(q)
		if !utf8.ValidString(fp) {
			t.Fatalf("invalid UTF-8: %q", fp)
		}
		if Fingerprint(fp) != fp && utf8.ValidString(q) && !strings.ContainsAny(q, "'\"`#-/") {
			t.Fatalf("not idempotent: %q -> %q -> %q", q, fp, Fingerprint(fp))
		}
		r := Redact(q)
		if len(r) > len(q) {
			t.Fatalf("Redact grew the text: %q -> %q", q, r)
		}
		_ = StatementVerb(q)
	})
}

func BenchmarkFingerprint(b *testing.B) {
	q := "SELECT o.id, o.total FROM orders o JOIN customers c ON c.id = o.customer_id " +
		"WHERE c.email = 'someone@example.com' AND o.status IN ('new', 'paid', 'sent') " +
		"AND o.created > '2026-01-01 00:00:00' ORDER BY o.created DESC LIMIT 20 OFFSET 60000"
	b.ReportAllocs()
	for b.Loop() {
		Fingerprint(q)
	}
}
