package collectors

import (
	"errors"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Server errors that refuse a login for a reason another attempt at once
// cannot cure: each retry of a wrong password counts towards the account's
// limit (MariaDB's max_password_errors, MySQL's FAILED_LOGIN_ATTEMPTS) and
// writes a line to the server's error log.
var loginRefusals = map[uint16]snapshot.LoginRefusedReason{
	1045: snapshot.LoginAccessDenied,    // ER_ACCESS_DENIED_ERROR
	1698: snapshot.LoginAccessDenied,    // ER_ACCESS_DENIED_NO_PASSWORD_ERROR
	4150: snapshot.LoginAccountBlocked,  // ER_USER_IS_BLOCKED (MariaDB)
	3118: snapshot.LoginAccountLocked,   // ER_ACCOUNT_HAS_BEEN_LOCKED
	3955: snapshot.LoginAccountLocked,   // ER_USER_ACCESS_DENIED_FOR_USER_ACCOUNT_BLOCKED_BY_PASSWORD_LOCK
	1129: snapshot.LoginHostBlocked,     // ER_HOST_IS_BLOCKED
	1130: snapshot.LoginHostNotAllowed,  // ER_HOST_NOT_PRIVILEGED
	1862: snapshot.LoginPasswordExpired, // ER_MUST_CHANGE_PASSWORD_LOGIN
	1251: snapshot.LoginAuthMethod,      // ER_NOT_SUPPORTED_AUTH_MODE
	1524: snapshot.LoginAuthMethod,      // ER_PLUGIN_IS_NOT_LOADED
	3159: snapshot.LoginAuthMethod,      // ER_SECURE_TRANSPORT_REQUIRED
}

// driverAuthErrors are the driver's own refusals of what the server asked
// for: they need another account setting or client option, not a retry.
var driverAuthErrors = []error{mysql.ErrUnknownPlugin, mysql.ErrOldPassword, mysql.ErrCleartextPassword, mysql.ErrNativePassword}

// loginRefusal says why err refused a login, or "" for a failure another
// attempt may cure (the network, the server down or full).
func loginRefusal(err error) snapshot.LoginRefusedReason {
	if err == nil {
		return ""
	}
	if r, ok := loginRefusals[serverErrno(err)]; ok {
		return r
	}
	for _, e := range driverAuthErrors {
		if errors.Is(err, e) {
			return snapshot.LoginAuthMethod
		}
	}
	return ""
}

// countsAsPasswordError says an attempt refused for r adds to the account's
// count of password errors, which blocks it at the server's limit.
func countsAsPasswordError(r snapshot.LoginRefusedReason) bool {
	return r == snapshot.LoginAccessDenied
}
