package main

import (
	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/internal/connopt"
)

// manPage is the man page's text around the command reference cli generates.
var manPage = cli.ManPage{
	Title: "live diagnostics monitor for MySQL and MariaDB",
	Description: "A terminal dashboard that names what is wrong with a MySQL or MariaDB server (findings with evidence " +
		"and advice), records it, and replays recordings and captures made by other tools. It fits 80x24 over SSH; " +
		"press ? in the dashboard for the keys (y copies over OSC 52, X kills every thread a / filter shows).",
	Sections: []cli.ManSection{
		{Name: "FILES", Items: connopt.ManFiles()},
		{Name: "ENVIRONMENT", Items: append(connopt.ManEnvironment(), [2]string{"NO_COLOR", "draw without colour"})},
		{Name: "EXIT STATUS", Items: [][2]string{
			{"0", "success, or --help"}, {"1", "an error (connection, file)"}, {"2", "a bad command line"},
		}},
		{Name: "SEE ALSO", Items: [][2]string{{"", "mysql(1), mysql_config_editor(1)"}}},
	},
}
