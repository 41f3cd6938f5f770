package sessions_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/bolt"
)

// TestEloSeedExamples: the worked examples of seed 004 ("Klassifikation
// nach Punkten"): equal ratings move 15 points; 2000 beating 1000 moves
// nothing, 1000 beating 2000 moves 30; at most 30 points.
func TestEloSeedExamples(t *testing.T) {
	for _, tc := range []struct {
		a, b  int
		score float64
		want  int
	}{
		{1000, 1000, 1, 15},   // Beispiel 1: the winner gets 15
		{1000, 1000, 0, -15},  // ... and the loser loses 15
		{2000, 1000, 1, 0},    // Beispiel 2: no change
		{1000, 2000, 1, 30},   // the reverse: 30
		{2000, 1000, 0, -30},  // and the favourite loses 30
		{1000, 1000, 0.5, 0},  // a draw of equals
		{1000, 2000, 0.5, 15}, // 30 x (0.5 - 0.00315) = 14.9
		{1030, 1000, 1, 14},   // 30 x (1 - 1/(1+10^(-30/400))) = 30 x 0.457 = 13.7
		{3000, 0, 0, -30},     // never more than 30
	} {
		if got := sessions.EloDelta(tc.a, tc.b, tc.score); got != tc.want {
			t.Errorf("EloDelta(%d, %d, %v) = %d, want %d", tc.a, tc.b, tc.score, got, tc.want)
		}
	}
}

// stores runs a test with the memory store and with the bbolt store.
func stores(t *testing.T, f func(t *testing.T, store sessions.Store)) {
	t.Run("memory", func(t *testing.T) { f(t, sessionstest.NewMemoryStore()) })
	t.Run("bbolt", func(t *testing.T) {
		st, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"), bolt.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		f(t, st)
	})
}

type ratingFixture struct {
	clk   *sessionstest.Clock
	store sessions.Store
	s     *sessions.Service
	k     int
}

func newRatingFixture(t *testing.T, store sessions.Store) *ratingFixture {
	f := &ratingFixture{clk: newClock(), store: store}
	f.s = sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Now: f.clk.Now, Rand: func(int) int { return 0 },
		Computer: &firstMove{}})
	t.Cleanup(f.s.Close)
	return f
}

// play has white challenge black to count to target and both play "2"
// until the end (or until moves moves were played), in a new channel.
func (f *ratingFixture) play(t *testing.T, white, black sessions.User, target, moves int, play ...string) sessions.Key {
	t.Helper()
	f.k++
	k := sessions.Key{Platform: "test", Channel: fmt.Sprint("r", f.k)}
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	for _, o := range play {
		k, v, _ := strings.Cut(o, "=")
		if _, err := p.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	invited := []sessions.User{black}
	must(t)(f.s.Challenge(ctx, sessions.Request{Key: k, User: white}, sessions.ChallengeSpec{Game: "count",
		Options: map[string]string{"target": fmt.Sprint(target)}, Invited: invited, Play: p}))
	must(t)(f.s.Accept(ctx, sessions.Request{Key: k, User: black}))
	for i := 0; i < moves; i++ {
		u := white
		if i%2 == 1 {
			u = black
		}
		ev := must(t)(f.s.Move(ctx, sessions.Request{Key: k, User: u}, "2"))
		if ev.Ended() {
			break
		}
	}
	return k
}

func (f *ratingFixture) rating(t *testing.T, u sessions.User, period string) (sessions.Standing, bool) {
	t.Helper()
	all, err := f.s.Standings(ctx, "test", u.ID, "count")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range all {
		if st.Period == period {
			return st, true
		}
	}
	return sessions.Standing{}, false
}

func (f *ratingFixture) expect(t *testing.T, u sessions.User, period string, rating, games int) {
	t.Helper()
	st, ok := f.rating(t, u, period)
	if !ok && games == 0 && rating == sessions.StartRating {
		return
	}
	if !ok || st.Rating != rating || st.Games != games {
		t.Fatalf("%s %s: %+v (found %v), want rating %d after %d games", u.Name, period, st, ok, rating, games)
	}
}

func TestRatedGame(t *testing.T) {
	stores(t, func(t *testing.T, store sessions.Store) {
		f := newRatingFixture(t, store)
		month := sessions.Month(f.clk.Now())
		// Count to 44 by twos: bob's 11th move (the 22nd) wins, more than 10.
		k := f.play(t, alice, bob, 44, 100)
		hist := must2[[]*sessions.Record](t)(f.s.History(ctx, sessions.HistoryQuery{Key: k}))
		if len(hist) != 1 || hist[0].Result.Winner != 1 {
			t.Fatalf("history %+v", hist)
		}
		f.expect(t, bob, sessions.AllTime, 1015, 1)
		f.expect(t, alice, sessions.AllTime, 985, 1)
		f.expect(t, bob, month, 1015, 1)
		f.expect(t, alice, month, 985, 1)
		rc := hist[0].Ratings
		if len(rc) != 2 || rc[1].Before != 1000 || rc[1].After != 1015 || rc[0].After != 985 || rc[0].MonthAfter != 985 {
			t.Fatalf("the stored game's rating changes: %+v", rc)
		}
		st, _ := f.rating(t, bob, sessions.AllTime)
		if st.Won != 1 || st.Lost != 0 || st.Drawn != 0 {
			t.Fatalf("bob %+v", st)
		}
		// Next month the monthly rating starts again at 1000; the all-time
		// one carries on: 1015 against 985, bob wins again:
		// 30 x (1 - 1/(1+10^(-30/400))) = 13.7, so 14; the month's 15.
		f.clk.Add(31 * 24 * time.Hour)
		next := sessions.Month(f.clk.Now())
		f.play(t, alice, bob, 44, 100)
		f.expect(t, bob, sessions.AllTime, 1029, 2)
		f.expect(t, alice, sessions.AllTime, 971, 2)
		f.expect(t, bob, next, 1015, 1)
		f.expect(t, bob, month, 1015, 1)
	})
}

func TestUnratedGames(t *testing.T) {
	stores(t, func(t *testing.T, store sessions.Store) {
		f := newRatingFixture(t, store)
		// Resigning before the winner's 11th move: not rated.
		k := f.play(t, alice, bob, 1000, 20) // 10 moves each
		must(t)(f.s.Resign(ctx, sessions.Request{Key: k, User: alice}))
		f.expect(t, alice, sessions.AllTime, 1000, 0)
		f.expect(t, bob, sessions.AllTime, 1000, 0)
		// Counting to 40: alice's 10th move wins it: not rated.
		f.play(t, bob, alice, 40, 100)
		f.expect(t, alice, sessions.AllTime, 1000, 0)
		// rated=no.
		f.play(t, alice, bob, 44, 100, "rated=no")
		// Against oneself.
		f.play(t, alice, alice, 44, 100)
		// Against the computer.
		kc := sessions.Key{Platform: "test", Channel: "computer"}
		p := sessions.DefaultPlayOptions()
		p.Color = sessions.ColorWhite
		must(t)(f.s.Challenge(ctx, sessions.Request{Key: kc, User: alice}, sessions.ChallengeSpec{Game: "count",
			Options: map[string]string{"target": "30"}, Computer: true, Play: p}))
		for {
			ev, err := f.s.Move(ctx, sessions.Request{Key: kc, User: alice}, "1")
			if errors.Is(err, sessions.ErrNoGame) || err == nil && ev.Ended() {
				break
			}
			if err != nil && !errors.Is(err, sessions.ErrNotYourTurn) {
				t.Fatal(err)
			}
			f.s.Settle(ctx, kc)
		}
		// Four players.
		k4 := sessions.Key{Platform: "test", Channel: "four"}
		must(t)(f.s.Challenge(ctx, sessions.Request{Key: k4, User: alice}, sessions.ChallengeSpec{Game: "count",
			Options: map[string]string{"target": "100", "players": "4"}, Play: sessions.DefaultPlayOptions()}))
		for _, u := range []sessions.User{bob, carol, dave} {
			must(t)(f.s.Accept(ctx, sessions.Request{Key: k4, User: u}))
		}
		for i := 0; i < 60; i++ {
			snap, err := f.s.Look(ctx, k4)
			if err != nil {
				break
			}
			must(t)(f.s.Move(ctx, sessions.Request{Key: k4, User: snap.Player(snap.Turn())}, "2"))
		}
		for _, u := range []sessions.User{alice, bob, carol, dave} {
			f.expect(t, u, sessions.AllTime, 1000, 0)
		}
	})
}

func TestAbandonmentPenalty(t *testing.T) {
	stores(t, func(t *testing.T, store sessions.Store) {
		f := newRatingFixture(t, store)
		f.s.Close()
		f.s = sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Now: f.clk.Now, Rand: func(int) int { return 0 },
			Computer: &firstMove{}, DefaultTime: func(string) sessions.Duration { return sessions.Duration(time.Hour) }})
		abandon := func(k sessions.Key) {
			for range sessions.AutoMovesToAbandon {
				f.clk.Add(time.Hour)
				f.s.Tick(ctx)
				f.s.Settle(ctx, k)
				if snap, err := f.s.Look(ctx, k); err == nil {
					must(t)(f.s.Move(ctx, sessions.Request{Key: k, User: snap.Player(snap.Turn())}, "1"))
				}
			}
		}
		// Early: not rated, but alice, who abandoned, loses 20.
		k := f.play(t, alice, bob, 1000, 4)
		abandon(k)
		f.expect(t, alice, sessions.AllTime, 980, 0)
		f.expect(t, alice, sessions.Month(f.clk.Now()), 980, 0)
		f.expect(t, bob, sessions.AllTime, 1000, 0)
		// After bob's 11th move: rated; alice loses the game and 20 more.
		// 980 against 1000: 30 x (1 - 1/(1+10^(-20/400))) = 14.1, so 14.
		k = f.play(t, alice, bob, 1000, 22)
		abandon(k)
		f.expect(t, bob, sessions.AllTime, 1014, 1)
		f.expect(t, alice, sessions.AllTime, 980-14-20, 1)
	})
}

// TestRatingWithTheLastMove: when the last move's commit fails, neither
// the game nor a rating changes; the retry stores both.
func TestRatingWithTheLastMove(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	f := newRatingFixture(t, store)
	k := f.play(t, alice, bob, 44, 21)
	store.Fail = func(c *sessions.Change) error { return errors.New("disk full") }
	if _, err := f.s.Move(ctx, sessions.Request{Key: k, User: bob}, "2"); !errors.Is(err, sessions.ErrStorage) {
		t.Fatalf("want a storage error, got %v", err)
	}
	f.expect(t, bob, sessions.AllTime, 1000, 0)
	if snap, err := f.s.Look(ctx, k); err != nil || snap.State.FEN() != "42:1" {
		t.Fatalf("the game after the failed commit: %v", err)
	}
	store.Fail = nil
	ev := must(t)(f.s.Move(ctx, sessions.Request{Key: k, User: bob}, "2"))
	if !ev.Ended() || len(ev.Session.Record.Ratings) != 2 || ev.Session.Record.Ratings[1].After != 1015 {
		t.Fatalf("the last move's event: %+v", ev.Session.Record)
	}
	f.expect(t, bob, sessions.AllTime, 1015, 1)
}

func TestLadder(t *testing.T) {
	stores(t, func(t *testing.T, store sessions.Store) {
		f := newRatingFixture(t, store)
		f.play(t, alice, bob, 44, 100)  // bob 1015, alice 985
		f.play(t, carol, dave, 44, 100) // dave 1015, carol 985
		l, err := f.s.Top(ctx, sessions.TopQuery{Platform: "test", Game: "count", Period: sessions.AllTime, Limit: 3, User: carol.ID})
		if err != nil {
			t.Fatal(err)
		}
		if l.Players != 4 || len(l.Rows) != 3 || l.Rows[0].Rating != 1015 || l.Rows[1].Rating != 1015 || l.Rows[2].Rating != 985 {
			t.Fatalf("ladder %+v", l)
		}
		if l.Me == nil || l.Place != 3 || l.Me.User.ID != carol.ID {
			t.Fatalf("carol's place %d (%+v), want 3 (two above her, alice level)", l.Place, l.Me)
		}
		l, _ = f.s.Top(ctx, sessions.TopQuery{Platform: "test", Game: "count", Period: sessions.AllTime, Limit: 10, User: "nobody"})
		if l.Me != nil || l.Place != 0 || len(l.Rows) != 4 {
			t.Fatalf("an unrated player's ladder: %+v", l)
		}
		u, ok, err := f.s.FindUser(ctx, "test", "@CAROL")
		if err != nil || !ok || u.ID != carol.ID {
			t.Fatalf("FindUser: %+v %v %v", u, ok, err)
		}
	})
}

func must2[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
