package ops_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/boardgamebot/bot/ops"
)

// TestGuard: on a shared listener the operator's endpoints answer
// loopback and private addresses, and a request bearing the token from
// anywhere; a public address, a proxied request or a wrong token gets
// 404 (the endpoints do not show).
func TestGuard(t *testing.T) {
	mux := http.NewServeMux()
	ops.Register(ops.Guarded{Mux: mux, Token: "s3cret-token"}, nil, ops.NewHealth(nil))
	for _, c := range []struct {
		name, remote string
		header       map[string]string
		want         int
	}{
		{"loopback", "127.0.0.1:5000", nil, http.StatusOK},
		{"IPv6 loopback", "[::1]:5000", nil, http.StatusOK},
		{"RFC 1918", "10.1.2.3:5000", nil, http.StatusOK},
		{"RFC 1918 192.168", "192.168.0.9:5000", nil, http.StatusOK},
		{"fc00::/7", "[fd12::1]:5000", nil, http.StatusOK},
		{"public", "203.0.113.7:5000", nil, http.StatusNotFound},
		{"public IPv6", "[2001:db8::1]:5000", nil, http.StatusNotFound},
		{"public, mapped", "[::ffff:203.0.113.7]:5000", nil, http.StatusNotFound},
		{"a proxy on this machine", "127.0.0.1:5000", map[string]string{"X-Forwarded-For": "203.0.113.7"}, http.StatusNotFound},
		{"public with the token", "203.0.113.7:5000", map[string]string{"Authorization": "Bearer s3cret-token"}, http.StatusOK},
		{"proxied with the token", "127.0.0.1:5000", map[string]string{"Authorization": "Bearer s3cret-token", "Forwarded": "for=203.0.113.7"}, http.StatusOK},
		{"public with a wrong token", "203.0.113.7:5000", map[string]string{"Authorization": "Bearer s3cret-tokeN"}, http.StatusNotFound},
		{"public with the token not as bearer", "203.0.113.7:5000", map[string]string{"Authorization": "s3cret-token"}, http.StatusNotFound},
	} {
		for _, path := range []string{"/healthz", "/readyz"} {
			req := httptest.NewRequest("GET", path, nil)
			req.RemoteAddr = c.remote
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, req)
			if rec.Code != c.want {
				t.Errorf("%s %s: %d, want %d", c.name, path, rec.Code, c.want)
			}
		}
	}
	// No token set: a bearer of the empty token is nobody.
	open := http.NewServeMux()
	ops.Register(ops.Guarded{Mux: open}, nil, ops.NewHealth(nil))
	req := httptest.NewRequest("GET", "/healthz", nil)
	req.RemoteAddr, req.Header["Authorization"] = "203.0.113.7:5000", []string{"Bearer "}
	rec := httptest.NewRecorder()
	open.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound {
		t.Errorf("no token set, an empty bearer: %d", rec.Code)
	}
}
