package collectors

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestFlavorOf(t *testing.T) {
	tests := []struct{ version, comment, want string }{
		{"10.11.19-MariaDB-0+deb12u1", "Debian 12", snapshot.FlavorMariaDB},
		{"5.5.5-10.6.12-MariaDB", "MariaDB Server", snapshot.FlavorMariaDB},
		{"8.0.36-28", "Percona Server (GPL), Release 28, Revision 47601f19", snapshot.FlavorPercona},
		{"8.0.36", "MySQL Community Server - GPL", snapshot.FlavorMySQL},
		{"5.1.73-log", "Source distribution", snapshot.FlavorMySQL},
	}
	for _, tt := range tests {
		if got := flavorOf(tt.version, tt.comment); got != tt.want {
			t.Errorf("%s / %s: got %s, want %s", tt.version, tt.comment, got, tt.want)
		}
	}
}

func TestGrantsProcess(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` WITH GRANT OPTION", true},
		{"GRANT PROCESS, REPLICATION CLIENT ON *.* TO `mon`@`%`", true},
		{"GRANT USAGE ON *.* TO `app`@`%` IDENTIFIED BY PASSWORD '*ABC'", false},
		{"GRANT ALL PRIVILEGES ON `shop`.* TO `app`@`%`", false},
	}
	for _, tt := range tests {
		if got := grantsProcess(tt.line); got != tt.want {
			t.Errorf("%s: got %v", tt.line, got)
		}
	}
}
