package web_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/adapters/web/webtest"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// watcher is one raw watch stream of the benchmark: a connection and
// where its reading stands (the last byte read, the kind of the event
// being read), no buffer of its own.
type watcher struct {
	conn  net.Conn
	last  byte
	kind  byte // first byte of the block being read: 'e' an event, ':' a comment, 'H' the answer's head
	begun bool
}

// nextState reads the stream until the end of its next state event.
func (w *watcher) nextState(buf []byte) error {
	for {
		n, err := w.conn.Read(buf)
		for _, c := range buf[:n] {
			if !w.begun {
				w.kind, w.begun = c, true
			}
			if c == '\n' && w.last == '\n' {
				w.begun = false
				if w.kind == 'e' {
					w.last = 0
					// The rest of this read is the next event's: a stream
					// gets one event per change, and the benchmark waits
					// for each change before the next.
					return nil
				}
			}
			w.last = c
		}
		if err != nil {
			return err
		}
	}
}

// heap is the memory the process holds in its heap and its goroutines'
// stacks, after a collection.
func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// BenchmarkWatchers: n pages watch one game (raw streams on loopback);
// fanout-ms is the time from a move until every stream got it, KB/watcher
// the memory one open stream costs (the server's and the benchmark's own
// connection, which is small beside it).
func BenchmarkWatchers(b *testing.B) {
	for _, n := range []int{1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchWatchers(b, n) })
	}
}

func benchWatchers(b *testing.B, n int) {
	f := newFixtureWith(b, fixtureOptions{hub: web.HubConfig{StreamsPerAddress: n + 1}, web: web.Config{RequestBurst: 1 << 20}}) // every stream from loopback
	f.game(here, alice, bob, "halma size=16")
	path, token := parts(b, f.links.Board(f.look(here), carol).Watch)
	addr := strings.TrimPrefix(f.srv.URL, "http://")
	buf := make([]byte, 64<<10)
	before := heap()
	ws := make([]*watcher, n)
	for i := range ws {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, "GET "+path+"/events?t="+token+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			b.Fatal(err)
		}
		ws[i] = &watcher{conn: conn}
		if err := ws[i].nextState(buf); err != nil { // the state now
			b.Fatal(err)
		}
	}
	if got := f.hub.Streams(); got != n {
		b.Fatalf("%d streams, want %d", got, n)
	}
	perWatcher := float64(heap()-before) / float64(n) / 1024
	rng := rand.New(rand.NewPCG(1, 2))
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		s := f.look(here)
		legal := s.State.Moves()
		m := legal[rng.IntN(len(legal))]
		start := time.Now()
		if _, err := f.svc.Move(ctx, sessions.Request{Key: here, User: s.Player(s.Turn())}, m.Text); err != nil {
			b.Fatal(err)
		}
		for _, w := range ws {
			if err := w.nextState(buf); err != nil {
				b.Fatal(err)
			}
		}
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "fanout-ms")
	b.ReportMetric(perWatcher, "KB/watcher")
}

// TestPageWeight: the board page's HTML, JavaScript and CSS weigh at most
// 60 KB compressed (gzip, as served), with no font to fetch; the figure
// is logged (go test -run PageWeight -v ./adapters/web).
func TestPageWeight(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	link := f.link(here, alice)
	u, _ := url.Parse(link)
	total := 0
	files := []string{u.RequestURI()} // the style sheet is in the page
	for _, js := range pageScripts {
		files = append(files, "/s/"+js)
	}
	for _, p := range files {
		code, body := f.get(p, "Accept-Encoding", "gzip")
		if code != 200 || len(body) < 2 || body[0] != 0x1f || body[1] != 0x8b {
			t.Fatalf("%s: %d, not gzipped", p, code)
		}
		n := len(body)
		total += n
		t.Logf("%s: %d bytes", strings.SplitN(p, "?", 2)[0], n)
	}
	t.Logf("page weight: %.1f KB compressed", float64(total)/1024)
	if total > 60<<10 {
		t.Fatalf("the page weighs %d bytes compressed, more than 60 KB", total)
	}
}

// BenchmarkPagePaint: from the navigation's start to the first board
// painted, in a real browser on loopback: paint-ms. The page's HTML
// carries the board (the server draws it), so the board is painted in
// the page's first paint (first-contentful-paint, Performance API);
// script-ms is when the script's board, taken over from the server's,
// was painted (the page's mark board-painted).
func BenchmarkPagePaint(b *testing.B) {
	browser := webtest.Browser(b)
	f := newFixture(b)
	f.game(here, alice, bob, "spanish")
	link := f.link(here, alice)
	u, _ := url.Parse(link)
	if _, html := f.get(u.RequestURI()); !strings.Contains(string(html), `data-square="b3"`) {
		b.Fatal("the page's HTML does not carry the board")
	}
	p := webtest.Open(b, browser, "about:blank")
	p.Run(page.BringToFront(), chromedp.Navigate(link)) // the first load fills the caches, as a player's second visit
	p.WaitFor(`document.visibilityState === 'visible' && performance.getEntriesByName('board-painted').length > 0`)
	var total, script float64
	b.ResetTimer()
	for range b.N {
		p.Run(chromedp.Navigate(link))
		p.WaitFor(`performance.getEntriesByName('board-painted').length > 0 && performance.getEntriesByName('first-contentful-paint').length > 0`)
		var ms []float64
		p.Eval(`['first-contentful-paint', 'board-painted'].map(n => performance.getEntriesByName(n)[0].startTime)`, &ms)
		total += ms[0]
		script += ms[1]
	}
	b.ReportMetric(total/float64(b.N), "paint-ms")
	b.ReportMetric(script/float64(b.N), "script-ms")
	var nav string
	p.Eval(`JSON.stringify((n => ({req: n.requestStart, resp: n.responseStart, end: n.responseEnd, dom: n.domInteractive, dcl: n.domContentLoadedEventEnd}))(performance.getEntriesByType('navigation')[0])) + ' ' + JSON.stringify(performance.getEntriesByType('resource').map(r => [r.name.slice(-12), Math.round(r.startTime), Math.round(r.responseEnd)]))`, &nav)
	b.Log(nav)
}

// BenchmarkMoveToWatcher: two pages play 100 moves of Halma (10x10) by
// taps; for each, the time from the tap that makes the move in one page
// to the other page's board showing it: p50-ms and p99-ms (the pages'
// marks move-sent and board-shown, Performance API, on the pages' own
// clocks on one machine).
func BenchmarkMoveToWatcher(b *testing.B) {
	browser := webtest.Browser(b)
	var lat []float64
	for range b.N {
		f := newFixture(b)
		f.game(here, alice, bob, "halma size=10 leavehome=off")
		pages := []*webtest.Page{webtest.Open(b, browser, f.link(here, alice)), webtest.Open(b, browser, f.link(here, bob))}
		rng := rand.New(rand.NewPCG(3, 4))
		for range 100 {
			s := f.look(here)
			if s.Record.Result != nil {
				break
			}
			legal := slices.DeleteFunc(s.State.Moves(), func(m rules.Move) bool { return m.Pass })
			m := legal[rng.IntN(len(legal))]
			mover, other := pages[s.Turn()], pages[1-s.Turn()]
			v := s.Record.Version
			mover.WaitVersion(v)
			mover.PlayByTaps(m, legal)
			other.WaitVersion(v + 1)
			var sent, shown float64
			mover.Eval(markTime("move-sent", v+1), &sent)
			other.Eval(markTime("board-shown", v+1), &shown)
			lat = append(lat, shown-sent)
		}
	}
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "p50-ms")
	b.ReportMetric(lat[len(lat)*99/100], "p99-ms")
}

// pageScripts are the board page's script modules (the page loads them
// all; types.js holds types only and is never loaded).
var pageScripts = []string{"board.js", "draw.js", "api.js", "controls.js", "replay.js", "miniapp.js"}

// markTime is a JavaScript expression: when the page marked name (a
// Performance API mark, its detail the game's version v), on the page's
// clock in milliseconds since the epoch.
func markTime(name string, v int) string {
	return fmt.Sprintf(`performance.timeOrigin + performance.getEntriesByName(%q).find(e => e.detail && e.detail.v === %d).startTime`, name, v)
}
