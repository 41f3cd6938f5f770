package web

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ParseProxies reads web.trusted_proxies: addresses (10.0.0.1, ::1) and
// networks (10.0.0.0/8, fd00::/8).
func ParseProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, p := range list {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if strings.Contains(p, "/") {
			pre, err := netip.ParsePrefix(p)
			if err != nil {
				return nil, fmt.Errorf("%q is not an address or a network (10.0.0.0/8, fd00::/8)", p)
			}
			out = append(out, pre.Masked())
			continue
		}
		a, err := netip.ParseAddr(p)
		if err != nil {
			return nil, fmt.Errorf("%q is not an address or a network (10.0.0.1, 10.0.0.0/8)", p)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// trusted reports whether a is one of the trusted proxies.
func trusted(proxies []netip.Prefix, a netip.Addr) bool {
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddr is the address of the client a request comes from: the
// direct peer's, or, when the peer is a trusted proxy, the last address
// of X-Forwarded-For that is not a trusted proxy (the one the nearest
// untrusted hop reported; what comes before it the client may have
// written itself).
func clientAddr(r *http.Request, proxies []netip.Prefix) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		a, _ := netip.ParseAddr(host)
		return a.Unmap()
	}
	a := ap.Addr().Unmap()
	if !trusted(proxies, a) {
		return a
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		h, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return a // a hop we cannot read: the proxy's own address counts
		}
		h = h.Unmap()
		if !trusted(proxies, h) {
			return h
		}
		a = h
	}
	return a
}

// addrGroup is what the per-address caps and limits count by: an IPv4
// address, an IPv6 address's /64 (one subscriber's network).
func addrGroup(a netip.Addr) string {
	if !a.IsValid() {
		return "?"
	}
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// limiter is a token bucket per client address: rate requests a second,
// burst at once. Buckets that have filled again are forgotten.
type limiter struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(rate float64, burst int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(max(burst, 1)), now: now, buckets: map[string]*bucket{}}
}

// allow takes a token of addr's bucket; when there is none, it reports
// false and how long until there is one.
func (l *limiter) allow(addr string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.swept) > time.Minute {
		l.sweep(now)
	}
	b := l.buckets[addr]
	if b == nil {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[addr] = b
	}
	if d := now.Sub(b.at); d > 0 {
		b.tokens = math.Min(l.burst, b.tokens+d.Seconds()*l.rate)
	}
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

// sweep forgets the buckets that are full again (l.mu held).
func (l *limiter) sweep(now time.Time) {
	l.swept = now
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
}

// retryAfter is the Retry-After of a refusal: whole seconds, at least 1.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}

// streamRetry is how long a page waits before it asks for a stream again
// when the caps refused it.
const streamRetry = 10 * time.Second

// allowed takes a token of the client address's bucket for a request of
// a game's or a tournament's pages, unless the request carries a
// player's own link (the chat limits those); when the bucket is empty it
// answers 429 with Retry-After and reports false.
func (s *Server) allowed(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	if !strings.HasPrefix(p, "/g/") && !strings.HasPrefix(p, "/t/") {
		return true
	}
	if text := tokenOf(r); text != "" {
		if t, err := s.signer.Parse(text, s.now()); err == nil && ownLink(t) {
			return true
		}
	}
	ok, wait := s.limit.allow(addrGroup(clientAddr(r, s.proxies)))
	if ok {
		return true
	}
	w.Header().Set("Retry-After", retryAfter(wait))
	writeJSON(w, http.StatusTooManyRequests, map[string]any{"ok": false, "error": s.say(s.pageLang(r, Token{}), "WebBusy")})
	return false
}

// ownLink reports whether t is a user's own: their link to play, or what
// the page derives from it (its stream token, its view token), which name
// them.
func ownLink(t Token) bool {
	return t.Scope == ScopePlay || !t.User.IsZero() && (t.Scope == ScopeStream || t.Scope == ScopeWatch)
}
