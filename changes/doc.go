// Package changes answers "what is different from when it was fine": it sums
// a healthy window and an incident window of frames and lists what moved
// between them, biggest first — variables changed, status rates that moved
// by a large factor, statements new or regressed, the user/host/db mix.
// `report --baseline` and `diff` print it.
package changes
