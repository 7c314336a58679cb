package snapshot

import "testing"

// The DIGEST_TEXTs are as MySQL 8 and MariaDB 10/11 write them: keywords
// upper-cased, names backquoted, tokens spaced, literals as ? and lists
// reduced ("IN (...)", MySQL 8's "IN (?)" for one value, "VALUES (...) /* ,
// ... */" for rows).
func TestStatementShapeJoinsADigestAndItsStatement(t *testing.T) {
	cases := []struct{ query, digest, want string }{
		{"SELECT k, COUNT(*) FROM sbtest1 WHERE id IN (1, 2, 3) GROUP BY k",
			"SELECT `k` , COUNT ( * ) FROM `sbtest1` WHERE `id` IN (...) GROUP BY `k`",
			"select k count from sbtest1 where id in group by k"},
		{"SELECT c, MAX(note), COUNT(*) FROM app.t GROUP BY c",
			"SELECT `c` , MAX ( `note` ) , COUNT ( * ) FROM `app` . `t` GROUP BY `c`",
			"select c max note count from app t group by c"},
		{"SELECT * FROM t1 WHERE a IN (1)", "SELECT * FROM `t1` WHERE `a` IN (?)", "select from t1 where a in"},
		{"SELECT o.order_id FROM shop.orders o WHERE o.status IN ('paid','sent')",
			"SELECT `o` . `order_id` FROM `shop` . `orders` `o` WHERE `o` . `status` IN (...)",
			"select o order_id from shop orders o where o status in"},
		{"select * from d.t where a in (1,2) limit 10 offset 20",
			"SELECT * FROM `d` . `t` WHERE `a` IN (...) LIMIT ? OFFSET ?", "select from d t where a in limit offset"},
		{"SELECT COUNT(*) FROM d.big WHERE c = 42", "SELECT COUNT ( * ) FROM `d` . `big` WHERE `c` = ?",
			"select count from d big where c"},
		// rows of values
		{"INSERT INTO sbtest1 (k, c, pad) VALUES (7, 'c1', 'p1'), (8, 'c2', 'p2')",
			"INSERT INTO `sbtest1` ( `k` , `c` , `pad` ) VALUES (...) /* , ... */", "insert into sbtest1 k c pad values"},
		{"INSERT INTO t1 VALUES (1), (2), (3)", "INSERT INTO `t1` VALUES (?) /* , ... */", "insert into t1 values"},
		{"INSERT INTO t VALUES (1, NULL)", "INSERT INTO `t` VALUES (...)", "insert into t values"},
		// negative numbers: the digest absorbs a sign or keeps it
		{"UPDATE t SET a = -5, b = b - 1 WHERE id = -1", "UPDATE `t` SET `a` = ? , `b` = `b` - ? WHERE `id` = ?",
			"update t set a b b where id"},
		{"SELECT * FROM t WHERE x > -0.5", "SELECT * FROM `t` WHERE `x` > - ?", "select from t where x"},
		// quoted strings, an alias given as a string, a charset introducer
		{`SELECT name AS 'n' FROM t WHERE s = 'it''s' AND u = "x\"y"`, "SELECT NAME AS ? FROM `t` WHERE `s` = ? AND `u` = ?",
			"select name as from t where s and u"},
		{"SELECT _utf8mb4'x' FROM t", "SELECT (_charset) ? FROM `t`", "select from t"},
		// NULL: MySQL 8 writes a lone NULL as a value, IS NULL as is
		{"UPDATE t SET a = NULL", "UPDATE `t` SET `a` = ?", "update t set a"},
		{"SELECT * FROM t WHERE a IS NULL", "SELECT * FROM `t` WHERE `a` IS NULL", "select from t where a is"},
		// LIMIT, and MySQL 8's runs of literals and ORDER BY column numbers
		{"SELECT c FROM sbtest1 WHERE id BETWEEN 5 AND 104 ORDER BY c LIMIT 10",
			"SELECT `c` FROM `sbtest1` WHERE `id` BETWEEN ? AND ? ORDER BY `c` LIMIT ?",
			"select c from sbtest1 where id between and order by c limit"},
		{"SELECT a FROM t LIMIT 5, 10", "SELECT `a` FROM `t` LIMIT ?, ...", "select a from t limit"},
		{"SELECT f(memo, 1, 2) FROM t", "SELECT `f` ( `memo` , ?, ... ) FROM `t`", "select f memo from t"},
		{"SELECT a, b FROM t ORDER BY 2", "SELECT `a` , `b` FROM `t` ORDER BY 2", "select a b from t order by"},
		// comments, and MySQL 8's optimizer hints
		{"/* app:checkout */ SELECT /*+ MAX_EXECUTION_TIME(1000) */ a FROM t -- why\n",
			"SELECT /*+ MAX_EXECUTION_TIME (?) */ `a` FROM `t`", "select a from t"},
		// synonyms a digest writes one way
		{"SELECT DISTINCT c FROM t WHERE d > CURRENT_TIMESTAMP - INTERVAL 1 DAY",
			"SELECT DISTINCTROW `c` FROM `t` WHERE `d` > NOW ( ) - INTERVAL ? SQL_TSI_DAY",
			"select distinct c from t where d now interval day"},
		{"SELECT SUBSTR(a, 2), CAST(b AS CHAR) FROM t WHERE c REGEXP 'x'",
			"SELECT SUBSTRING ( `a` , ? ) , CAST ( `b` AS CHARACTER ) FROM `t` WHERE `c` RLIKE ?",
			"select substring a cast b as char from t where c regexp"},
		// names: case, backquotes, a doubled backquote, a prepared statement
		{"SELECT `Order`, `we``ird` FROM Shop.Orders", "SELECT `Order` , `we``ird` FROM `Shop` . `Orders`",
			"select order we`ird from shop orders"},
		{"UPDATE sbtest1 SET k=k+1 WHERE id=?", "UPDATE `sbtest1` SET `k` = `k` + ? WHERE `id` = ?",
			"update sbtest1 set k k where id"},
	}
	for _, c := range cases {
		for _, form := range []string{c.query, Fingerprint(c.query), c.digest} {
			if got := StatementShape(form); got != c.want {
				t.Errorf("StatementShape(%q)\n got %q\nwant %q", form, got, c.want)
			}
		}
	}
}

func TestStatementShapeKeepsNamesAndClausesApart(t *testing.T) {
	for _, pair := range [][2]string{
		{"SELECT a FROM t WHERE id = 1", "SELECT b FROM t WHERE id = 1"},
		{"SELECT a FROM t1", "SELECT a FROM t2"},
		{"SELECT a FROM t WHERE b IS NULL", "SELECT a FROM t WHERE b IS NOT NULL"},
		{"SELECT a FROM t", "SELECT a FROM t LIMIT 1"},
	} {
		if a, b := StatementShape(pair[0]), StatementShape(pair[1]); a == b {
			t.Errorf("%q and %q share the shape %q", pair[0], pair[1], a)
		}
	}
	// What it may join, by design: operators and literals' positions.
	if a, b := StatementShape("SELECT a FROM t WHERE b = 1 AND c > 2"), StatementShape("SELECT a FROM t WHERE b > 1 AND c = 2"); a != b {
		t.Errorf("%q != %q", a, b)
	}
	if got := StatementShape(""); got != "" {
		t.Errorf("empty text: %q", got)
	}
}
