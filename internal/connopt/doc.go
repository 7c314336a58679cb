// Package connopt is the mysql client's option layer: it reads the command
// line, the environment and option files (my.cnf) into Options, turns them
// into a driver configuration with TLS, and words a failed login as one line.
// The collectors connect with what it makes; they do not read options.
package connopt
