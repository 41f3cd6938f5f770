package ops

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Guarded is a Mounter whose handlers answer only the operator: see
// Guard. Register on it to serve the endpoints on a listener the public
// reaches too (the web board's).
type Guarded struct {
	Mux   Mounter
	Token string
}

// Handle implements Mounter: h, guarded.
func (g Guarded) Handle(pattern string, h http.Handler) { g.Mux.Handle(pattern, Guard(h, g.Token)) }

// Guard answers with h only a request from a loopback or private address
// (RFC 1918, fc00::/7) that no proxy passed on (no Forwarded,
// X-Forwarded-For or X-Real-IP: behind a proxy on this machine every
// request comes from loopback), or one bearing token ("Authorization:
// Bearer <token>", compared in constant time; an empty token admits
// none). Others get 404: the endpoints do not show.
func Guard(h http.Handler, token string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if Operator(r, token) {
			h.ServeHTTP(w, r)
			return
		}
		http.NotFound(w, r)
	})
}

// Operator reports whether Guard lets r through.
func Operator(r *http.Request, token string) bool {
	if token != "" {
		if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok &&
			subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1 {
			return true
		}
	}
	for _, proxied := range []string{"Forwarded", "X-Forwarded-For", "X-Real-Ip"} {
		if r.Header.Get(proxied) != "" {
			return false
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate()
}
