package sessions_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

var (
	key   = sessions.Key{Platform: "test", Channel: "c1"}
	alice = sessions.User{ID: "a", Name: "alice"}
	bob   = sessions.User{ID: "b", Name: "bob"}
	carol = sessions.User{ID: "c", Name: "carol"}
	dave  = sessions.User{ID: "d", Name: "dave"}
	ctx   = context.Background()
)

func newService(store sessions.Store) *sessions.Service {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return sessions.New(sessions.Config{
		Store: store,
		Games: sessionstest.Games,
		Now:   func() time.Time { return t0 },
		Rand:  func(n int) int { return 0 },
	})
}

func req(u sessions.User) sessions.Request { return sessions.Request{Key: key, User: u} }

func must(t *testing.T) func(sessions.Event, error) sessions.Event {
	t.Helper()
	return func(ev sessions.Event, err error) sessions.Event {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return ev
	}
}

func challenge(t *testing.T, s *sessions.Service, by sessions.User, opts map[string]string, invited ...sessions.User) {
	t.Helper()
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	ev, err := s.Challenge(ctx, req(by), sessions.ChallengeSpec{Game: "count", Options: opts, Invited: invited, Play: p})
	must(t)(ev, err)
}

// setups build each state a session can be in; in every game state alice
// holds White (seat 0) and bob Black.
var setups = map[string]func(t *testing.T, s *sessions.Service){
	"none":      func(t *testing.T, s *sessions.Service) {},
	"challenge": func(t *testing.T, s *sessions.Service) { challenge(t, s, alice, nil, bob) },
	"open":      func(t *testing.T, s *sessions.Service) { challenge(t, s, alice, nil) },
	"playing": func(t *testing.T, s *sessions.Service) {
		challenge(t, s, alice, nil, bob)
		must(t)(s.Accept(ctx, req(bob)))
	},
	"drawoffer": func(t *testing.T, s *sessions.Service) {
		challenge(t, s, alice, nil, bob)
		must(t)(s.Accept(ctx, req(bob)))
		must(t)(s.Draw(ctx, req(alice)))
	},
	"formation": func(t *testing.T, s *sessions.Service) {
		challenge(t, s, alice, map[string]string{"form": "yes"}, bob)
		must(t)(s.Accept(ctx, req(bob)))
	},
	"huff": func(t *testing.T, s *sessions.Service) { // bob to move and may huff
		challenge(t, s, alice, map[string]string{"huff": "yes"}, bob)
		must(t)(s.Accept(ctx, req(bob)))
		must(t)(s.Move(ctx, req(alice), "1"))
	},
}

// commands are every state change, with valid arguments.
var commands = map[string]func(s *sessions.Service, u sessions.User) (sessions.Event, error){
	"play": func(s *sessions.Service, u sessions.User) (sessions.Event, error) {
		return s.Challenge(ctx, req(u), sessions.ChallengeSpec{Game: "count", Play: sessions.DefaultPlayOptions()})
	},
	"accept":  func(s *sessions.Service, u sessions.User) (sessions.Event, error) { return s.Accept(ctx, req(u)) },
	"decline": func(s *sessions.Service, u sessions.User) (sessions.Event, error) { return s.Decline(ctx, req(u)) },
	"cancel":  func(s *sessions.Service, u sessions.User) (sessions.Event, error) { return s.Cancel(ctx, req(u)) },
	"setup": func(s *sessions.Service, u sessions.User) (sessions.Event, error) {
		return s.Setup(ctx, req(u), "default")
	},
	"move":   func(s *sessions.Service, u sessions.User) (sessions.Event, error) { return s.Move(ctx, req(u), "1") },
	"huff":   func(s *sessions.Service, u sessions.User) (sessions.Event, error) { return s.Huff(ctx, req(u), "a1") },
	"draw":   func(s *sessions.Service, u sessions.User) (sessions.Event, error) { return s.Draw(ctx, req(u)) },
	"resign": func(s *sessions.Service, u sessions.User) (sessions.Event, error) { return s.Resign(ctx, req(u)) },
}

var outcomes = map[string]any{
	"Challenged": sessions.EvChallenged, "Started": sessions.EvStarted, "Declined": sessions.EvDeclined,
	"Cancelled": sessions.EvCancelled, "Formed": sessions.EvFormed, "Moved": sessions.EvMoved,
	"Huffed": sessions.EvHuffed, "DrawOffered": sessions.EvDrawOffered, "DrawDeclined": sessions.EvDrawDeclined,
	"DrawAgreed": sessions.EvDrawAgreed, "Resigned": sessions.EvResigned,

	"NoGame": sessions.ErrNoGame, "NotStarted": sessions.ErrNotStarted, "GameRunning": sessions.ErrGameRunning,
	"NoChallenge": sessions.ErrNoChallenge, "NotInvited": sessions.ErrNotInvited, "AlreadyJoined": sessions.ErrAlreadyJoined,
	"NotPlayer": sessions.ErrNotPlayer, "NotChallenger": sessions.ErrNotChallenger, "NotYourTurn": sessions.ErrNotYourTurn,
	"NotNow": sessions.ErrNotNow, "AlreadyOffered": sessions.ErrAlreadyOffered,
}

// phaseAfter is the phase a successful event leaves the session in.
var phaseAfter = map[sessions.EventKind]sessions.Phase{
	sessions.EvChallenged: sessions.PhaseChallenge, sessions.EvStarted: sessions.PhasePlaying,
	sessions.EvDeclined: sessions.PhaseNone, sessions.EvCancelled: sessions.PhaseNone,
	sessions.EvFormed: sessions.PhasePlaying, sessions.EvMoved: sessions.PhasePlaying,
	sessions.EvHuffed: sessions.PhasePlaying, sessions.EvDrawOffered: sessions.PhasePlaying,
	sessions.EvDrawDeclined: sessions.PhasePlaying, sessions.EvDrawAgreed: sessions.PhaseNone,
	sessions.EvResigned: sessions.PhaseNone,
}

// TestStateMachine runs every command in every state by alice (the
// challenger, White), bob (the invited opponent, Black) and carol (a stranger).
func TestStateMachine(t *testing.T) {
	table := map[string]map[string][3]string{
		"none": {
			"play": {"Challenged", "Challenged", "Challenged"}, "accept": {"NoChallenge", "NoChallenge", "NoChallenge"},
			"decline": {"NoChallenge", "NoChallenge", "NoChallenge"}, "cancel": {"NoChallenge", "NoChallenge", "NoChallenge"},
			"setup": {"NoGame", "NoGame", "NoGame"}, "move": {"NoGame", "NoGame", "NoGame"}, "huff": {"NoGame", "NoGame", "NoGame"},
			"draw": {"NoGame", "NoGame", "NoGame"}, "resign": {"NoGame", "NoGame", "NoGame"},
		},
		"challenge": {
			"play": {"GameRunning", "GameRunning", "GameRunning"}, "accept": {"AlreadyJoined", "Started", "NotInvited"},
			"decline": {"NotInvited", "Declined", "NotInvited"}, "cancel": {"Cancelled", "NotChallenger", "NotChallenger"},
			"setup": {"NotStarted", "NotStarted", "NotStarted"}, "move": {"NotStarted", "NotStarted", "NotStarted"},
			"huff": {"NotStarted", "NotStarted", "NotStarted"}, "draw": {"NotStarted", "NotStarted", "NotStarted"},
			"resign": {"NotStarted", "NotStarted", "NotStarted"},
		},
		"open": {
			"play": {"GameRunning", "GameRunning", "GameRunning"}, "accept": {"AlreadyJoined", "Started", "Started"},
			"decline": {"NotInvited", "NotInvited", "NotInvited"}, "cancel": {"Cancelled", "NotChallenger", "NotChallenger"},
			"setup": {"NotStarted", "NotStarted", "NotStarted"}, "move": {"NotStarted", "NotStarted", "NotStarted"},
			"huff": {"NotStarted", "NotStarted", "NotStarted"}, "draw": {"NotStarted", "NotStarted", "NotStarted"},
			"resign": {"NotStarted", "NotStarted", "NotStarted"},
		},
		"playing": {
			"play": {"GameRunning", "GameRunning", "GameRunning"}, "accept": {"NoChallenge", "NoChallenge", "NoChallenge"},
			"decline": {"NoChallenge", "NoChallenge", "NoChallenge"}, "cancel": {"GameRunning", "GameRunning", "GameRunning"},
			"setup": {"NotNow", "NotNow", "NotPlayer"}, "move": {"Moved", "NotYourTurn", "NotPlayer"},
			"huff": {"NotNow", "NotYourTurn", "NotPlayer"}, "draw": {"DrawOffered", "DrawOffered", "NotPlayer"},
			"resign": {"Resigned", "Resigned", "NotPlayer"},
		},
		"drawoffer": {
			"play": {"GameRunning", "GameRunning", "GameRunning"}, "accept": {"AlreadyOffered", "DrawAgreed", "NoChallenge"},
			"decline": {"DrawDeclined", "DrawDeclined", "NoChallenge"}, "cancel": {"GameRunning", "GameRunning", "GameRunning"},
			"setup": {"NotNow", "NotNow", "NotPlayer"}, "move": {"Moved", "NotYourTurn", "NotPlayer"},
			"huff": {"NotNow", "NotYourTurn", "NotPlayer"}, "draw": {"AlreadyOffered", "DrawAgreed", "NotPlayer"},
			"resign": {"Resigned", "Resigned", "NotPlayer"},
		},
		"formation": {
			"play": {"GameRunning", "GameRunning", "GameRunning"}, "accept": {"NoChallenge", "NoChallenge", "NoChallenge"},
			"decline": {"NoChallenge", "NoChallenge", "NoChallenge"}, "cancel": {"GameRunning", "GameRunning", "GameRunning"},
			"setup": {"Formed", "Formed", "NotPlayer"}, "move": {"NotNow", "NotNow", "NotPlayer"},
			"huff": {"NotNow", "NotNow", "NotPlayer"}, "draw": {"DrawOffered", "DrawOffered", "NotPlayer"},
			"resign": {"Resigned", "Resigned", "NotPlayer"},
		},
		"huff": {
			"play": {"GameRunning", "GameRunning", "GameRunning"}, "accept": {"NoChallenge", "NoChallenge", "NoChallenge"},
			"decline": {"NoChallenge", "NoChallenge", "NoChallenge"}, "cancel": {"GameRunning", "GameRunning", "GameRunning"},
			"setup": {"NotNow", "NotNow", "NotPlayer"}, "move": {"NotYourTurn", "Moved", "NotPlayer"},
			"huff": {"NotYourTurn", "Huffed", "NotPlayer"}, "draw": {"DrawOffered", "DrawOffered", "NotPlayer"},
			"resign": {"Resigned", "Resigned", "NotPlayer"},
		},
	}
	users := []sessions.User{alice, bob, carol}
	for state, row := range table {
		if len(row) != len(commands) {
			t.Fatalf("state %s: %d commands in the table, want %d", state, len(row), len(commands))
		}
		for cmd, want := range row {
			for i, u := range users {
				t.Run(fmt.Sprintf("%s/%s/%s", state, cmd, u.Name), func(t *testing.T) {
					store := sessionstest.NewMemoryStore()
					s := newService(store)
					setups[state](t, s)
					before := dump(t, store)
					ev, err := commands[cmd](s, u)
					switch w := outcomes[want[i]].(type) {
					case sessions.EventKind:
						if err != nil {
							t.Fatalf("got error %v, want event %s", err, want[i])
						}
						if ev.Kind != w {
							t.Fatalf("got event %d, want %s", ev.Kind, want[i])
						}
						snap, err := s.Look(ctx, key)
						if got := snap.Phase(); got != phaseAfter[w] {
							t.Fatalf("after %s: phase %s (%v), want %s", want[i], got, err, phaseAfter[w])
						}
						if reopened := phaseOf(newService(store)); reopened != phaseAfter[w] {
							t.Fatalf("after %s: stored phase %s, want %s", want[i], reopened, phaseAfter[w])
						}
					case error:
						if !errors.Is(err, w) {
							t.Fatalf("got %v (event %d), want %s", err, ev.Kind, want[i])
						}
						if after := dump(t, store); after != before {
							t.Fatalf("the store changed on error:\nbefore %s\nafter  %s", before, after)
						}
					default:
						t.Fatalf("bad table entry %q", want[i])
					}
				})
			}
		}
	}
}

func phaseOf(s *sessions.Service) sessions.Phase {
	snap, _ := s.Look(ctx, key)
	return snap.Phase()
}

func dump(t *testing.T, store *sessionstest.MemoryStore) string {
	t.Helper()
	live, err := store.Live(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := store.History(ctx, sessions.HistoryQuery{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal([]any{live, hist})
	return string(b)
}

func TestWholeGameGoesToHistory(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	s := newService(store)
	challenge(t, s, alice, map[string]string{"target": "5"}, bob)
	ev := must(t)(s.Accept(ctx, req(bob)))
	if ev.Kind != sessions.EvStarted || ev.Session.Turn() != 0 {
		t.Fatalf("accept: kind %d turn %d, want started with White to move", ev.Kind, ev.Session.Turn())
	}
	for i, mv := range []struct {
		u    sessions.User
		text string
	}{{alice, "2"}, {bob, "2"}, {alice, "1"}} {
		ev = must(t)(s.Move(ctx, req(mv.u), mv.text))
		if ev.Move == nil || ev.Move.Text != mv.text {
			t.Fatalf("move %d: got %+v", i, ev.Move)
		}
	}
	if !ev.Ended() || ev.Session.Record.Result.Winner != 0 || ev.Session.Record.ID == "" {
		t.Fatalf("game should have ended with alice winning and an id; got %+v", ev.Session.Record.Result)
	}
	if _, err := s.Look(ctx, key); !errors.Is(err, sessions.ErrNoGame) {
		t.Fatalf("the session should be free after the game, got %v", err)
	}
	fin, err := store.Finished(ctx, ev.Session.Record.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(fin.Actions) != 3 || fin.Result.Reason != rules.TargetReached || fin.Result.FEN != "5:1" {
		t.Fatalf("finished record: %d actions, result %+v", len(fin.Actions), fin.Result)
	}
	for _, u := range []sessions.User{alice, bob} {
		h, err := store.History(ctx, sessions.HistoryQuery{Platform: "test", User: u.ID})
		if err != nil || len(h) != 1 || h[0].ID != fin.ID {
			t.Fatalf("history of %s: %v %v", u.Name, h, err)
		}
	}
	// The finished game replays to its final position.
	snap, err := s.Replay(fin)
	if err != nil || snap.State.FEN() != "5:1" || snap.Last.Text != "1" {
		t.Fatalf("replay: %v %v", snap, err)
	}
	// The channel is free for the next game.
	challenge(t, s, bob, nil, alice)
}

func TestRestartResumes(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	s := newService(store)
	challenge(t, s, alice, map[string]string{"form": "yes", "huff": "yes", "target": "20"}, bob)
	must(t)(s.Accept(ctx, req(bob)))
	must(t)(s.Setup(ctx, req(bob), "a1  b1"))
	must(t)(s.Setup(ctx, req(alice), "default"))
	must(t)(s.Move(ctx, req(alice), "1"))
	must(t)(s.Huff(ctx, req(bob), "a1"))
	must(t)(s.Move(ctx, req(bob), "2"))
	must(t)(s.Draw(ctx, req(alice)))
	before, _ := s.Look(ctx, key)

	s2 := newService(store)
	if n, err := s2.Resume(ctx); n != 1 || err != nil {
		t.Fatalf("resume: %d sessions, %v", n, err)
	}
	after, err := s2.Look(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if after.State.FEN() != before.State.FEN() || after.State.FEN() != "2:0" || after.Last.Text != "2" ||
		fmt.Sprint(after.Record.DrawOffer) != "[0]" {
		t.Fatalf("after restart: %s last %v offer %v; before: %s", after.State.FEN(), after.Last, after.Record.DrawOffer, before.State.FEN())
	}
	must(t)(s2.Draw(ctx, req(bob)))
	if _, err := s2.Look(ctx, key); !errors.Is(err, sessions.ErrNoGame) {
		t.Fatalf("draw agreed should end the game: %v", err)
	}
}

func TestFourPlayersFillSeats(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	s := newService(store)
	challenge(t, s, alice, map[string]string{"players": "4", "target": "6"}, dave)
	for _, u := range []sessions.User{bob, carol} {
		if ev := must(t)(s.Accept(ctx, req(u))); ev.Kind != sessions.EvJoined {
			t.Fatalf("%s: got %d, want joined", u.Name, ev.Kind)
		}
	}
	// The last seat is kept for dave, who was named.
	eve := sessions.User{ID: "e", Name: "eve"}
	if _, err := s.Accept(ctx, req(eve)); !errors.Is(err, sessions.ErrNotInvited) {
		t.Fatalf("eve: %v, want ErrNotInvited", err)
	}
	if _, err := s.Accept(ctx, req(bob)); !errors.Is(err, sessions.ErrAlreadyJoined) {
		t.Fatalf("bob again: %v", err)
	}
	ev := must(t)(s.Accept(ctx, req(dave)))
	if ev.Kind != sessions.EvStarted {
		t.Fatalf("dave: got %d, want started", ev.Kind)
	}
	order := []sessions.User{alice, bob, carol, dave, alice, bob}
	for i, u := range order {
		if _, err := s.Move(ctx, req(order[(i+1)%4]), "1"); !errors.Is(err, sessions.ErrNotYourTurn) {
			t.Fatalf("move %d out of turn: %v", i, err)
		}
		ev = must(t)(s.Move(ctx, req(u), "1"))
	}
	if !ev.Ended() || ev.Session.Record.Result.Winner != 1 {
		t.Fatalf("bob should have won: %+v", ev.Session.Record.Result)
	}
}

func TestFourPlayerResignEndsWithoutWinner(t *testing.T) {
	s := newService(sessionstest.NewMemoryStore())
	challenge(t, s, alice, map[string]string{"players": "3"})
	must(t)(s.Accept(ctx, req(bob)))
	must(t)(s.Accept(ctx, req(carol)))
	ev := must(t)(s.Resign(ctx, req(carol)))
	if r := ev.Session.Record.Result; r == nil || r.Winner != -1 || r.Reason != rules.Resigned || r.By != 2 {
		t.Fatalf("result %+v", r)
	}
}

func TestSelfPlay(t *testing.T) {
	s := newService(sessionstest.NewMemoryStore())
	challenge(t, s, alice, map[string]string{"target": "2"}, alice)
	must(t)(s.Accept(ctx, req(alice)))
	must(t)(s.Move(ctx, req(alice), "1"))
	ev := must(t)(s.Move(ctx, req(alice), "1"))
	if !ev.Ended() || ev.Session.Record.Result.Winner != 1 {
		t.Fatalf("self game: %+v", ev.Session.Record.Result)
	}
}

func TestBadChallenges(t *testing.T) {
	s := newService(sessionstest.NewMemoryStore())
	p := sessions.DefaultPlayOptions()
	for _, tc := range []struct {
		name string
		spec sessions.ChallengeSpec
		also error
	}{
		{"unknown game", sessions.ChallengeSpec{Game: "chess", Play: p}, rules.ErrBadOption},
		{"bad option", sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "x"}, Play: p}, rules.ErrBadOption},
		{"unknown option", sessions.ChallengeSpec{Game: "count", Options: map[string]string{"colour": "x"}, Play: p}, rules.ErrBadOption},
		{"too many", sessions.ChallengeSpec{Game: "count", Invited: []sessions.User{bob, carol}, Play: p}, nil},
		{"twice", sessions.ChallengeSpec{Game: "count", Options: map[string]string{"players": "3"}, Invited: []sessions.User{bob, {Name: "BOB"}}, Play: p}, nil},
	} {
		_, err := s.Challenge(ctx, req(alice), tc.spec)
		if !errors.Is(err, sessions.ErrBadOption) || (tc.also != nil && !errors.Is(err, tc.also)) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if _, err := s.Look(ctx, key); !errors.Is(err, sessions.ErrNoGame) {
		t.Fatalf("a bad challenge left a session: %v", err)
	}
}

func TestIllegalMoveWrapsRulesError(t *testing.T) {
	s := newService(sessionstest.NewMemoryStore())
	setups["playing"](t, s)
	_, err := s.Move(ctx, req(alice), "3")
	if !errors.Is(err, sessions.ErrIllegalMove) || !errors.Is(err, rules.ErrIllegal) {
		t.Fatalf("got %v", err)
	}
	var se *sessions.Error
	if !errors.As(err, &se) || se.Session == nil || se.Session.Turn() != 0 {
		t.Fatalf("the error should carry the session: %#v", err)
	}
	if _, err := s.Move(ctx, req(alice), "x"); !errors.Is(err, rules.ErrSyntax) {
		t.Fatalf("got %v", err)
	}
}

func TestCommitFailureChangesNothing(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	s := newService(store)
	setups["playing"](t, s)
	store.Fail = func(*sessions.Change) error { return errors.New("disk full") }
	if _, err := s.Move(ctx, req(alice), "2"); !errors.Is(err, sessions.ErrStorage) {
		t.Fatalf("got %v, want ErrStorage", err)
	}
	snap, _ := s.Look(ctx, key)
	if snap.State.FEN() != "0:0" || len(snap.Record.Actions) != 0 {
		t.Fatalf("memory changed after a failed commit: %s", snap.State.FEN())
	}
	store.Fail = nil
	ev := must(t)(s.Move(ctx, req(alice), "2"))
	if ev.Session.State.FEN() != "2:1" {
		t.Fatalf("after retry: %s", ev.Session.State.FEN())
	}
}

type notices struct {
	mu  sync.Mutex
	got []string
}

func (n *notices) Notify(ctx context.Context, no sessions.Notice) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got = append(n.got, fmt.Sprintf("%d:%s", no.Kind, no.To.Name))
}

func TestNotices(t *testing.T) {
	n := &notices{}
	s := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games, Notifier: n,
		Rand: func(int) int { return 0 }})
	challenge(t, s, alice, map[string]string{"target": "2"}, bob)
	must(t)(s.Accept(ctx, req(bob)))      // alice to move: notify alice
	must(t)(s.Move(ctx, req(alice), "1")) // notify bob
	must(t)(s.Move(ctx, req(bob), "1"))   // game over: notify alice
	want := fmt.Sprint([]string{"1:alice", "1:bob", "2:alice"})
	if fmt.Sprint(n.got) != want {
		t.Fatalf("notices %v, want %v", n.got, want)
	}
}

// TestBothPlayersAtOnce has alice and bob send moves at the same moment, many
// times: each move applies once, turns alternate, nothing is lost.
func TestBothPlayersAtOnce(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	s := newService(store)
	challenge(t, s, alice, map[string]string{"target": "1000"}, bob)
	must(t)(s.Accept(ctx, req(bob)))
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for _, u := range []sessions.User{alice, bob, carol} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				_, err := s.Move(ctx, req(u), "1")
				switch {
				case err == nil:
					mu.Lock()
					ok++
					mu.Unlock()
				case !errors.Is(err, sessions.ErrNotYourTurn) && !errors.Is(err, sessions.ErrNotPlayer):
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	snap, _ := newService(store).Look(ctx, key)
	if len(snap.Record.Actions) != ok || snap.State.FEN() != fmt.Sprintf("%d:%d", ok, ok%2) {
		t.Fatalf("%d moves acknowledged, %d stored, position %s", ok, len(snap.Record.Actions), snap.State.FEN())
	}
	for i, a := range snap.Record.Actions {
		if a.Seat != i%2 {
			t.Fatalf("action %d by seat %d", i, a.Seat)
		}
	}
}

// TestManySessions plays 40 games at once in different channels.
func TestManySessions(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	s := newService(store)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := sessions.Key{Platform: "test", Channel: fmt.Sprint("ch", i)}
			r := func(u sessions.User) sessions.Request { return sessions.Request{Key: k, User: u} }
			p := sessions.DefaultPlayOptions()
			p.Color = sessions.ColorWhite
			if _, err := s.Challenge(ctx, r(alice), sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "30"}, Invited: []sessions.User{bob}, Play: p}); err != nil {
				t.Error(err)
				return
			}
			if _, err := s.Accept(ctx, r(bob)); err != nil {
				t.Error(err)
				return
			}
			for m := 0; ; m++ {
				ev, err := s.Move(ctx, r([]sessions.User{alice, bob}[m%2]), "1")
				if err != nil {
					t.Error(err)
					return
				}
				if ev.Ended() {
					return
				}
			}
		}()
	}
	wg.Wait()
	h, err := store.History(ctx, sessions.HistoryQuery{Platform: "test", User: alice.ID})
	if err != nil || len(h) != 40 {
		t.Fatalf("%d finished games, want 40 (%v)", len(h), err)
	}
	for _, r := range h {
		if len(r.Actions) != 30 || r.Result.Winner != 1 {
			t.Fatalf("game %s: %d actions, winner %d", r.ID, len(r.Actions), r.Result.Winner)
		}
	}
}

func TestPlayOptions(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		ok         bool
		want       string
	}{
		{"time", "3d", true, "3d"}, {"time", "5m", true, "5m"}, {"time", "10m", true, "10m"}, {"time", "1h", true, "1h"}, {"time", "1d", true, "1d"}, {"time", "off", true, "off"},
		{"time", "24h", true, "1d"}, {"time", "OFF", true, "off"},
		{"time", "soon", false, ""}, {"time", "-5m", false, ""}, {"time", "0d", false, ""},
		// Only the offered times: a clock short enough to force the opponent
		// to abandon, or long enough never to run out, is refused.
		{"time", "1s", false, ""}, {"time", "1ns", false, ""}, {"time", "100000h", false, ""}, {"time", "90m", false, ""}, {"time", "2d", false, ""},
		{"color", "white", true, "white"}, {"color", "BLACK", true, "black"}, {"color", "green", false, ""},
		{"rated", "no", true, "false"}, {"rated", "maybe", false, ""},
		{"level", "5", true, "5"}, {"level", "6", false, ""}, {"level", "", false, ""},
	} {
		p := sessions.DefaultPlayOptions()
		known, err := p.Set(tc.key, tc.value)
		if !known || (err == nil) != tc.ok {
			t.Errorf("%s=%s: known %v err %v", tc.key, tc.value, known, err)
			continue
		}
		if err != nil {
			var bv *sessions.BadValue
			if !errors.Is(err, sessions.ErrBadOption) || !errors.As(err, &bv) || bv.Key != tc.key || len(bv.Choices) < 2 {
				t.Errorf("%s=%s: error %v, want ErrBadOption with the choices", tc.key, tc.value, err)
			}
			continue
		}
		got := map[string]string{"time": p.Time.String(), "color": string(p.Color), "rated": fmt.Sprint(p.Rated), "level": fmt.Sprint(p.Level)}[tc.key]
		if got != tc.want {
			t.Errorf("%s=%s: got %s, want %s", tc.key, tc.value, got, tc.want)
		}
	}
	p := sessions.DefaultPlayOptions()
	if known, _ := p.Set("size", "8"); known {
		t.Error("size is a game option, not a session option")
	}
}

// TestResumeSkipsBrokenSessions: a record that no longer replays (here, a
// move the rules refuse) does not stop the others from resuming; Resume
// loads no game, so the broken one answers ErrBroken when it is used.
func TestResumeSkipsBrokenSessions(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	s := newService(store)
	setups["playing"](t, s)
	other := sessions.Key{Platform: "test", Channel: "c2"}
	bad, _ := store.Load(ctx, key)
	bad.Key = other
	bad.Actions = append(bad.Actions, sessions.Action{Kind: sessions.ActMove, Seat: 0, Text: "7"})
	if err := store.Commit(ctx, &sessions.Change{Key: other, Live: bad}); err != nil {
		t.Fatal(err)
	}
	s2 := newService(store)
	if n, err := s2.Resume(ctx); n != 2 || err != nil {
		t.Fatalf("resume: %d, %v; want 2 sessions", n, err)
	}
	if _, err := s2.Look(ctx, other); !errors.Is(err, sessions.ErrBroken) {
		t.Fatalf("the broken session: %v", err)
	}
	must(t)(s2.Move(ctx, req(alice), "1"))
}
