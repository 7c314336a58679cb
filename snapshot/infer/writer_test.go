package infer

import "testing"

func TestIsWriter(t *testing.T) {
	for q, want := range map[string]bool{
		"INSERT INTO t VALUES (1)":                               true,
		"/* app */ replace into t values (1)":                    true,
		"UPDATE t SET a = 1":                                     true,
		"DELETE FROM t WHERE id = 1":                             true,
		"LOAD DATA INFILE '/tmp/x' INTO TABLE t":                 true,
		"ALTER TABLE t ADD COLUMN c INT":                         true,
		"CREATE TABLE t2 AS SELECT * FROM t":                     true,
		"OPTIMIZE TABLE t":                                       true,
		"/*!40101 INSERT INTO t VALUES (1) */":                   true,
		"SELECT * FROM t":                                        false,
		"SHOW CREATE TABLE t":                                    false,
		"SELECT /*!40001 SQL_NO_CACHE */ * FROM `t`":             false,
		"FLUSH TABLES WITH READ LOCK":                            false,
		"":                                                       false,
		"START TRANSACTION /*!40100 WITH CONSISTENT SNAPSHOT */": false,
	} {
		if got := IsWriter(q); got != want {
			t.Errorf("IsWriter(%q) = %v, want %v", q, got, want)
		}
	}
}
