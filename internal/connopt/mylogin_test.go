package connopt

import (
	"bytes"
	"crypto/aes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// encodeLoginFile writes text in the login path file format the way
// mysql_config_editor does: 4 zero bytes, a 20-byte key, then per line the
// int32 little-endian ciphertext length and the AES-128-ECB ciphertext of the
// PKCS#7-padded line.
func encodeLoginFile(t *testing.T, key [20]byte, text string) []byte {
	t.Helper()
	block, err := aes.NewCipher(loginAESKey(key[:]))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	out.Write(make([]byte, 4))
	out.Write(key[:])
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		pad := aes.BlockSize - len(line)%aes.BlockSize
		plain := append([]byte(line), bytes.Repeat([]byte{byte(pad)}, pad)...)
		cipher := make([]byte, len(plain))
		for i := 0; i < len(plain); i += aes.BlockSize {
			block.Encrypt(cipher[i:i+aes.BlockSize], plain[i:i+aes.BlockSize])
		}
		binary.Write(&out, binary.LittleEndian, int32(len(cipher)))
		out.Write(cipher)
	}
	return out.Bytes()
}

func writeLoginFile(t *testing.T, dir, text string, mode os.FileMode) string {
	t.Helper()
	key := [20]byte{}
	for i := range key {
		key[i] = byte(i*37 + 11) // not foldable to zero: exercises the XOR fold
	}
	p := filepath.Join(dir, ".mylogin.cnf")
	if err := os.WriteFile(p, encodeLoginFile(t, key, text), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

const loginText = "[client]\nuser = \"clientuser\"\npassword = \"client pw\"\n" +
	"[prod]\nuser = \"produser\"\npassword = \"pr#od\"\nhost = \"db-prod.example\"\nport = 3310\n" +
	"[mytop]\nsocket = \"/tmp/mytop.sock\"\n"

func TestDecodeLoginFile(t *testing.T) {
	p := writeLoginFile(t, t.TempDir(), loginText, 0o600)
	data, _ := os.ReadFile(p)
	got, err := decodeLoginFile(data)
	if err != nil || string(got) != loginText {
		t.Fatalf("decoded %q (%v), want %q", got, err, loginText)
	}
	for _, bad := range [][]byte{data[:10], data[:len(data)-3], append(append([]byte{}, data[:24]...), 5, 0, 0, 0, 1, 2, 3, 4, 5)} {
		if _, err := decodeLoginFile(bad); err == nil {
			t.Errorf("%d bytes: decoded a damaged file without error", len(bad))
		}
	}
}

func TestResolveLoginPath(t *testing.T) {
	dir := t.TempDir()
	login := writeLoginFile(t, dir, loginText, 0o600)
	home := writeFile(t, dir, "my.cnf", "[client]\nuser=cnfuser\nhost=cnfhost\ndatabase=cnfdb\n", 0o600)
	files := []optionFile{{home, true}}
	tests := []struct {
		name  string
		flags Options
		env   map[string]string
		want  Options
	}{
		{"client path by default, over my.cnf", Options{}, nil,
			Options{User: "clientuser", Password: "client pw", PasswordSet: true, Host: "cnfhost", Database: "cnfdb", Socket: "/tmp/mytop.sock"}},
		{"named path over client", Options{LoginPath: "prod"}, nil,
			Options{User: "produser", Password: "pr#od", PasswordSet: true, Host: "db-prod.example", Port: 3310, Database: "cnfdb", Socket: "/tmp/mytop.sock", LoginPath: "prod"}},
		{"flags and environment win", Options{LoginPath: "prod", User: "flaguser"}, map[string]string{"MYSQL_PWD": "envpw", "MYSQL_HOST": "envhost"},
			Options{User: "flaguser", Password: "envpw", PasswordSet: true, Host: "envhost", Port: 3310, Database: "cnfdb", Socket: "/tmp/mytop.sock", LoginPath: "prod"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings, err := tt.flags.resolveWith(envOf(tt.env), files, login)
			if err != nil || len(warnings) != 0 {
				t.Fatalf("err %v, warnings %v", err, warnings)
			}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestLoginPathWarnings(t *testing.T) {
	dir := t.TempDir()
	login := writeLoginFile(t, dir, loginText, 0o644)
	_, warnings, err := Options{LoginPath: "nope"}.resolveWith(envOf(nil), nil, login)
	text := strings.Join(warnings, "\n")
	if err != nil || !strings.Contains(text, "no such login path") || !strings.Contains(text, "readable by group or others") {
		t.Errorf("err %v, warnings %q: want unknown path and readable file warned about", err, text)
	}
	if _, w, err := (Options{LoginPath: "prod"}).resolveWith(envOf(nil), nil, filepath.Join(dir, "missing")); err != nil || len(w) != 1 {
		t.Errorf("missing file with --login-path: err %v, warnings %v; want one warning", err, w)
	}
	garbage := writeFile(t, dir, "garbage", strings.Repeat("[client]\nuser=x\n", 4), 0o600)
	if _, w, err := (Options{}).resolveWith(envOf(nil), nil, garbage); err != nil || len(w) != 1 {
		t.Errorf("damaged file not asked for: err %v, warnings %v; want a warning only", err, w)
	}
	if _, _, err := (Options{LoginPath: "prod"}).resolveWith(envOf(nil), nil, garbage); err == nil {
		t.Error("damaged file named by --login-path: want an error")
	}
	if got := loginFilePath(envOf(map[string]string{"MYSQL_TEST_LOGIN_FILE": "/x"}), "/home/u"); got != "/x" {
		t.Errorf("MYSQL_TEST_LOGIN_FILE ignored: %q", got)
	}
}

// TestMysqlConfigEditorFile reads a file made by the real tool when it is
// installed (MySQL ships it; MariaDB does not).
func TestMysqlConfigEditorFile(t *testing.T) {
	bin, err := exec.LookPath("mysql_config_editor")
	if err != nil {
		t.Skip("mysql_config_editor not installed (MariaDB does not ship it); the format is tested with the encoder above")
	}
	p := filepath.Join(t.TempDir(), "login.cnf")
	cmd := exec.Command(bin, "set", "--login-path=edited", "--host=db9", "--user=editor", "--port=3399")
	cmd.Env = append(os.Environ(), "MYSQL_TEST_LOGIN_FILE="+p)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mysql_config_editor: %v: %s", err, out)
	}
	got, _, err := Options{LoginPath: "edited"}.resolveWith(envOf(nil), nil, p)
	if err != nil || got.Host != "db9" || got.User != "editor" || got.Port != 3399 {
		t.Errorf("got %+v (%v)", got, err)
	}
}
