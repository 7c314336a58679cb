package connopt

// ManFiles are the files the option layer reads, for the man page's FILES
// section (term, text).
func ManFiles() [][2]string {
	return [][2]string{
		{"/etc/my.cnf, /etc/mysql/my.cnf, ~/.my.cnf", "option files: the [client] and [mytop] groups, as the mysql client reads them"},
		{"~/.mylogin.cnf", "login path file written by mysql_config_editor; --login-path NAME reads its [NAME] group"},
	}
}

// ManEnvironment are the environment variables it reads, for the man page's
// ENVIRONMENT section.
func ManEnvironment() [][2]string {
	return [][2]string{
		{"MYSQL_HOST, MYSQL_TCP_PORT, MYSQL_UNIX_PORT, MYSQL_PWD", "as for the mysql client; flags win over them, they win over option files"},
		{"MYSQL_TEST_LOGIN_FILE", "another login path file instead of ~/.mylogin.cnf"},
	}
}
