package sessions_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

var (
	byName   = map[string]sessions.User{"alice": alice, "bob": bob, "carol": carol, "dave": dave}
	errKinds = map[string]error{"NotPlayer": sessions.ErrNotPlayer, "NoChallenge": sessions.ErrNoChallenge,
		"NoTakeback": sessions.ErrNoTakeback}
)

// fourPlayers starts count for four with retiring (alice, bob, carol,
// dave in seats 0 to 3; alice moves first) on a service with notices.
func fourPlayers(t *testing.T, store sessions.Store, n sessions.Notifier) *sessions.Service {
	t.Helper()
	s := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Notifier: n,
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }, Rand: func(int) int { return 0 }})
	challenge(t, s, alice, map[string]string{"players": "4", "retire": "yes", "target": "1000"}, bob, carol, dave)
	for _, u := range []sessions.User{bob, carol, dave} {
		must(t)(s.Accept(ctx, req(u)))
	}
	return s
}

// TestLeaveFourPlayerGame: in a game of four whose rules let a player
// leave, /resign takes the player out and the others play on.
func TestLeaveFourPlayerGame(t *testing.T) {
	for _, tc := range []struct {
		name string
		// steps are "user command" (move, resign, draw, accept, takeback),
		// with " !Kind" when it must fail with that error, or "restart".
		steps  []string
		turn   string // who is to move after, "" when the game is over
		left   string // the seats that have left
		result string // "" while the game goes on, else "winner N: reason" or "draw: reason"
		pings  string // the notices of the last step ("kind:to")
	}{
		{name: "resign by the player to move", steps: []string{"alice resign"},
			turn: "bob", left: "0", pings: "turn:bob"},
		{name: "resign by another player", steps: []string{"carol resign"},
			turn: "alice", left: "2", pings: ""},
		{name: "the turn skips who left", steps: []string{"carol resign", "alice move", "bob move"},
			turn: "dave", left: "2", pings: "turn:dave"},
		{name: "who left may not play", steps: []string{"alice resign", "bob move", "carol move", "dave move",
			"alice move !NotPlayer", "alice draw !NotPlayer", "alice resign !NotPlayer", "alice takeback !NotPlayer", "alice accept !NoChallenge"},
			turn: "bob", left: "0"},
		{name: "a draw needs the players still in", steps: []string{"carol resign", "alice draw", "bob draw", "dave draw"},
			result: "draw: draw-agreed", left: "2", pings: "over:alice over:bob over:carol"},
		{name: "leaving clears the draw offer", steps: []string{"alice draw", "carol resign", "bob accept !NoChallenge", "carol draw !NotPlayer"},
			turn: "alice", left: "2", pings: ""},
		{name: "the last one left wins", steps: []string{"bob resign", "alice move", "carol resign", "dave move", "alice resign"},
			result: "winner 3: others-left", left: "0 1 2", pings: "over:bob over:carol over:dave"},
		{name: "no takeback across a retirement", steps: []string{"alice move", "carol resign", "alice takeback !NoTakeback"},
			turn: "bob", left: "2"},
		{name: "restart after a retirement", steps: []string{"alice move", "bob resign", "restart", "carol move", "bob move !NotPlayer", "dave move"},
			turn: "alice", left: "1", pings: "turn:alice"},
		{name: "restart, then the last leaves", steps: []string{"dave resign", "bob resign", "restart", "alice resign"},
			result: "winner 2: others-left", left: "0 1 3", pings: "over:bob over:carol over:dave"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := sessionstest.NewMemoryStore()
			n := &noticeLog{}
			s := fourPlayers(t, store, n)
			var ev sessions.Event
			for _, step := range tc.steps {
				n.take()
				if step == "restart" {
					s = sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Notifier: n,
						Rand: func(int) int { return 0 }})
					if k, err := s.Resume(ctx); k != 1 || err != nil {
						t.Fatalf("resume: %d sessions, %v", k, err)
					}
					continue
				}
				f := strings.Fields(step)
				u := byName[f[0]]
				var e sessions.Event
				var err error
				switch f[1] {
				case "move":
					e, err = s.Move(ctx, req(u), "1")
				case "resign":
					e, err = s.Resign(ctx, req(u))
				case "draw":
					e, err = s.Draw(ctx, req(u))
				case "accept":
					e, err = s.Accept(ctx, req(u))
				case "takeback":
					e, err = s.Takeback(ctx, req(u))
				}
				if len(f) == 3 {
					want := errKinds[strings.TrimPrefix(f[2], "!")]
					if want == nil || !errors.Is(err, want) {
						t.Fatalf("%s: %v, want %s", step, err, f[2])
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", step, err)
				}
				ev = e
				if f[1] == "resign" && ev.Kind != sessions.EvResigned {
					t.Fatalf("%s: event %d, want EvResigned", step, ev.Kind)
				}
			}
			pings := n.take()
			snap := ev.Session
			if snap == nil {
				t.Fatal("no event")
			}
			var left []string
			for seat := range snap.Record.Seats {
				if snap.Record.Retired(seat) {
					left = append(left, fmt.Sprint(seat))
				}
			}
			if got := strings.Join(left, " "); got != tc.left {
				t.Errorf("seats that left: %q, want %q", got, tc.left)
			}
			if tc.result == "" {
				if ev.Ended() {
					t.Fatalf("the game ended: %+v", snap.Record.Result)
				}
				live, err := s.Look(ctx, key)
				if err != nil {
					t.Fatal(err)
				}
				if got := live.Player(live.Turn()).Name; got != tc.turn {
					t.Errorf("to move: %s, want %s", got, tc.turn)
				}
			} else {
				r := snap.Record.Result
				got := "draw: "
				if r == nil {
					t.Fatal("the game goes on")
				}
				if r.Winner >= 0 {
					got = fmt.Sprintf("winner %d: ", r.Winner)
				}
				if got += string(r.Reason); got != tc.result {
					t.Errorf("result %q, want %q", got, tc.result)
				}
				if _, err := s.Look(ctx, key); !errors.Is(err, sessions.ErrNoGame) {
					t.Errorf("after the end: %v, want ErrNoGame", err)
				}
				hist, _ := s.History(ctx, sessions.HistoryQuery{Key: key})
				if len(hist) != 1 || len(hist[0].Ratings) != 0 {
					t.Errorf("history %v: want the game, not rated", hist)
				}
				if back, err := s.Replay(hist[0]); err != nil || back.State.Outcome().Over != (r.Winner >= 0) {
					t.Errorf("the finished game replays to %v, %v", back, err)
				}
			}
			if pings != tc.pings {
				t.Errorf("notices %q, want %q", pings, tc.pings)
			}
		})
	}
}

// TestResignWithoutRetiring: the game ends as before when the rules have
// no retiring, or when only the computer would play on.
func TestResignWithoutRetiring(t *testing.T) {
	s := newService(sessionstest.NewMemoryStore())
	challenge(t, s, alice, map[string]string{"players": "4", "target": "1000"}, bob, carol, dave)
	for _, u := range []sessions.User{bob, carol, dave} {
		must(t)(s.Accept(ctx, req(u)))
	}
	ev := must(t)(s.Resign(ctx, req(bob)))
	if r := ev.Session.Record.Result; r == nil || r.Winner != -1 || r.Reason != rules.Resigned || r.By != 1 {
		t.Fatalf("count without retire: result %+v, want the end with no winner", r)
	}

	f := newClockFixture(t)
	botGame(t, f.s, sessions.ColorWhite, map[string]string{"players": "4", "retire": "yes", "target": "1000"})
	ev = must(t)(f.s.Resign(ctx, req(alice)))
	if r := ev.Session.Record.Result; r == nil || r.Winner != -1 || len(ev.Session.Record.Actions) != 0 {
		t.Fatalf("alone against the computer: result %+v, actions %v; want the end", r, ev.Session.Record.Actions)
	}
}

// TestAbandonFourPlayerGame: three moves in a row by the clock take the
// player out of a four-player game; the others play on, and when the
// last of the others abandons, the one left wins.
func TestAbandonFourPlayerGame(t *testing.T) {
	f := newClockFixture(t)
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	must(t)(f.s.Challenge(ctx, req(alice), sessions.ChallengeSpec{Game: "count",
		Options: map[string]string{"players": "4", "retire": "yes", "target": "1000"}, Invited: []sessions.User{bob, carol, dave}, Play: p}))
	for _, u := range []sessions.User{bob, carol, dave} {
		must(t)(f.s.Accept(ctx, req(u)))
	}
	must(t)(f.s.Resign(ctx, req(carol)))
	f.n.take()
	// alice lets the clock move for her three times; bob and dave play.
	for i := 1; i <= 3; i++ {
		f.clk.Add(time.Hour)
		f.tick(t)
		if i < 3 {
			must(t)(f.s.Move(ctx, req(bob), "1"))
			must(t)(f.s.Move(ctx, req(dave), "1"))
		}
	}
	if got := f.n.take(); !strings.HasSuffix(got, "moved(auto):# turn:bob") {
		t.Fatalf("notices %q, want the clock's move and bob's turn", got)
	}
	snap := f.look(t)
	acts := snap.Record.Actions
	if last := acts[len(acts)-1]; last.Kind != sessions.ActRetire || last.Seat != 0 || last.Text != "abandoned" {
		t.Fatalf("last action %+v, want alice's retirement", last)
	}
	if snap.Record.Result != nil || snap.Player(snap.Turn()).Name != "bob" || snap.Record.Deadline.IsZero() {
		t.Fatalf("result %+v, turn %d, deadline %v: want bob to move on the clock", snap.Record.Result, snap.Turn(), snap.Record.Deadline)
	}
	if _, err := f.s.Move(ctx, req(alice), "1"); !errors.Is(err, sessions.ErrNotPlayer) {
		t.Fatalf("alice moves after abandoning: %v", err)
	}
	// bob and dave are left; dave abandons: bob wins.
	must(t)(f.s.Move(ctx, req(bob), "1"))
	for i := 1; i <= 3; i++ {
		f.clk.Add(time.Hour)
		f.tick(t)
		if i < 3 {
			must(t)(f.s.Move(ctx, req(bob), "1"))
		}
	}
	if _, err := f.s.Look(ctx, key); !errors.Is(err, sessions.ErrNoGame) {
		t.Fatalf("the game still runs: %v", err)
	}
	res := f.n.last().Session.Record.Result
	if res == nil || res.Winner != 1 || res.Reason != rules.OthersLeft || !res.Abandoned {
		t.Fatalf("result %+v, want bob's win when the others left", res)
	}
}

// TestHalmaFourPlayersLeave plays four-player Halma: carol resigns, the
// game goes on without her pieces, survives a restart, and ends when the
// third player leaves.
func TestHalmaFourPlayersLeave(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	newSvc := func() *sessions.Service {
		return sessions.New(sessions.Config{Store: store, Games: games.New, Rand: func(int) int { return 0 },
			Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }})
	}
	s := newSvc()
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	must(t)(s.Challenge(ctx, req(alice), sessions.ChallengeSpec{Game: "halma",
		Options: map[string]string{"players": "4"}, Invited: []sessions.User{bob, carol, dave}, Play: p}))
	for _, u := range []sessions.User{bob, carol, dave} {
		must(t)(s.Accept(ctx, req(u)))
	}
	must(t)(s.Move(ctx, req(alice), "d2-e3"))
	must(t)(s.Move(ctx, req(bob), "d15-e14"))
	ev := must(t)(s.Resign(ctx, req(carol))) // carol (top-right) was to move
	fen := ev.Session.State.FEN()
	if ev.Ended() || !strings.Contains(fen, "b13::p1") || !strings.HasPrefix(fen, "16:4:4:") {
		t.Fatalf("after carol left: %s (ended %v), want her field empty and dave to move", fen, ev.Ended())
	}
	must(t)(s.Move(ctx, req(dave), "m2-l3"))

	s = newSvc() // a restart replays the retirement
	snap, err := s.Look(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.FEN() == fen || !strings.Contains(snap.State.FEN(), "::") || snap.Player(snap.Turn()).Name != "alice" {
		t.Fatalf("after restart: %s, %s to move", snap.State.FEN(), snap.Player(snap.Turn()).Name)
	}
	must(t)(s.Move(ctx, req(alice), "e3-f4"))
	must(t)(s.Resign(ctx, req(dave)))
	ev = must(t)(s.Resign(ctx, req(bob))) // bob was to move; alice is left
	if r := ev.Session.Record.Result; r == nil || r.Winner != 0 || r.Reason != rules.OthersLeft || len(ev.Session.Record.Ratings) != 0 {
		t.Fatalf("result %+v, ratings %v; want alice's win, unrated", r, ev.Session.Record.Ratings)
	}
	hist, _ := s.History(ctx, sessions.HistoryQuery{Key: key})
	back, err := s.Replay(hist[0])
	if err != nil || back.State.Outcome().Winner != 0 || back.State.FEN() != ev.Session.State.FEN() {
		t.Fatalf("replay: %v, %v", back, err)
	}
}
