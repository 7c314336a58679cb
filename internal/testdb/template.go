package testdb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Binaries used by the package; overridable by tests of this package only.
var (
	serverBinary  = "mariadbd"
	installBinary = "mariadb-install-db"
)

// installArgs must match the InnoDB sizing the server starts with, because a
// datadir initialised with one redo log size is reused by every test.
var installArgs = []string{
	"--no-defaults",
	"--auth-root-authentication-method=normal",
	"--user=root",
	"--skip-test-db",
	"--skip-name-resolve",
	"--innodb-buffer-pool-size=16M",
	"--innodb-log-file-size=4M",
}

var template struct {
	once sync.Once
	dir  string
	err  error
}

// findBinary looks in PATH and in /usr/sbin, which is not on every user's PATH.
func findBinary(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	for _, dir := range []string{"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"} {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found: install the Debian package mariadb-server (apt-get install mariadb-server)", name)
}

// templateDir returns an initialised datadir, created once per machine and
// server version: mariadb-install-db takes seconds, copying its result takes
// milliseconds. It is built in a scratch directory and renamed into place, so
// concurrent test processes never see a half-written template.
func templateDir() (string, error) {
	template.once.Do(func() { template.dir, template.err = buildTemplate() })
	return template.dir, template.err
}

func buildTemplate() (string, error) {
	server, err := findBinary(serverBinary)
	if err != nil {
		return "", err
	}
	install, err := findBinary(installBinary)
	if err != nil {
		return "", err
	}
	version, err := exec.Command(server, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v", server, err)
	}
	sum := sha256.Sum256([]byte(string(version) + strings.Join(installArgs, " ")))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("mytop-go-testdb-%d-%s", os.Getuid(), hex.EncodeToString(sum[:6])))
	if _, err := os.Stat(filepath.Join(dir, "mysql", "user.frm")); err == nil {
		return dir, nil
	}
	scratch, err := os.MkdirTemp(os.TempDir(), "mytop-go-testdb-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(scratch)
	data := filepath.Join(scratch, "data")
	args := append([]string{"--datadir=" + data}, installArgs...)
	var out bytes.Buffer
	cmd := exec.Command(install, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s failed: %v\n%s", install, err, tail(out.String(), 20))
	}
	if err := os.Rename(data, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "mysql")); statErr == nil {
			return dir, nil // another process won the race
		}
		return "", err
	}
	return dir, nil
}

// copyTree copies a datadir, keeping file modes.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(target, info.Mode().Perm())
		}
		return copyFile(path, target, info.Mode().Perm())
	})
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
