package snapshot

// HostErrors is one client host that made connection errors, from
// performance_schema.host_cache (MySQL 5.6+, MariaDB 10.0+ with
// performance_schema on). The server blocks a host (error 1129, until FLUSH
// HOSTS) once ConnectErrors reaches max_connect_errors; a successful login
// from it resets ConnectErrors.
type HostErrors struct {
	IP   string `json:"ip"`
	Host string `json:"host,omitempty"` // the resolved name; "" when none
	// ConnectErrors is SUM_CONNECT_ERRORS: the consecutive errors that count
	// towards max_connect_errors.
	ConnectErrors int64 `json:"connect_errors"`
	// BlockedErrors is COUNT_HOST_BLOCKED_ERRORS: connections refused
	// because the host was blocked.
	BlockedErrors int64 `json:"blocked_errors,omitempty"`
	// HandshakeErrors, AuthErrors and UserLimitErrors are
	// COUNT_HANDSHAKE_ERRORS, COUNT_AUTHENTICATION_ERRORS and
	// COUNT_MAX_USER_CONNECTIONS_ERRORS.
	HandshakeErrors int64 `json:"handshake_errors,omitempty"`
	AuthErrors      int64 `json:"auth_errors,omitempty"`
	UserLimitErrors int64 `json:"user_limit_errors,omitempty"`
	// LastError is LAST_ERROR_SEEN as the server printed it.
	LastError string `json:"last_error,omitempty"`
}

// AccountLimit is an account with a MAX_USER_CONNECTIONS of its own (CREATE
// USER/GRANT/ALTER USER ... WITH MAX_USER_CONNECTIONS n), from mysql.user:
// the server refuses its next login with error 1226 once it holds n
// connections. Accounts without one fall under the global
// max_user_connections (error 1203).
type AccountLimit struct {
	User string `json:"user"`
	Host string `json:"host"` // the account's host pattern, e.g. "%" or "10.0.%"
	// MaxUserConnections is the account's limit; MariaDB's -1 means the
	// account may not log in at all.
	MaxUserConnections int64 `json:"max_user_connections"`
}
