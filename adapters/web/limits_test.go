package web_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/web"
)

// openStream opens a raw event stream of target (path and query) from
// the local address from (127.0.0.x), and returns the answer's status and
// Retry-After; the connection stays open when the stream was taken.
func (f *fixture) openStream(from, target string, header ...string) (int, string) {
	f.t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	conn, err := d.Dial("tcp", f.srv.Listener.Addr().String())
	if err != nil {
		f.t.Fatal(err)
	}
	req := "GET " + target + " HTTP/1.1\r\nHost: x\r\n"
	for i := 0; i+1 < len(header); i += 2 {
		req += header[i] + ": " + header[i+1] + "\r\n"
	}
	if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
		f.t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		f.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		conn.Close()
	} else {
		f.t.Cleanup(func() { conn.Close() })
	}
	return res.StatusCode, res.Header.Get("Retry-After")
}

// TestStreamCaps: 500 streams from one address: 20 are taken, the others
// refused with 429 and Retry-After (and the page's probe says so too);
// another address still gets its stream, and the players' own pages from
// the crowded address get theirs. Behind a trusted proxy the address it
// reports counts; a proxy not trusted cannot speak for others.
func TestStreamCaps(t *testing.T) {
	proxies, err := web.ParseProxies([]string{"127.0.0.9"})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureWith(t, fixtureOptions{web: web.Config{RequestBurst: 1 << 20, TrustedProxies: proxies}})
	f.game(here, alice, bob, "spanish")
	path, watch := parts(t, f.links.Board(f.look(here), carol).Watch)
	target := path + "/events?t=" + watch
	taken := 0
	for i := range 500 {
		code, retry := f.openStream("127.0.0.1", target)
		switch {
		case code == http.StatusOK:
			taken++
		case code != http.StatusTooManyRequests:
			t.Fatalf("stream %d: %d", i, code)
		case retry == "" || retry == "0":
			t.Fatalf("stream %d: 429 without Retry-After", i)
		}
	}
	if taken != 20 {
		t.Fatalf("%d streams from one address taken, want 20", taken)
	}
	if code, retry := f.openStream("127.0.0.1", target+"&probe=1"); code != http.StatusTooManyRequests || retry == "" {
		t.Fatalf("the probe from the crowded address: %d, Retry-After %q", code, retry)
	}
	if code, _ := f.openStream("127.0.0.2", target+"&probe=1"); code != http.StatusNoContent {
		t.Fatalf("the probe from another address: %d", code)
	}
	if code, _ := f.openStream("127.0.0.2", target); code != http.StatusOK {
		t.Fatalf("another address's stream: %d", code)
	}
	for _, u := range []string{"alice", "bob"} {
		p := map[string]string{"alice": f.link(here, alice), "bob": f.link(here, bob)}[u]
		pp, tok := parts(t, p)
		if code, _ := f.openStream("127.0.0.1", pp+"/events?t="+tok); code != http.StatusOK {
			t.Fatalf("%s's own page from the crowded address: %d", u, code)
		}
	}
	// Through the trusted proxy: each client it reports has its cap.
	if code, _ := f.openStream("127.0.0.9", target, "X-Forwarded-For", "203.0.113.7"); code != http.StatusOK {
		t.Fatalf("a client behind the trusted proxy: %d", code)
	}
	// From an address that is not a trusted proxy, X-Forwarded-For is
	// not believed: the crowded address is still crowded.
	if code, _ := f.openStream("127.0.0.1", target, "X-Forwarded-For", "203.0.113.8"); code != http.StatusTooManyRequests {
		t.Fatalf("a forged X-Forwarded-For from the crowded address: %d", code)
	}
	if n := f.hub.Streams(); n != 20+1+2+1 {
		t.Fatalf("%d streams in the hub", n)
	}
}

// TestStreamsPerGame: past the cap of one game, watchers are refused
// (429), while the players still get their streams and other games
// theirs.
func TestStreamsPerGame(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{hub: web.HubConfig{StreamsPerGame: 5}, web: web.Config{RequestBurst: 1 << 20}})
	f.game(here, alice, bob, "spanish")
	f.game(there, alice, bob, "spanish")
	path, watch := parts(t, f.links.Board(f.look(here), carol).Watch)
	for i := range 8 {
		code, _ := f.openStream("127.0.0."+strconv.Itoa(10+i), path+"/events?t="+watch)
		if want := map[bool]int{true: 200, false: 429}[i < 5]; code != want {
			t.Fatalf("watcher %d: %d, want %d", i, code, want)
		}
	}
	pp, tok := parts(t, f.link(here, alice))
	if code, _ := f.openStream("127.0.0.30", pp+"/events?t="+tok); code != http.StatusOK {
		t.Fatalf("alice's own page on the full game: %d", code)
	}
	tp, tw := parts(t, f.links.Board(f.look(there), carol).Watch)
	if code, _ := f.openStream("127.0.0.31", tp+"/events?t="+tw); code != http.StatusOK {
		t.Fatalf("a watcher of another game: %d", code)
	}
}

// get2 is get with the answer's headers.
func (f *fixture) getRes(pathQuery string, header ...string) (*http.Response, []byte) {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+pathQuery, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := f.client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// TestRequestLimit: requests with a watch link, or none, are limited per
// address (429 with Retry-After past the burst, served again once the
// bucket filled); a player's own link is not; behind a trusted proxy each
// client has its bucket.
func TestRequestLimit(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{web: web.Config{RequestRate: 1, RequestBurst: 5,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}})
	f.game(here, alice, bob, "spanish")
	path, watch := parts(t, f.links.Board(f.look(here), carol).Watch)
	from := func(client string) []string { return []string{"X-Board-Token", watch, "X-Forwarded-For", client} }
	for i := range 5 {
		if res, _ := f.getRes(path+"/state", from("198.51.100.1")...); res.StatusCode != http.StatusOK {
			t.Fatalf("request %d: %d", i, res.StatusCode)
		}
	}
	res, body := f.getRes(path+"/state", from("198.51.100.1")...)
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "1" {
		t.Fatalf("past the burst: %d, Retry-After %q: %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	if res, _ := f.getRes(path+"/state", "X-Forwarded-For", "198.51.100.1"); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("without a token: %d", res.StatusCode)
	}
	if res, _ := f.getRes(path+"/state", from("198.51.100.2")...); res.StatusCode != http.StatusOK {
		t.Fatalf("another client: %d", res.StatusCode)
	}
	// IPv6 clients count by their /64.
	for i := range 5 {
		f.getRes(path+"/state", from("2001:db8:1:2::"+strconv.Itoa(i+1))...)
	}
	if res, _ := f.getRes(path+"/state", from("2001:db8:1:2:ffff::1")...); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a sixth address of one /64: %d", res.StatusCode)
	}
	pp, play := parts(t, f.link(here, alice))
	for i := range 20 {
		if res, _ := f.getRes(pp+"/state", "X-Board-Token", play, "X-Forwarded-For", "198.51.100.1"); res.StatusCode != http.StatusOK {
			t.Fatalf("alice's request %d: %d", i, res.StatusCode)
		}
	}
	f.advance(2 * time.Second)
	if res, _ := f.getRes(path+"/state", from("198.51.100.1")...); res.StatusCode != http.StatusOK {
		t.Fatalf("two seconds later: %d", res.StatusCode)
	}
}

// TestFinishedGameCached: 40 requests at once (and 40 more after) for
// one finished game's frames, state and picture, by a watch link: each
// is made once, and every answer is the same.
func TestFinishedGameCached(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{web: web.Config{RequestBurst: 1 << 20}})
	f.game(here, alice, bob, "spanish")
	f.must(here, alice, "/move "+f.firstMove(here))
	f.must(here, bob, "/move "+f.firstMove(here))
	path, watch := parts(t, f.links.Board(f.look(here), carol).Watch)
	f.must(here, bob, "/resign")
	f.game(here, alice, bob, "spanish") // the finished game is in the history alone
	kinds := []string{"snapshot", "frames", "state", "picture"}
	before := map[string]int{}
	for _, k := range kinds {
		before[k] = f.server.Made(k)
	}
	for _, file := range []string{"/frames", "/state", "/board.png"} {
		var mu sync.Mutex
		bodies := map[string]int{}
		get := func() {
			res, b := f.getRes(path+file, "X-Board-Token", watch)
			if res.StatusCode != http.StatusOK {
				t.Errorf("%s: %d %s", file, res.StatusCode, b)
			}
			mu.Lock()
			bodies[string(b)]++
			mu.Unlock()
		}
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(get)
		}
		wg.Wait()
		for range 40 {
			get()
		}
		if len(bodies) != 1 {
			t.Errorf("%s: %d different answers", file, len(bodies))
		}
	}
	for _, k := range kinds {
		if n := f.server.Made(k) - before[k]; n != 1 {
			t.Errorf("%s made %d times for 240 requests, want once", k, n)
		}
	}
}
