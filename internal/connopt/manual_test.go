package connopt

import (
	"sort"
	"strings"
	"testing"
)

// The man page names the files and variables the option layer really reads.
func TestManPageNamesWhatIsRead(t *testing.T) {
	var paths []string
	for _, f := range (Options{}).optionFiles("~") {
		paths = append(paths, f.path)
	}
	files := ManFiles()
	if got := strings.Join(paths, ", "); files[0][0] != got {
		t.Errorf("FILES says %q, the option files are %q", files[0][0], got)
	}
	if got := loginFilePath(func(string) string { return "" }, "~"); files[1][0] != got {
		t.Errorf("FILES says %q, the login path file is %q", files[1][0], got)
	}
	var asked []string
	getenv := func(name string) string { asked = append(asked, name); return "" }
	(&Options{}).applyEnv(getenv)
	loginFilePath(getenv, "~")
	var named []string
	for _, it := range ManEnvironment() {
		named = append(named, strings.Split(it[0], ", ")...)
	}
	sort.Strings(asked)
	sort.Strings(named)
	if strings.Join(asked, " ") != strings.Join(named, " ") {
		t.Errorf("ENVIRONMENT names %q, the option layer reads %q", named, asked)
	}
}
