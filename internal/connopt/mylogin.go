package connopt

import (
	"bytes"
	"crypto/aes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The login path file (~/.mylogin.cnf, written by mysql_config_editor) is an
// option file hidden from a casual look, not encrypted: 4 unused bytes, the
// 20-byte key, then one chunk per line, each an int32 little-endian length
// and that many bytes of AES-128-ECB ciphertext of the line, PKCS#7 padded.
// The AES key is the 20 bytes XOR-folded into 16.
const (
	loginUnused  = 4
	loginKeySize = 20
	// maxLoginChunk bounds one line's ciphertext; a larger length means the
	// file is not a login path file.
	maxLoginChunk = 64 * 1024
)

// loginFilePath is where the login path file is: $MYSQL_TEST_LOGIN_FILE as
// with the mysql client, else ~/.mylogin.cnf.
func loginFilePath(getenv func(string) string, home string) string {
	if p := getenv("MYSQL_TEST_LOGIN_FILE"); p != "" {
		return p
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".mylogin.cnf")
}

// loginAESKey folds the file's 20-byte key into an AES-128 key.
func loginAESKey(key []byte) []byte {
	out := make([]byte, 16)
	for i, b := range key {
		out[i%16] ^= b
	}
	return out
}

// decodeLoginFile turns the login path file's bytes into option-file text.
func decodeLoginFile(data []byte) ([]byte, error) {
	if len(data) < loginUnused+loginKeySize {
		return nil, errors.New("too short for a login path file")
	}
	block, err := aes.NewCipher(loginAESKey(data[loginUnused : loginUnused+loginKeySize]))
	if err != nil {
		return nil, err
	}
	var plain bytes.Buffer
	rest := data[loginUnused+loginKeySize:]
	for len(rest) > 0 {
		if len(rest) < 4 {
			return nil, errors.New("truncated chunk length")
		}
		n := int(int32(binary.LittleEndian.Uint32(rest)))
		rest = rest[4:]
		if n <= 0 || n > maxLoginChunk || n%aes.BlockSize != 0 || n > len(rest) {
			return nil, fmt.Errorf("bad chunk length %d", n)
		}
		line := make([]byte, n)
		for i := 0; i < n; i += aes.BlockSize {
			block.Decrypt(line[i:i+aes.BlockSize], rest[i:i+aes.BlockSize])
		}
		rest = rest[n:]
		pad := int(line[n-1])
		if pad == 0 || pad > aes.BlockSize || !bytes.Equal(line[n-pad:], bytes.Repeat([]byte{byte(pad)}, pad)) {
			return nil, errors.New("bad padding: wrong key or not a login path file")
		}
		plain.Write(line[:n-pad])
	}
	return plain.Bytes(), nil
}

// readLoginFile reads the login path file after the option files, as the
// mysql client does: its [client] and [mytop] groups, and the group named by
// --login-path. A missing file matters only when a path was named.
func (r *optionReader) readLoginFile(path, loginPath string) error {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		if loginPath != "" {
			r.warnings = append(r.warnings, fmt.Sprintf("--login-path %s: no login path file (%v)", loginPath, err))
		}
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 16<<20))
	if err != nil {
		return fmt.Errorf("login path file %s: %v", path, err)
	}
	text, err := decodeLoginFile(data)
	if err != nil {
		// A damaged file the command line did not ask for costs a warning,
		// not the connection.
		if loginPath == "" {
			r.warnings = append(r.warnings, fmt.Sprintf("login path file %s ignored: %v", path, err))
			return nil
		}
		return fmt.Errorf("login path file %s: %v", path, err)
	}
	groups := map[string]bool{}
	for g := range optionGroups {
		groups[g] = true
	}
	loginPath = strings.ToLower(loginPath)
	if loginPath != "" {
		groups[loginPath] = true
	}
	sawPassword, err := r.scan(path, bytes.NewReader(text), groups, maxIncludeDepth)
	if err != nil {
		return err
	}
	if loginPath != "" && !r.seen[loginPath] {
		r.warnings = append(r.warnings, fmt.Sprintf("--login-path %s: no such login path in %s", loginPath, path))
	}
	if sawPassword {
		r.checkPermissions(f, path)
	}
	return nil
}
