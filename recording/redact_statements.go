package recording

import "github.com/mytop-go/mytop-go/snapshot"

// redactedStatements copies st with its sample statements redacted; the
// digest text has no literals (the server wrote ? for them). A sample
// carried over several frames is redacted once per frame, into equal bytes.
func redactedStatements(st *snapshot.Statements) *snapshot.Statements {
	if st == nil {
		return nil
	}
	c := *st
	c.Digests = make([]snapshot.Digest, len(st.Digests))
	for i, d := range st.Digests {
		d.Sample = snapshot.Redact(d.Sample)
		c.Digests[i] = d
	}
	return &c
}
