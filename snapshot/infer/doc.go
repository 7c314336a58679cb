// Package infer draws conclusions from a snapshot: who blocks whom (lock
// inference, the lock tree), the load by wait class, root causes among
// findings, whether a session may be killed, which statements write.
package infer
