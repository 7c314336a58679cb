package snapshot

// MaskSecrets masks the credentials (MaskSecrets) in every statement text s
// holds: the fields Parts declares as text, each masked as its kind says
// (TextKind.Mask). Parts s shares with prev were masked with prev and are
// skipped; a field is written only when its text changes, so a carried part
// that consumers may be reading is left alone.
func (s *Snapshot) MaskSecrets(prev *Snapshot) {
	s.RewriteText(prev, TextKind.Mask)
}
