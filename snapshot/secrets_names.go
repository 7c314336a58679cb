package snapshot

import "strings"

// secretFuncs take a password or a key among their arguments: every literal
// passed to them, numbers (0x6b6579) included, is a secret.
var secretFuncs = map[string]bool{
	"PASSWORD": true, "OLD_PASSWORD": true, "ENCRYPT": true, "AES_ENCRYPT": true, "AES_DECRYPT": true,
	"DES_ENCRYPT": true, "DES_DECRYPT": true, "ENCODE": true, "DECODE": true,
}

// secretNameParts make a column, option or variable name a secret's: a
// literal compared with it, set to it or inserted into it is masked. Beyond
// the server's own (PASSWORD, MASTER_PASSWORD, SOURCE_PASSWORD,
// authentication_string) they are the names applications give credentials:
// password_hash, encrypted_password, passwd, pwd, api_key, access_token,
// client_secret, private_key. A name is a hint, so this errs towards
// masking: a masked value only costs the DBA a literal that never changes a
// diagnosis (fingerprints read literals as ?), while a kept one is a
// credential on a screen, in a recording and in every report made from it.
var secretNameParts = []string{"passw", "pwd", "secret", "token", "api_key", "apikey", "private_key", "authentication_string"}

// isSecretName reports whether a column, option or variable named name
// holds a secret.
func isSecretName(name string) bool {
	for _, p := range secretNameParts {
		if containsFold(name, p) {
			return true
		}
	}
	return false
}

// passwordArg gives the position (from 0) of the password among the
// arguments of the managed services' replication procedures, which take it
// positionally: Amazon RDS's mysql.rds_set_external_master(host, port, user,
// password, …) and its _source, _with_delay, _with_auto_position and _gtid
// forms, and Azure's mysql.az_replication_change_master(host, user, password,
// …) and its _with_gtid form. -1 for any other word.
func passwordArg(upper string) int {
	switch {
	case strings.HasPrefix(upper, "RDS_SET_EXTERNAL_"):
		return 3
	case strings.HasPrefix(upper, "AZ_REPLICATION_CHANGE_MASTER"):
		return 2
	}
	return -1
}

// maySpellSecret is a quick test, without allocating, for the words every
// masked literal follows; most statements have none of them. The SQL inside
// a literal or an executable comment is part of the text, so its words are
// found too.
func maySpellSecret(q string) bool {
	for i := 0; i < len(q); i++ {
		switch q[i] | 0x20 {
		case 'p':
			if hasPrefixFold(q[i:], "passw") || hasPrefixFold(q[i:], "pwd") || hasPrefixFold(q[i:], "private_key") {
				return true
			}
		case 'i':
			if hasPrefixFold(q[i:], "identified") {
				return true
			}
		case 'c':
			if hasPrefixFold(q[i:], "crypt") {
				return true
			}
		case 'e', 'd':
			if hasPrefixFold(q[i+1:], "code") {
				return true
			}
		case 's':
			if hasPrefixFold(q[i:], "secret") {
				return true
			}
		case 't':
			if hasPrefixFold(q[i:], "token") {
				return true
			}
		case 'a':
			if hasPrefixFold(q[i:], "api_key") || hasPrefixFold(q[i:], "apikey") ||
				hasPrefixFold(q[i:], "authentication_string") || hasPrefixFold(q[i:], "az_replication_change_master") {
				return true
			}
		case 'r':
			if hasPrefixFold(q[i:], "rds_set_external_") {
				return true
			}
		}
	}
	return false
}

// containsFold is strings.Contains ignoring ASCII case; sub is lower case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if hasPrefixFold(s[i:], sub) {
			return true
		}
	}
	return false
}

// hasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}
