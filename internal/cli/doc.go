// Package cli prints what a command line tool owes its user besides doing
// its job: usage in the usual layout, shell completion for bash and zsh, and
// a man page, all made from the same flag.FlagSets the commands parse with,
// so none of them can list a flag that does not exist or miss one that does.
package cli
