package web_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// selfSigned writes a certificate for 127.0.0.1 and its key into dir.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	return certFile, keyFile
}

// TestHSTS: served over TLS by the bot itself, every answer tells the
// browser to come back over https only (Strict-Transport-Security);
// served in clear (behind a TLS proxy, whose business it is), none.
func TestHSTS(t *testing.T) {
	for _, tlsOn := range []bool{true, false} {
		f := newFixture(t)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var cert, key string
		scheme := "http"
		if tlsOn {
			cert, key = selfSigned(t, t.TempDir())
			scheme = "https"
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- f.server.Serve(ctx, ln, cert, key) }()
		client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
		for _, path := range []string{"/", "/s/board.js", "/g/AAAAAAAAAAAA/state"} {
			res, err := client.Get(scheme + "://" + ln.Addr().String() + path)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			got := res.Header.Get("Strict-Transport-Security")
			if tlsOn && got != "max-age=63072000" || !tlsOn && got != "" {
				t.Errorf("TLS %v, %s: Strict-Transport-Security %q", tlsOn, path, got)
			}
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
