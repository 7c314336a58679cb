package snapshot

// MaskSecrets masks the credentials (MaskSecrets) in every statement text s
// holds: the processlist, InnoDB's status, lock waits, statement digests'
// samples, prepared statements and plans. Parts s shares with prev (ticks
// between reads carry the same InnoDB status, digests and lock graph) were
// masked with prev and are skipped; a field is written only when its text
// changes, so a carried part that consumers may be reading is left alone.
func (s *Snapshot) MaskSecrets(prev *Snapshot) {
	for i := range s.Processlist {
		maskField(&s.Processlist[i].Info)
	}
	if s.InnoDB != nil && (prev == nil || s.InnoDB != prev.InnoDB) {
		s.InnoDB.maskSecrets()
	}
	if s.Statements != nil && (prev == nil || s.Statements != prev.Statements) {
		for i := range s.Statements.Digests {
			maskField(&s.Statements.Digests[i].Text)
			maskField(&s.Statements.Digests[i].Sample)
		}
	}
	if s.Locks != nil && (prev == nil || s.Locks != prev.Locks) {
		for i := range s.Locks.Threads {
			maskField(&s.Locks.Threads[i].LastStatement)
		}
	}
	for i := range s.PreparedOwners {
		maskField(&s.PreparedOwners[i].Sample)
	}
	for _, e := range s.Explains {
		maskField(&e.Statement)
	}
}

func (st *InnoDBStatus) maskSecrets() {
	maskWith(&st.Raw, MaskSecretsInText)
	maskWith(&st.LatestDeadlock, MaskSecretsInText)
	for i := range st.Transactions.Trx {
		maskField(&st.Transactions.Trx[i].Query)
	}
}

// maskField masks a statement's text in place (MaskSecrets).
func maskField(text *string) { maskWith(text, MaskSecrets) }

// maskWith masks *text in place with mask, writing only when that changes it.
func maskWith(text *string, mask func(string) string) {
	if m := mask(*text); m != *text {
		*text = m
	}
}
