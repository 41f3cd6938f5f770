package sessions_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

func botGame(t *testing.T, s *sessions.Service, color sessions.Color, opts map[string]string) sessions.Event {
	t.Helper()
	p := sessions.DefaultPlayOptions()
	p.Color = color
	return must(t)(s.Challenge(ctx, req(alice), sessions.ChallengeSpec{Game: "count", Options: opts, Computer: true, Play: p}))
}

func TestComputerReplies(t *testing.T) {
	f := newClockFixture(t)
	ev := botGame(t, f.s, sessions.ColorWhite, map[string]string{"target": "1000"})
	if ev.Kind != sessions.EvStarted || !ev.Session.Player(1).Computer {
		t.Fatalf("/play count bot: %+v", ev)
	}
	must(t)(f.s.Move(ctx, req(alice), "2"))
	if err := f.s.Settle(ctx, key); err != nil {
		t.Fatal(err)
	}
	if got := f.n.take(); got != "moved:# turn:alice" {
		t.Fatalf("notices %q, want the computer's move and alice's turn", got)
	}
	snap := f.look(t)
	if snap.State.FEN() != "3:0" || snap.Last.Text != "1" {
		t.Fatalf("after the computer's reply: %s", snap.State.FEN())
	}
	if _, err := f.s.Move(ctx, req(alice), "2"); err != nil {
		t.Fatal(err)
	}
}

func TestComputerMovesFirst(t *testing.T) {
	f := newClockFixture(t)
	botGame(t, f.s, sessions.ColorBlack, map[string]string{"target": "1000"})
	f.s.Settle(ctx, key)
	if snap := f.look(t); snap.State.FEN() != "1:1" || snap.Turn() != 1 {
		t.Fatalf("the computer (White) did not open: %s", snap.State.FEN())
	}
	// A formation step: the computer chooses its formation by itself.
	f2 := newClockFixture(t)
	botGame(t, f2.s, sessions.ColorWhite, map[string]string{"form": "yes"})
	f2.s.Settle(ctx, key)
	if p := f2.look(t).Pending(); len(p) != 1 || p[0] != 0 {
		t.Fatalf("pending formations %v, want only alice's", p)
	}
}

// TestComputerSearchIsCancelled: the search runs off the lock (alice can
// resign meanwhile), and a game that ends stops it; its result is dropped.
func TestComputerSearchIsCancelled(t *testing.T) {
	f := newClockFixture(t)
	f.comp.block = make(chan struct{})
	f.comp.cancelled = make(chan struct{})
	botGame(t, f.s, sessions.ColorWhite, map[string]string{"target": "1000"})
	must(t)(f.s.Move(ctx, req(alice), "1"))
	// The computer thinks; other sessions and this one still answer.
	other := sessions.Key{Platform: "test", Channel: "other"}
	must(t)(f.s.Challenge(ctx, sessions.Request{Key: other, User: bob}, sessions.ChallengeSpec{Game: "count", Play: sessions.DefaultPlayOptions()}))
	if _, err := f.s.Look(ctx, key); err != nil {
		t.Fatal(err)
	}
	ev := must(t)(f.s.Resign(ctx, req(alice)))
	select {
	case <-f.comp.cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the search went on after the game ended")
	}
	f.s.Settle(ctx, key)
	hist, _ := f.s.History(ctx, sessions.HistoryQuery{Key: key})
	if len(hist) != 1 || len(hist[0].Actions) != 1 || !ev.Ended() {
		t.Fatalf("history %+v", hist)
	}
}

// TestComputerStaleResultDropped: a move the computer found for a session
// that changed meanwhile (a takeback) is not applied; the computer
// searches the new position instead.
func TestComputerStaleResultDropped(t *testing.T) {
	f := newClockFixture(t)
	f.comp.block = make(chan struct{})
	botGame(t, f.s, sessions.ColorWhite, map[string]string{"target": "1000"})
	must(t)(f.s.Move(ctx, req(alice), "2"))
	ev := must(t)(f.s.Takeback(ctx, req(alice)))
	if ev.Kind != sessions.EvTakenBack || ev.Session.State.FEN() != "0:0" {
		t.Fatalf("takeback against the computer: %+v %s", ev.Kind, ev.Session.State.FEN())
	}
	f.comp.mu.Lock()
	f.comp.block = nil
	f.comp.mu.Unlock()
	f.s.Settle(ctx, key)
	if snap := f.look(t); snap.State.FEN() != "0:0" {
		t.Fatalf("a stale search was applied: %s", snap.State.FEN())
	}
}

// TestRealComputer plays a real game against rules/ai at level 1.
func TestRealComputer(t *testing.T) {
	s := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Rand: func(int) int { return 0 }})
	defer s.Close()
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	p.Level = 1
	must(t)(s.Challenge(ctx, req(alice), sessions.ChallengeSpec{Game: "spanish", Computer: true, Play: p}))
	for i := 0; i < 6; i++ {
		snap, err := s.Look(ctx, key)
		if err != nil {
			break // the game ended
		}
		if snap.Turn() != 0 {
			t.Fatalf("move %d: the computer has not replied", i)
		}
		must(t)(s.Move(ctx, req(alice), snap.State.Moves()[0].Text))
		if err := s.Settle(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := s.Look(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(snap.Record.Actions); n != 12 {
		t.Fatalf("%d moves played, want 6 each", n)
	}
	if _, ok := games.Lookup("spanish"); !ok {
		t.Fatal("spanish is not registered")
	}
}

func TestTakebackWithConsent(t *testing.T) {
	f := newClockFixture(t)
	f.start(t)
	if _, err := f.s.Takeback(ctx, req(alice)); !errors.Is(err, sessions.ErrNoTakeback) {
		t.Fatalf("takeback before any move: %v", err)
	}
	must(t)(f.s.Move(ctx, req(alice), "2"))
	if _, err := f.s.Takeback(ctx, req(bob)); !errors.Is(err, sessions.ErrNoTakeback) {
		t.Fatalf("bob takes back alice's move: %v", err)
	}
	ev := must(t)(f.s.Takeback(ctx, req(alice)))
	if ev.Kind != sessions.EvTakebackAsked {
		t.Fatalf("takeback: %v", ev.Kind)
	}
	if _, err := f.s.Accept(ctx, req(alice)); err == nil {
		t.Fatal("alice accepted her own takeback")
	}
	must(t)(f.s.Decline(ctx, req(bob)))
	must(t)(f.s.Takeback(ctx, req(alice)))
	ev = must(t)(f.s.Accept(ctx, req(bob)))
	if ev.Kind != sessions.EvTakenBack || ev.Session.State.FEN() != "0:0" || ev.Session.Turn() != 0 {
		t.Fatalf("accepted takeback: %v %s", ev.Kind, ev.Session.State.FEN())
	}
	// Once the opponent has moved, it is too late.
	must(t)(f.s.Move(ctx, req(alice), "1"))
	must(t)(f.s.Move(ctx, req(bob), "1"))
	if _, err := f.s.Takeback(ctx, req(alice)); !errors.Is(err, sessions.ErrNoTakeback) {
		t.Fatalf("takeback after the reply: %v", err)
	}
}

// TestTakebackAgainstYourself: with no one else to ask, a takeback is
// granted at once (it used to wait for an answer nobody could give).
func TestTakebackAgainstYourself(t *testing.T) {
	f := newClockFixture(t)
	must(t)(f.s.Challenge(ctx, req(alice), sessions.ChallengeSpec{Game: "count", Invited: []sessions.User{alice}, Play: sessions.DefaultPlayOptions()}))
	must(t)(f.s.Accept(ctx, req(alice)))
	must(t)(f.s.Move(ctx, req(alice), "2"))
	ev := must(t)(f.s.Takeback(ctx, req(alice)))
	if ev.Kind != sessions.EvTakenBack || ev.Session.State.FEN() != "0:0" || len(ev.Session.Record.Takeback) != 0 {
		t.Fatalf("takeback against yourself: %v %s %v", ev.Kind, ev.Session.State.FEN(), ev.Session.Record.Takeback)
	}
}

func TestRematch(t *testing.T) {
	f := newClockFixture(t)
	if _, err := f.s.Rematch(ctx, req(alice)); !errors.Is(err, sessions.ErrNoSuchGame) {
		t.Fatalf("rematch with no game: %v", err)
	}
	f.start(t, "time=5m")
	must(t)(f.s.Resign(ctx, req(bob)))
	if _, err := f.s.Rematch(ctx, req(carol)); !errors.Is(err, sessions.ErrNotPlayer) {
		t.Fatalf("rematch by a stranger: %v", err)
	}
	ev := must(t)(f.s.Rematch(ctx, req(bob)))
	r := ev.Session.Record
	if ev.Kind != sessions.EvChallenged || !r.Seats[0].Is(bob) || len(r.Invited) != 1 || !r.Invited[0].Is(alice) ||
		r.Options["target"] != "1000" || r.Play.Time != sessions.Duration(5*time.Minute) {
		t.Fatalf("rematch: %+v", r)
	}
	ev = must(t)(f.s.Accept(ctx, req(alice)))
	if !ev.Session.Player(0).Is(bob) || !ev.Session.Player(1).Is(alice) {
		t.Fatal("colours not swapped")
	}
}

// TestDuplicateDeliveries: the same update delivered twice, one after
// the other or at the same moment, is applied once; a day later its id is
// forgotten.
func TestDuplicateDeliveries(t *testing.T) {
	stores(t, func(t *testing.T, store sessions.Store) {
		clk := newClock()
		s := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Now: clk.Now, Rand: func(int) int { return 0 }})
		defer s.Close()
		r := req(alice)
		r.ID = "u1"
		p := sessions.DefaultPlayOptions()
		p.Color = sessions.ColorWhite
		spec := sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "1000"}, Invited: []sessions.User{bob}, Play: p}
		must(t)(s.Challenge(ctx, r, spec))
		if _, err := s.Challenge(ctx, r, spec); !errors.Is(err, sessions.ErrDuplicate) {
			t.Fatalf("second delivery: %v", err)
		}
		rb := req(bob)
		rb.ID = "u2"
		must(t)(s.Accept(ctx, rb))
		var wg sync.WaitGroup
		var mu sync.Mutex
		applied, dup := 0, 0
		for i := range 20 {
			r := req(alice)
			r.ID = fmt.Sprint("m", i/4) // five updates, four deliveries each
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.Move(ctx, r, "1")
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					applied++
				case errors.Is(err, sessions.ErrDuplicate):
					dup++
				case errors.Is(err, sessions.ErrNotYourTurn):
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if applied != 1 {
			t.Fatalf("%d moves applied of one player's turn", applied)
		}
		snap, _ := s.Look(ctx, key)
		if snap.State.FEN() != "1:1" {
			t.Fatalf("position %s", snap.State.FEN())
		}
		clk.Add(sessions.RequestIDsKept + time.Hour)
		s.Tick(ctx)
		if seen, _ := store.Seen(ctx, "test", "u1"); seen {
			t.Fatal("an id older than a day is still kept")
		}
	})
}

// TestConcurrentTakebackMoveResign: both players press everything at
// once; whatever wins, every change is whole: the stored record replays to
// the state in memory, and nothing is applied twice.
func TestConcurrentTakebackMoveResign(t *testing.T) {
	for round := range 20 {
		store := sessionstest.NewMemoryStore()
		s := newService(store)
		challenge(t, s, alice, map[string]string{"target": "1000"}, bob)
		must(t)(s.Accept(ctx, req(bob)))
		var wg sync.WaitGroup
		for g, u := range []sessions.User{alice, bob, alice, bob} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(round), uint64(g)))
				for i := range 40 {
					r := req(u)
					r.ID = fmt.Sprint(u.ID, g%2, i)
					switch rng.IntN(10) {
					case 0:
						s.Takeback(ctx, r)
					case 1, 2:
						s.Accept(ctx, r)
					case 3:
						s.Decline(ctx, r)
					case 9:
						if rng.IntN(10) == 0 {
							s.Resign(ctx, r)
						}
					default:
						s.Move(ctx, r, "1")
					}
				}
			}()
		}
		wg.Wait()
		snap, err := s.Look(ctx, key)
		var rec *sessions.Record
		if err == nil {
			rec, err = store.Load(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
		} else {
			hist, _ := s.History(ctx, sessions.HistoryQuery{Key: key})
			if len(hist) != 1 {
				t.Fatalf("round %d: history %d", round, len(hist))
			}
			rec = hist[0]
		}
		replayed, err := s.Replay(rec)
		if err != nil {
			t.Fatalf("round %d: the stored record does not replay: %v", round, err)
		}
		if snap != nil && replayed.State.FEN() != snap.State.FEN() {
			t.Fatalf("round %d: memory %s, store %s", round, snap.State.FEN(), replayed.State.FEN())
		}
		for i, a := range rec.Actions {
			if a.Seat != i%2 {
				t.Fatalf("round %d: action %d by seat %d: turns do not alternate", round, i, a.Seat)
			}
		}
	}
}

// TestComputerHuffsTheLastPiece: when the computer's huff takes the
// opponent's last piece, the huff alone ends the game (there is no move to
// add to it); the game must not stall.
//
//	  a b c d e f g h
//	8 . . . . . . . b      White's only man stood on c3 and could take d4;
//	5 . . . . . . . .      it played c3-b4 instead (damas huff=yes), so the
//	4 . w . b . . . .      computer (Black) may huff it: White is left with
//	3 . . . . . . . .      nothing and loses.
func TestComputerHuffsTheLastPiece(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	now := time.Now().UTC()
	p := sessions.DefaultPlayOptions()
	p.Level = 2
	rec := &sessions.Record{V: sessions.RecordVersion, Key: key, Game: "damas", Options: map[string]string{"huff": "yes"},
		Play: p, Challenger: alice, Seats: []sessions.User{alice, sessions.ComputerUser()},
		Start:   "W:Wc3:Bd4,h8",
		Actions: []sessions.Action{{Kind: sessions.ActMove, Seat: 0, Text: "c3-b4", At: now}},
		Created: now, Started: now, Updated: now}
	if err := store.Commit(ctx, &sessions.Change{Key: key, Live: rec}); err != nil {
		t.Fatal(err)
	}
	s := sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 }})
	defer s.Close()
	if n, err := s.Resume(ctx); n != 1 || err != nil {
		t.Fatalf("resume: %d %v", n, err)
	}
	if err := s.Settle(ctx, key); err != nil {
		t.Fatal(err)
	}
	hist, err := s.History(ctx, sessions.HistoryQuery{Key: key})
	if err != nil || len(hist) != 1 {
		t.Fatalf("the game did not end: history %v %v", hist, err)
	}
	g := hist[0]
	last := g.Actions[len(g.Actions)-1]
	if g.Result == nil || g.Result.Winner != 1 || last.Kind != sessions.ActHuff || last.Text != "b4" {
		t.Fatalf("result %+v, last action %+v; want Black's win by huffing b4", g.Result, last)
	}
}

// TestComputerSearchOwner: the computer's searches take turns by the
// person who plays the computer (every game of one person is one owner),
// and by the chat for the clock's moves in a game between people.
func TestComputerSearchOwner(t *testing.T) {
	f := newClockFixture(t)
	botGame(t, f.s, sessions.ColorBlack, map[string]string{"target": "1000"})
	f.s.Settle(ctx, key)
	other := sessions.Key{Platform: "test", Channel: "c2"}
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorBlack
	must(t)(f.s.Challenge(ctx, sessions.Request{Key: other, User: alice}, sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "1000"}, Computer: true, Play: p}))
	f.s.Settle(ctx, other)

	g := newClockFixture(t)
	t0 := g.clk.Now()
	g.start(t)
	g.clk.Set(t0.Add(time.Hour))
	g.tick(t)

	for _, c := range []struct {
		name string
		got  []string
		want []string
	}{
		{"alice's two games against the computer", f.comp.owners, []string{"user\x00test\x00a", "user\x00test\x00a"}},
		{"the clock's move for alice against bob", g.comp.owners, []string{"chat\x00test\x00c1"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: owners %q, want %q", c.name, c.got, c.want)
		}
	}
}
