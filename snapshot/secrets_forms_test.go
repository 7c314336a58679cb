package snapshot

import "testing"

// The forms applications and managed services put passwords in, beyond the
// server's own statements (TestMaskSecrets).
func TestMaskSecretsForms(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Managed services' replication procedures take the password by place.
		{"CALL mysql.rds_set_external_master('db1.example', 3306, 'repl', 'r3pl', 'mysql-bin.000042', 120, 1)",
			"CALL mysql.rds_set_external_master('db1.example', 3306, 'repl', <secret>, 'mysql-bin.000042', 120, 1)"},
		{"call mysql.rds_set_external_source_with_auto_position('h', 3306, 'repl', 'r3pl', 0, 0)",
			"call mysql.rds_set_external_source_with_auto_position('h', 3306, 'repl', <secret>, 0, 0)"},
		{"CALL mysql.rds_set_external_master_gtid('h', 3306, 'repl', 'r3pl', '0-1-100', 0)",
			"CALL mysql.rds_set_external_master_gtid('h', 3306, 'repl', <secret>, '0-1-100', 0)"},
		{"CALL mysql.az_replication_change_master('h', 'repl', 'r3pl', 3306, 'mysql-bin.000002', 120, '')",
			"CALL mysql.az_replication_change_master('h', 'repl', <secret>, 3306, 'mysql-bin.000002', 120, '')"},
		{"CALL mysql.az_replication_change_master_with_gtid('h', 'repl', 'r3pl', 3306, '3E11FA47-71CA:1-5', '')",
			"CALL mysql.az_replication_change_master_with_gtid('h', 'repl', <secret>, 3306, '3E11FA47-71CA:1-5', '')"},
		// Dynamic SQL: the statement inside the literal is masked as SQL.
		{"EXECUTE IMMEDIATE 'ALTER USER u IDENTIFIED BY ''pw'''",
			"EXECUTE IMMEDIATE 'ALTER USER u IDENTIFIED BY <secret>'"},
		{`PREPARE s FROM 'SET PASSWORD FOR bob = \'pw\''`,
			"PREPARE s FROM 'SET PASSWORD FOR bob = <secret>'"},
		{"SET @q = \"CREATE USER x IDENTIFIED BY 'pw' \"", "SET @q = \"CREATE USER x IDENTIFIED BY <secret> \""},
		// A function or a word between the column and the literal.
		{"SELECT id FROM users WHERE password = SHA2('pw', 256)",
			"SELECT id FROM users WHERE password = SHA2(<secret>, 256)"},
		{"SELECT id FROM users WHERE password = MD5('pw') AND id = 'x'",
			"SELECT id FROM users WHERE password = MD5(<secret>) AND id = 'x'"},
		{"SELECT id FROM users WHERE password = BINARY 'pw'", "SELECT id FROM users WHERE password = BINARY <secret>"},
		{"SELECT id FROM users WHERE password IN ('pw', 'pw2') AND id IN ('a')",
			"SELECT id FROM users WHERE password IN (<secret>, <secret>) AND id IN ('a')"},
		{"SELECT id FROM users WHERE password NOT LIKE 'pw%'", "SELECT id FROM users WHERE password NOT LIKE <secret>"},
		{"UPDATE users SET password = UNHEX(SHA2(CONCAT('salt', 'pw'), 512)) WHERE login = 'bob'",
			"UPDATE users SET password = UNHEX(SHA2(CONCAT(<secret>, <secret>), 512)) WHERE login = 'bob'"},
		// The column-list INSERT, its rows, REPLACE, SET and the upsert.
		{"INSERT INTO users (login, password) VALUES ('bob', 'pw')",
			"INSERT INTO users (login, password) VALUES ('bob', <secret>)"},
		{"INSERT INTO users (`login`, `password`, age) VALUES ('bob', 'pw', 3), ('amy', SHA2('pw2', 256), 4)",
			"INSERT INTO users (`login`, `password`, age) VALUES ('bob', <secret>, 3), ('amy', SHA2(<secret>, 256), 4)"},
		{"REPLACE INTO users (password_hash, login) VALUE ('$2y$10$x', 'bob')",
			"REPLACE INTO users (password_hash, login) VALUE (<secret>, 'bob')"},
		{"INSERT INTO users SET login = 'bob', password = 'pw'", "INSERT INTO users SET login = 'bob', password = <secret>"},
		{"INSERT INTO users (login, encrypted_password) VALUES ('bob', 'x') ON DUPLICATE KEY UPDATE encrypted_password = 'y', login = 'z'",
			"INSERT INTO users (login, encrypted_password) VALUES ('bob', <secret>) ON DUPLICATE KEY UPDATE encrypted_password = <secret>, login = 'z'"},
		{"INSERT INTO users (login, password) SELECT 'bob', 'kept'", "INSERT INTO users (login, password) SELECT 'bob', 'kept'"},
		{"SELECT REPLACE(password, 'a', 'b') FROM t WHERE x = 'c'", "SELECT REPLACE(password, 'a', 'b') FROM t WHERE x = 'c'"},
		// Other names a credential goes by.
		{"UPDATE mysql.user SET authentication_string = '*94BD' WHERE user = 'u'",
			"UPDATE mysql.user SET authentication_string = <secret> WHERE user = 'u'"},
		{"UPDATE u SET password_digest = 'd', api_key = 'k', t.access_token = 't', client_secret = 's', pwd = 'p' WHERE id = 'i'",
			"UPDATE u SET password_digest = <secret>, api_key = <secret>, t.access_token = <secret>, client_secret = <secret>, pwd = <secret> WHERE id = 'i'"},
		{"UPDATE accounts SET password_hash = 0x5f4dcc3b, logins = 3", "UPDATE accounts SET password_hash = <secret>, logins = 3"},
		// The statement inside an executable comment.
		{"CREATE USER u /*!80000 IDENTIFIED BY 'x' */ PASSWORD EXPIRE",
			"CREATE USER u /*!80000 IDENTIFIED BY <secret> */ PASSWORD EXPIRE"},
		{"/*M!100500 SET PASSWORD = PASSWORD('x')*/", "/*M!100500 SET PASSWORD = PASSWORD(<secret>)*/"},
		{"SELECT 1 /* password = 'plain comment' */", "SELECT 1 /* password = 'plain comment' */"},
		// Hex keys.
		{"SELECT AES_ENCRYPT(card, 0x6b6579), AES_DECRYPT(c, X'6b6579') FROM pay",
			"SELECT AES_ENCRYPT(card, <secret>), AES_DECRYPT(c, <secret>) FROM pay"},
		// Names that merely contain a secret's: tables, no literal after.
		{"SELECT t.value FROM tokens t WHERE t.id = 'a' AND (t.kind = 'b')",
			"SELECT t.value FROM tokens t WHERE t.id = 'a' AND (t.kind = 'b')"},
		{"ALTER USER u PASSWORD EXPIRE INTERVAL 90 DAY", "ALTER USER u PASSWORD EXPIRE INTERVAL 90 DAY"},
	} {
		got := MaskSecrets(c.in)
		if got != c.want {
			t.Errorf("MaskSecrets(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
		if again := MaskSecrets(got); again != got {
			t.Errorf("masking %q again gave %q", got, again)
		}
		if a, b := Fingerprint(c.in), Fingerprint(got); a != b {
			t.Errorf("fingerprint of %q changed by masking:\n %q\n %q", c.in, a, b)
		}
	}
}

// Masking never fails and never has more to mask in its own output.
func FuzzMaskSecrets(f *testing.F) {
	f.Add("INSERT INTO users (login, password) VALUES ('bob', 'pw'), ('amy', SHA2('x', 256))")
	f.Add("EXECUTE IMMEDIATE 'ALTER USER u IDENTIFIED BY ''pw'''")
	f.Add("CALL mysql.rds_set_external_master('h', 3306, 'repl', 'pw', 'f', 4, 0)")
	f.Add("CREATE USER u /*!80000 IDENTIFIED BY 'x' */; SELECT AES_ENCRYPT(c, 0x6b6579)")
	f.Fuzz(func(t *testing.T, q string) {
		m := MaskSecrets(q)
		if again := MaskSecrets(m); again != m {
			t.Fatalf("not idempotent: %q -> %q -> %q", q, m, again)
		}
		_ = MaskSecretsInText(q)
	})
}

// Errors quote the failed statement without doubling its quotes: a stopped
// replica's Last_SQL_Error and a plan's syntax error.
func TestMaskAndRedactErrors(t *testing.T) {
	for _, c := range []struct{ in, masked, redacted string }{
		{"Error 'Operation CREATE USER failed for 'bob'@'%'' on query. Default database: ''. Query: 'CREATE USER 'bob'@'%' IDENTIFIED BY 'pw''",
			"Error 'Operation CREATE USER failed for 'bob'@'%'' on query. Default database: ''. Query: 'CREATE USER 'bob'@'%' IDENTIFIED BY <secret>'",
			"Error ?bob?%? on query. Default database: ?. Query: 'CREATE USER ?@? IDENTIFIED BY ?'"},
		// Cut short at the server's 1024 bytes: the statement runs to the end.
		{"Error 'x' on query. Default database: 'd'. Query: 'ALTER USER a IDENTIFIED BY 'pw",
			"Error 'x' on query. Default database: 'd'. Query: 'ALTER USER a IDENTIFIED BY <secret>",
			"Error ? on query. Default database: ?. Query: 'ALTER USER a IDENTIFIED BY ?"},
		{"You have an error in your SQL syntax; check the manual near 'IDENTIFIED BY 'pw' foo' at line 1",
			"You have an error in your SQL syntax; check the manual near 'IDENTIFIED BY <secret> foo' at line 1",
			"You have an error in your SQL syntax; check the manual near '?' at line 1"},
	} {
		if got := MaskSecretsInError(c.in); got != c.masked {
			t.Errorf("MaskSecretsInError(%q)\n got %q\nwant %q", c.in, got, c.masked)
		}
		if got := RedactError(c.in); got != c.redacted {
			t.Errorf("RedactError(%q)\n got %q\nwant %q", c.in, got, c.redacted)
		}
	}
}
