package snapshot

import "testing"

func TestMaskSecrets(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Accounts, MariaDB and MySQL spellings.
		{"ALTER USER 'monitor'@'localhost' IDENTIFIED BY 'rotated-pw'",
			"ALTER USER 'monitor'@'localhost' IDENTIFIED BY <secret>"},
		{"create user bob@'%' identified by \"s3cr'et\" with max_user_connections 5",
			"create user bob@'%' identified by <secret> with max_user_connections 5"},
		{"CREATE USER a IDENTIFIED BY PASSWORD '*94BDCEBE19083CE2A1F959FD02F964C7AF4CFC29'",
			"CREATE USER a IDENTIFIED BY PASSWORD <secret>"},
		{"CREATE USER a IDENTIFIED VIA ed25519 USING PASSWORD('pw') OR unix_socket",
			"CREATE USER a IDENTIFIED VIA ed25519 USING PASSWORD(<secret>) OR unix_socket"},
		{"CREATE USER a IDENTIFIED VIA mysql_native_password USING '*94BD' OR unix_socket",
			"CREATE USER a IDENTIFIED VIA mysql_native_password USING <secret> OR unix_socket"},
		{"CREATE USER a IDENTIFIED WITH caching_sha2_password BY 'pw' REQUIRE SSL",
			"CREATE USER a IDENTIFIED WITH caching_sha2_password BY <secret> REQUIRE SSL"},
		{"ALTER USER a IDENTIFIED WITH mysql_native_password AS '*94BD'",
			"ALTER USER a IDENTIFIED WITH mysql_native_password AS <secret>"},
		{"GRANT ALL ON *.* TO 'a'@'%' IDENTIFIED BY 'pw' WITH GRANT OPTION",
			"GRANT ALL ON *.* TO 'a'@'%' IDENTIFIED BY <secret> WITH GRANT OPTION"},
		{"SET PASSWORD = PASSWORD('pw')", "SET PASSWORD = PASSWORD(<secret>)"},
		{"SET PASSWORD FOR 'bob'@'%' = 'pw'", "SET PASSWORD FOR 'bob'@'%' = <secret>"},
		{"set password for bob = password('pw')", "set password for bob = password(<secret>)"},
		// Replication and federated servers.
		{"CHANGE MASTER TO MASTER_HOST='db1', MASTER_USER='repl', MASTER_PASSWORD='r3pl', MASTER_PORT=3306",
			"CHANGE MASTER TO MASTER_HOST='db1', MASTER_USER='repl', MASTER_PASSWORD=<secret>, MASTER_PORT=3306"},
		{"CHANGE REPLICATION SOURCE TO SOURCE_PASSWORD = 'r3pl'", "CHANGE REPLICATION SOURCE TO SOURCE_PASSWORD = <secret>"},
		{"START REPLICA USER='repl' PASSWORD='r3pl'", "START REPLICA USER='repl' PASSWORD=<secret>"},
		{"CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u', PASSWORD 'pw', HOST 'h')",
			"CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u', PASSWORD <secret>, HOST 'h')"},
		// Applications: a password column, keys of the encryption functions.
		{"SELECT id FROM users WHERE login = 'bob' AND password = 'hunter2'",
			"SELECT id FROM users WHERE login = 'bob' AND password = <secret>"},
		{"SELECT 1 FROM users WHERE password <> 'a' OR password != 'b' OR password LIKE 'c%' OR id > 'd'",
			"SELECT 1 FROM users WHERE password <> <secret> OR password != <secret> OR password LIKE <secret> OR id > 'd'"},
		{"UPDATE users SET password = '$2y$10$abc' WHERE id = 7", "UPDATE users SET password = <secret> WHERE id = 7"},
		{"SELECT AES_DECRYPT(card, UNHEX('k3y')) FROM pay WHERE id = 'x'",
			"SELECT AES_DECRYPT(card, UNHEX(<secret>)) FROM pay WHERE id = 'x'"},
		{"INSERT INTO t VALUES (AES_ENCRYPT('4111', 'k3y'), 'visible')",
			"INSERT INTO t VALUES (AES_ENCRYPT(<secret>, <secret>), 'visible')"},
		// A truncated processlist Info: the literal runs to the end.
		{"ALTER USER x IDENTIFIED BY 'rotat", "ALTER USER x IDENTIFIED BY <secret>"},
		// Two statements: the second's literals are its own.
		{"ALTER USER a IDENTIFIED BY 'p'; SELECT 'kept' AS label", "ALTER USER a IDENTIFIED BY <secret>; SELECT 'kept' AS label"},
		// Nothing to mask: the same string back.
		{"SELECT 'password' AS word, 'identified by' FROM t", "SELECT 'password' AS word, 'identified by' FROM t"},
		{"SELECT v FROM bench.t7 WHERE id = 1", "SELECT v FROM bench.t7 WHERE id = 1"},
		{"SELECT MD5('x'), 'by' FROM t ORDER BY 'c'", "SELECT MD5('x'), 'by' FROM t ORDER BY 'c'"},
		{"", ""},
		// Masked text masks to itself.
		{"ALTER USER a IDENTIFIED BY <secret>", "ALTER USER a IDENTIFIED BY <secret>"},
	} {
		if got := MaskSecrets(c.in); got != c.want {
			t.Errorf("MaskSecrets(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestMaskSecretsKeepsCleanText(t *testing.T) {
	q := "SELECT v FROM bench.t7 WHERE id = 1"
	if n := testing.AllocsPerRun(100, func() { MaskSecrets(q) }); n != 0 {
		t.Errorf("%v allocations for a statement without secrets", n)
	}
}

func BenchmarkMaskSecretsInnoDBStatus(b *testing.B) {
	raw := ""
	for len(raw) < 20000 {
		raw += "---TRANSACTION 421, ACTIVE 3 sec starting index read\nmysql tables in use 1, locked 1\n" +
			"MySQL thread id 12, OS thread handle 140, query id 99 localhost root updating\n" +
			"UPDATE shop.acct SET bal = bal - 1 WHERE id = 3\n"
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		MaskSecretsInText(raw)
	}
}

func TestMaskSecretsInText(t *testing.T) {
	raw := "History list length 3\nPurge done for trx's n:o < 56 undo n:o < 0\n---TRANSACTION 421, ACTIVE 3 sec\n" +
		"MariaDB thread id 5, OS thread handle 1401, query id 5 localhost root User sleep\n" +
		"SELECT SLEEP(30), PASSWORD('pw1') FROM users WHERE password <> 'pw2'\n" +
		"MariaDB thread id 6, OS thread handle 1402, query id 9 localhost root\nALTER USER a IDENTIFIED BY\n'pw3'\n--------\n"
	want := "History list length 3\nPurge done for trx's n:o < 56 undo n:o < 0\n---TRANSACTION 421, ACTIVE 3 sec\n" +
		"MariaDB thread id 5, OS thread handle 1401, query id 5 localhost root User sleep\n" +
		"SELECT SLEEP(30), PASSWORD(<secret>) FROM users WHERE password <> <secret>\n" +
		"MariaDB thread id 6, OS thread handle 1402, query id 9 localhost root\nALTER USER a IDENTIFIED BY\n<secret>\n--------\n"
	if got := MaskSecretsInText(raw); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// The whole text scanned as one statement: the apostrophe of "trx's"
	// opens a literal, and the passwords are missed.
	if got := MaskSecrets(raw); got == want {
		t.Errorf("MaskSecrets masked a report as well as MaskSecretsInText: the line test proves nothing")
	}
}

// A masked statement is the same statement to fingerprints and digests.
func TestMaskedStatementFingerprint(t *testing.T) {
	q := "SELECT id FROM users WHERE login = 'bob' AND password = 'hunter2'"
	if a, b := Fingerprint(q), Fingerprint(MaskSecrets(q)); a != b {
		t.Errorf("fingerprints differ: %q and %q", a, b)
	}
	if got := Redact(MaskSecrets(q)); got != "SELECT id FROM users WHERE login = ? AND password = ?" {
		t.Errorf("Redact of a masked statement: %q", got)
	}
}
