package collectors

// ExplainOptions tune which running statements get their plan fetched.
type ExplainOptions struct{}
