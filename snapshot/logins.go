package snapshot

// RefusedLogins is what the server's error log says about the logins it
// refused since the previous read: the accounts and hosts that counters such
// as Access_denied_errors do not name. Read only when the server is on this
// machine, its log is readable, and those counters moved.
type RefusedLogins struct {
	// Log is the error log's path.
	Log      string         `json:"log"`
	Refusals []LoginRefusal `json:"refusals,omitempty"`
	// Truncated: more was appended than one read takes; the rest was skipped.
	Truncated bool `json:"truncated,omitempty"`
}

// LoginRefusal counts one account's refused logins of one kind.
type LoginRefusal struct {
	User string `json:"user,omitempty"` // "" when the server did not learn it
	Host string `json:"host,omitempty"`
	// Reason is RefusedAccessDenied or RefusedBeforeLogin.
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// Refusal reasons.
const (
	RefusedAccessDenied = "access denied"
	RefusedBeforeLogin  = "aborted before login"
)
