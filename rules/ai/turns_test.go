package ai

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestTurnsRoundRobin: searches waiting for a table take turns between
// their owners. With 300 searches of alice waiting, a search of another
// owner starts after at most one search per other owner waiting (counted,
// not timed): the owners waiting are served one search each per round.
func TestTurnsRoundRobin(t *testing.T) {
	type arrival struct {
		owner string
		n     int
	}
	for _, c := range []struct {
		name    string
		tables  int
		arrive  []arrival
		owner   string // the owner whose first search is counted
		atMost  int    // searches of others that may start before it
		wantLen int    // searches started in all
	}{
		{"alice 300, bob 1", 2, []arrival{{"alice", 300}, {"bob", 1}}, "bob", 1, 301},
		{"alice 300, carol 5, bob 1", 2, []arrival{{"alice", 300}, {"carol", 5}, {"bob", 1}}, "bob", 2, 306},
		{"one table", 1, []arrival{{"alice", 300}, {"carol", 5}, {"dave", 40}, {"bob", 1}}, "bob", 3, 346},
		{"bob joins between alice's", 2, []arrival{{"alice", 150}, {"bob", 1}, {"alice", 150}}, "bob", 1, 301},
		{"the chat of a clock move", 2, []arrival{{"alice", 300}, {"", 1}}, "", 1, 301},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := newTurns(c.tables)
			// Every table is in use: every search below waits.
			held := make([]*table, c.tables)
			for i := range held {
				tt, _, ok := q.enqueue("busy")
				if !ok {
					t.Fatal("a free table was not taken")
				}
				held[i] = tt
			}
			var waiters []*waiter
			for _, a := range c.arrive {
				for range a.n {
					_, w, ok := q.enqueue(a.owner)
					if ok {
						t.Fatal("a search got a table while every table was in use")
					}
					waiters = append(waiters, w)
				}
			}
			// One table goes round: each search that starts ends at once and
			// gives it on (the others stay busy until the end).
			var started []string
			granted := func() (*waiter, grant) {
				t.Helper()
				var got *waiter
				var g grant
				for _, w := range waiters {
					select {
					case g = <-w.ch:
						if got != nil {
							t.Fatal("one table was handed to two searches")
						}
						got = w
					default:
					}
				}
				if got == nil {
					t.Fatalf("a table was released and no search started (%d started)", len(started))
				}
				return got, g
			}
			q.release(held[0])
			for range waiters {
				w, g := granted()
				started = append(started, w.owner)
				q.release(g.t)
			}
			for _, tt := range held[1:] {
				q.release(tt)
			}
			if len(started) != c.wantLen {
				t.Fatalf("%d searches started, want %d", len(started), c.wantLen)
			}
			before := -1
			for i, o := range started {
				if o == c.owner {
					before = i
					break
				}
			}
			if before < 0 || before > c.atMost {
				t.Errorf("%q's search started after %d others, want at most %d (one per other owner waiting); order %v", c.owner, before, c.atMost, started[:min(10, len(started))])
			}
			if len(q.free) != c.tables || q.waiting != 0 || len(q.ring) != 0 || len(q.queues) != 0 {
				t.Errorf("after every search: %d tables free of %d, %d waiting, ring %v", len(q.free), c.tables, q.waiting, q.ring)
			}
		})
	}
}

// TestTurnsEachOwnerOncePerRound: while several owners wait, every round
// serves each of them once, in the order they started waiting.
func TestTurnsEachOwnerOncePerRound(t *testing.T) {
	q := newTurns(1)
	held, _, _ := q.enqueue("busy")
	var ws []*waiter
	for _, o := range []string{"a", "a", "a", "b", "b", "c"} {
		_, w, _ := q.enqueue(o)
		ws = append(ws, w)
	}
	var order string
	tt := held
	for range ws {
		q.release(tt)
		for _, w := range ws {
			select {
			case g := <-w.ch:
				order += w.owner
				tt = g.t
			default:
			}
		}
	}
	if order != "abcaba" {
		t.Errorf("served %q, want abcaba (a, b, c in turn)", order)
	}
}

// TestTurnsGivenUp: a search whose context ends while it waits leaves its
// queue, and the table goes to the next one; no table is lost.
func TestTurnsGivenUp(t *testing.T) {
	q := newTurns(1)
	held, _, _ := q.enqueue("busy")
	_, gone, _ := q.enqueue("alice")
	_, next, _ := q.enqueue("bob")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := q.wait(ctx, gone); err == nil {
		t.Fatal("wait with a cancelled context returned a table")
	}
	q.release(held)
	g, err := q.wait(context.Background(), next)
	if err != nil {
		t.Fatal(err)
	}
	q.release(g.t)
	if len(q.free) != 1 || q.waiting != 0 || len(q.ring) != 0 {
		t.Errorf("%d free, %d waiting, ring %v", len(q.free), q.waiting, q.ring)
	}
	// Given up after the table was handed: it is handed on.
	held, _, _ = q.enqueue("busy")
	_, late, _ := q.enqueue("alice")
	_, after, _ := q.enqueue("bob")
	q.release(held) // to alice
	if g, err := q.wait(ctx, late); err == nil {
		// The grant won the race with the cancellation: alice searches,
		// then gives the table on.
		q.release(g.t)
	}
	select {
	case g := <-after.ch:
		q.release(g.t)
	default:
		t.Fatal("the table alice gave up never reached bob")
	}
	if len(q.free) != 1 {
		t.Errorf("%d tables free, want 1", len(q.free))
	}
}

// TestLevel5UnderLoadPlaysLevel4AtLeast: with many searches waiting,
// level 5's time shrinks to its share, but it still searches what level 4
// searches (level 4's depth or positions, whichever comes first), and
// plays what level 4 plays, or better. Without load it searches deeper.
func TestLevel5UnderLoadPlaysLevel4AtLeast(t *testing.T) {
	// A long MaxTime: no search stops for time, so that the depths and
	// positions compared are counts, not a race with the clock.
	p := New(Config{TableMB: 4, MaxTime: time.Minute})
	for _, c := range []struct{ game, fen string }{
		{"spanish", middleGame},
		{"spanish", ""},
	} {
		t.Run(fmt.Sprintf("%s %q", c.game, c.fen), func(t *testing.T) {
			s := start(t, newGame(t, c.game, nil), 0)
			if c.fen != "" {
				s = load(t, c.game, nil, c.fen)
			}
			l4, err := p.Search(context.Background(), s, Options{Level: 4, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			// So many searches wait that level 5's share of the time is
			// nothing: it does level 4's work, then stops.
			l5, err := p.Search(context.Background(), s, Options{Level: 5, Seed: 3, load: 1 << 40})
			if err != nil {
				t.Fatal(err)
			}
			if l5.Depth < l4.Depth || l5.Nodes < l4.Nodes {
				t.Errorf("level 5 under load searched %d plies, %d positions; level 4 %d plies, %d positions", l5.Depth, l5.Nodes, l4.Depth, l4.Nodes)
			}
			if l5.Move.Text != l4.Move.Text {
				t.Errorf("level 5 under load plays %s, level 4 %s", l5.Move.Text, l4.Move.Text)
			}
		})
	}
}

// TestSearchesTakeTurns: through the Player, one table: while a long
// search holds it, alice queues 300 searches and then bob one; the Player
// queues each search under its owner, so that bob's waits in a queue of
// its own beside alice's 300, which the round robin (TestTurnsRoundRobin)
// serves first or second, not 301st; then all 301 run. (The order in
// which the searches report their end is not asked: with one table a
// search ends, hands the table on, and the next may end before the first
// one's goroutine reports, on a loaded machine.)
func TestSearchesTakeTurns(t *testing.T) {
	p := New(Config{TableMB: 1, Searches: 1, MaxTime: time.Minute})
	s := load(t, "spanish", nil, middleGame)
	long, stop := context.WithCancel(context.Background())
	held := make(chan struct{})
	go func() {
		defer close(held)
		p.Search(WithOwner(long, "carol"), s, Options{Level: 5})
	}()
	waitFor := func(n int) {
		t.Helper()
		for p.Waiting() != n {
			select {
			case <-held:
				t.Fatal("carol's search ended before the others queued")
			case <-time.After(time.Millisecond):
			}
		}
	}
	for {
		p.turns.mu.Lock()
		free := len(p.turns.free)
		p.turns.mu.Unlock()
		if free == 0 {
			break // carol's search holds the table
		}
		time.Sleep(time.Millisecond)
	}
	done := make(chan string, 301)
	run := func(owner string) {
		if _, err := p.Search(WithOwner(context.Background(), owner), s, Options{Level: 1, Seed: 1}); err != nil {
			t.Error(err)
		}
		done <- owner
	}
	for i := range 300 {
		go run("alice")
		waitFor(i + 1)
	}
	go run("bob")
	waitFor(301)
	p.turns.mu.Lock()
	alice, bob, owners := len(p.turns.queues["alice"]), len(p.turns.queues["bob"]), len(p.turns.ring)
	p.turns.mu.Unlock()
	if alice != 300 || bob != 1 || owners != 2 {
		t.Errorf("queued: %d of alice's, %d of bob's, %d owners taking turns; want 300, 1, 2", alice, bob, owners)
	}
	stop()
	<-held
	ran := map[string]int{}
	for range 301 {
		ran[<-done]++
	}
	if ran["alice"] != 300 || ran["bob"] != 1 {
		t.Errorf("searches run: %v", ran)
	}
}
