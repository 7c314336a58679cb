package main

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// certAuthority is a throwaway CA that signs the test server's certificate.
type certAuthority struct {
	cert *x509.Certificate
	key  *rsa.PrivateKey
}

func newCA(t *testing.T, name string) *certAuthority {
	t.Helper()
	cert, key := makeCert(t, &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}, nil)
	return &certAuthority{cert: cert, key: key}
}

// makeCert gives tmpl a fresh key and a day's validity and signs it with
// parent, or by itself when parent is nil.
func makeCert(t *testing.T, tmpl *x509.Certificate, parent *certAuthority) (*x509.Certificate, *rsa.PrivateKey) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)
	signer, signerKey := tmpl, key
	if parent != nil {
		signer, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signerKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}

// issue writes a certificate for 127.0.0.1 and its key to dir.
func (ca *certAuthority) issue(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	cert, key := makeCert(t, &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, ca)
	certFile = writePEM(t, filepath.Join(dir, "server-cert.pem"), "CERTIFICATE", cert.Raw)
	keyFile = writePEM(t, filepath.Join(dir, "server-key.pem"), "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(key))
	return certFile, keyFile
}

func (ca *certAuthority) write(t *testing.T, path string) string {
	t.Helper()
	return writePEM(t, path, "CERTIFICATE", ca.cert.Raw)
}

func writePEM(t *testing.T, path, kind string, der []byte) string {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTLSRequiredByTheServer runs against a MariaDB that refuses plain TCP
// (require_secure_transport): without TLS the user gets one line that says
// what to do (MariaDB before 11.4 words the refusal as a wrong password); with TLS, verified against the right CA or not at all, the
// recorder runs; against the wrong CA it is one line naming the certificate
// problem.
func TestTLSRequiredByTheServer(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	dir := t.TempDir()
	ca := newCA(t, "mytop-go test CA")
	certFile, keyFile := ca.issue(t, dir)
	caFile := ca.write(t, filepath.Join(dir, "ca.pem"))
	otherCA := newCA(t, "someone else's CA").write(t, filepath.Join(dir, "other-ca.pem"))
	srv := testdb.Start(t, "--ssl-ca="+caFile, "--ssl-cert="+certFile, "--ssl-key="+keyFile,
		"--require-secure-transport=ON")
	srv.Exec(t, "CREATE USER 'tls'@'127.0.0.1' IDENTIFIED BY 'TlsSecret7'",
		"GRANT PROCESS, REPLICATION CLIENT ON *.* TO 'tls'@'127.0.0.1'")
	tcp := []string{"--no-defaults", "-h", "127.0.0.1", "-P", strconv.Itoa(srv.Port), "-utls", "-pTlsSecret7"}

	cases := []struct {
		name string
		args []string
		want string // "" : records; else the one line says this
	}{
		{"plain TCP refused", []string{"--ssl-mode=DISABLED"}, "use --ssl-mode=REQUIRED"},
		{"default mode negotiates TLS", nil, ""},
		{"required", []string{"--ssl-mode=REQUIRED"}, ""},
		{"verified CA", []string{"--ssl-mode=VERIFY_CA", "--ssl-ca=" + caFile}, ""},
		{"verified identity", []string{"--ssl-mode=VERIFY_IDENTITY", "--ssl-ca=" + caFile}, ""},
		{"wrong CA", []string{"--ssl-mode=VERIFY_CA", "--ssl-ca=" + otherCA}, "TLS: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.mytop")
			args := append([]string{"record", "-o", out, "--duration", "2s"}, append(tcp, c.args...)...)
			cmd := exec.Command(bin, args...)
			cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			msg := strings.TrimSpace(stderr.String())
			if strings.Contains(msg, "TlsSecret7") {
				t.Errorf("password leaked: %q", msg)
			}
			if c.want == "" {
				if err != nil || !strings.Contains(msg, "frames") {
					t.Fatalf("want a recording, got %v: %q", err, msg)
				}
				return
			}
			if _, ok := err.(*exec.ExitError); !ok {
				t.Fatalf("want a non-zero exit, got %v: %q", err, msg)
			}
			if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, c.want) {
				t.Errorf("stderr = %q, want one line with %q", msg, c.want)
			}
		})
	}
}
