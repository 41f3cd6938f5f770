package web_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/sessions"
)

// dialSlow opens a raw event stream (target: the path and query) from a
// connection with a tiny receive window that never reads: after a few
// events the server's writes to it block.
func dialSlow(tb testing.TB, addr, target string, header ...string) net.Conn {
	tb.Helper()
	d := net.Dialer{Control: func(network, address string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { conn.Close() })
	req := "GET " + target + " HTTP/1.1\r\nHost: x\r\n"
	for i := 0; i+1 < len(header); i += 2 {
		req += header[i] + ": " + header[i+1] + "\r\n"
	}
	if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
		tb.Fatal(err)
	}
	return conn
}

// BenchmarkSlowReaders: n streams on one game that never read (a tiny
// receive window) and one normal reader (a raw stream on loopback); each
// iteration is a move, from the game's start (the slow readers' windows
// and the server's buffers fill as the game goes): p99-ms is the normal
// reader's delay from the move to its state, p50-ms its median, max-ms
// the longest, cuts how often the normal reader was cut off (it connects
// again and the state it gets then counts). Run it with -benchtime=400x:
// the buffers take a few hundred moves to fill.
func BenchmarkSlowReaders(b *testing.B) {
	for _, n := range []int{32} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchSlowReaders(b, n) })
	}
}

func benchSlowReaders(b *testing.B, n int) {
	f := newFixtureWith(b, fixtureOptions{hub: web.HubConfig{StreamsPerAddress: n + 1}, web: web.Config{RequestBurst: 1 << 20}}) // every stream from loopback
	f.game(here, alice, bob, "halma size=16")
	path, token := parts(b, f.links.Board(f.look(here), carol).Watch)
	addr := strings.TrimPrefix(f.srv.URL, "http://")
	target := path + "/events?t=" + token
	for range n {
		dialSlow(b, addr, target)
	}
	buf := make([]byte, 64<<10)
	open := func() *watcher {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { conn.Close() })
		if _, err := io.WriteString(conn, "GET "+target+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			b.Fatal(err)
		}
		w := &watcher{conn: conn}
		if err := w.nextState(buf); err != nil {
			b.Fatal(err)
		}
		return w
	}
	w := open()
	rng := rand.New(rand.NewPCG(1, 2))
	cuts := 0
	move := func() time.Duration {
		s := f.look(here)
		legal := s.State.Moves()
		m := legal[rng.IntN(len(legal))]
		start := time.Now()
		if _, err := f.svc.Move(ctx, sessions.Request{Key: here, User: s.Player(s.Turn())}, m.Text); err != nil {
			b.Fatal(err)
		}
		if err := w.nextState(buf); err != nil {
			cuts++
			w.conn.Close()
			w = open()
		}
		return time.Since(start)
	}
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		lat = append(lat, move())
	}
	b.StopTimer()
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[(len(lat)*99)/100]), "p99-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
	b.ReportMetric(float64(cuts), "cuts")
}

// TestSlowReaders: 32 streams on one game that never read (a tiny
// receive window; their writes wait for a minute before they are cut)
// and one normal watcher: once every slow stream's writer is stuck, the
// normal watcher gets each of 10 moves at once (within a second, its
// p99 logged), in order, and is never cut; the slow streams are still
// there (each waits on its own, for a minute).
func TestSlowReaders(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{hub: web.HubConfig{WriteTimeout: time.Minute, StreamsPerAddress: 100}})
	f.game(here, alice, bob, "halma size=16")
	link := f.links.Board(f.look(here), carol).Watch
	path, token := parts(t, link)
	for range 32 {
		dialSlow(t, f.srv.Listener.Addr().String(), path+"/events?t="+token)
	}
	page := f.watch(link)
	page.nextState(t)
	move := func() (int, time.Duration) {
		s := f.look(here)
		mv := s.State.Moves()[0].Text
		start := time.Now()
		if _, err := f.svc.Move(ctx, sessions.Request{Key: here, User: s.Player(s.Turn())}, mv); err != nil {
			t.Fatal(err)
		}
		st := page.nextState(t)
		if st.V != s.Record.Version+1 {
			t.Fatalf("the watcher got version %d after the move to %d", st.V, s.Record.Version+1)
		}
		return st.V, time.Since(start)
	}
	// The slow streams' buffers fill: each has its writer stuck.
	for i := 0; f.hub.Writing() < 32 || i < 30; i++ {
		if i == 500 {
			t.Fatalf("after %d moves, %d slow streams wait on a write", i, f.hub.Writing())
		}
		move()
	}
	var lat []time.Duration
	for range 10 {
		_, d := move()
		if d > time.Second {
			t.Errorf("a move reached the normal watcher after %v", d)
		}
		lat = append(lat, d)
	}
	slices.Sort(lat)
	t.Logf("the normal watcher's delay: p50 %v, p99 %v", lat[len(lat)/2], lat[len(lat)*99/100])
	if n := f.hub.Streams(); n != 33 {
		t.Fatalf("%d streams, want 33: the normal watcher and the 32 slow ones, none cut", n)
	}
}

// TestSlowReaderCatchesUp: a page that stops reading while the game
// goes on gets, when it reads again, the newest state, without every
// state between (a state waiting for it is replaced by the next one).
func TestSlowReaderCatchesUp(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{hub: web.HubConfig{WriteTimeout: time.Minute}})
	f.game(here, alice, bob, "halma size=16")
	link := f.links.Board(f.look(here), carol).Watch
	path, token := parts(t, link)
	slow := dialSlow(t, f.srv.Listener.Addr().String(), path+"/events?t="+token)
	moves := 0
	move := func() {
		s := f.look(here)
		if _, err := f.svc.Move(ctx, sessions.Request{Key: here, User: s.Player(s.Turn())}, s.State.Moves()[0].Text); err != nil {
			t.Fatal(err)
		}
		moves++
	}
	// Its buffers fill (about 64 KB: some 20 states) and its writer
	// waits; then 5 more moves, whose states replace each other.
	for f.hub.Writing() < 1 || moves < 30 {
		if moves == 500 {
			t.Fatal("the page that does not read never made its writer wait")
		}
		move()
	}
	for range 5 {
		move()
	}
	want := f.look(here).Record.Version
	r := bufio.NewReader(slow)
	states := 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("the page reading again: %v after %d states", err, states)
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || !strings.HasPrefix(data, "{\"v\"") {
			continue
		}
		var st web.State
		if err := json.Unmarshal([]byte(data), &st); err != nil {
			t.Fatal(err)
		}
		states++
		if st.V == want {
			break
		}
	}
	if states > moves+1-4 {
		t.Fatalf("the page got %d states for %d moves: none was replaced", states, moves)
	}
	t.Logf("the page that read late got %d states for %d moves, the newest last", states, moves)
}

// TestSlowReaderCut: a page that does not read is cut after its own
// write deadline, and leaves the hub; the page that reads stays.
func TestSlowReaderCut(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{hub: web.HubConfig{WriteTimeout: 300 * time.Millisecond}})
	f.game(here, alice, bob, "halma size=16")
	link := f.links.Board(f.look(here), carol).Watch
	path, token := parts(t, link)
	dialSlow(t, f.srv.Listener.Addr().String(), path+"/events?t="+token)
	page := f.watch(link)
	page.nextState(t)
	for range 40 {
		s := f.look(here)
		if _, err := f.svc.Move(ctx, sessions.Request{Key: here, User: s.Player(s.Turn())}, s.State.Moves()[0].Text); err != nil {
			t.Fatal(err)
		}
		page.nextState(t)
	}
	for start := time.Now(); f.hub.Streams() != 1; time.Sleep(5 * time.Millisecond) {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("%d streams: the page that does not read was not cut", f.hub.Streams())
		}
	}
	s := f.look(here)
	f.must(here, s.Player(s.Turn()), "/move "+s.State.Moves()[0].Text)
	if st := page.nextState(t); st.V != s.Record.Version+1 {
		t.Fatalf("the page that reads got version %d", st.V)
	}
}
