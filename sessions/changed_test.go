package sessions_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// changes records what Config.Changed reports.
type changes struct {
	mu  sync.Mutex
	got []change
}

type change struct {
	key     sessions.Key
	version int // -1: the session is gone
	ended   bool
	id      string
}

func (c *changes) add(key sessions.Key, s *sessions.Snapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := change{key: key, version: -1}
	if s != nil {
		ch.version, ch.ended, ch.id = s.Record.Version, s.Record.Result != nil, s.Record.ID
	}
	c.got = append(c.got, ch)
}

func (c *changes) list() []change {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]change(nil), c.got...)
}

// TestChangedHook: every committed change reports the session after it to
// Config.Changed (the web board's live pages), the end of a game with its
// result and id, a removed challenge as gone; a refused command reports
// nothing.
func TestChangedHook(t *testing.T) {
	var got changes
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games,
		Now: func() time.Time { return t0 }, Rand: func(n int) int { return 0 }, Changed: got.add})
	defer s.Close()
	challenge(t, s, alice, map[string]string{"target": "3"}, bob)
	must(t)(s.Accept(ctx, req(bob)))
	must(t)(s.Move(ctx, req(alice), "1"))
	if _, err := s.Move(ctx, req(alice), "1"); err == nil {
		t.Fatal("alice moved out of turn")
	}
	must(t)(s.Move(ctx, req(bob), "2")) // 3: bob reaches the target
	want := []change{{key, 1, false, ""}, {key, 2, false, ""}, {key, 3, false, ""}, {key, 4, true, "1"}}
	if g := got.list(); len(g) != len(want) {
		t.Fatalf("Changed saw %v, want %v", g, want)
	}
	for i, g := range got.list() {
		if g != want[i] {
			t.Errorf("change %d: %+v, want %+v", i, g, want[i])
		}
	}
	challenge(t, s, alice, nil, bob)
	must(t)(s.Decline(ctx, req(bob)))
	if g := got.list(); len(g) != 6 || g[5] != (change{key, -1, false, ""}) {
		t.Fatalf("a declined challenge: Changed saw %+v, want the session gone last", g)
	}
}

// elsewhere keeps the notices of kind NoticeEvent.
type elsewhere struct {
	mu  sync.Mutex
	got []sessions.Notice
}

func (e *elsewhere) Notify(ctx context.Context, n sessions.Notice) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if n.Kind == sessions.NoticeEvent {
		e.got = append(e.got, n)
	}
}

// TestElsewhereNotice: a change requested away from the session's channel
// (the web board) is posted there as a NoticeEvent carrying the event; the
// same change made in the channel is not (its reply shows it).
func TestElsewhereNotice(t *testing.T) {
	var n elsewhere
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games, Notifier: &n,
		Now: func() time.Time { return t0 }, Rand: func(n int) int { return 0 }})
	defer s.Close()
	challenge(t, s, alice, nil, bob)
	must(t)(s.Accept(ctx, req(bob)))
	must(t)(s.Move(ctx, req(alice), "1"))
	if len(n.got) != 0 {
		t.Fatalf("a move typed in the channel sent %d NoticeEvent", len(n.got))
	}
	web := req(bob)
	web.Elsewhere = true
	must(t)(s.Move(ctx, web, "2"))
	if len(n.got) != 1 {
		t.Fatalf("a move made elsewhere sent %d NoticeEvent, want 1", len(n.got))
	}
	got := n.got[0]
	if got.Key != key || got.Event == nil || got.Event.Kind != sessions.EvMoved || got.Event.Move == nil || got.Event.Move.Text != "2" ||
		!got.Event.By.Is(bob) || got.Session == nil || got.Session.Turn() != 0 {
		t.Fatalf("NoticeEvent %+v (event %+v): want bob's move 2 at %v with alice to move", got, got.Event, key)
	}
	if _, err := s.Move(ctx, web, "1"); err == nil {
		t.Fatal("bob moved out of turn")
	}
	if len(n.got) != 1 {
		t.Fatalf("a refused request sent a NoticeEvent")
	}
}

// TestRequestForOneGame: a request naming its game (Request.Game, as the
// web board's links do) is refused at a key that holds another game now,
// or none; the game it names takes it.
func TestRequestForOneGame(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games,
		Now: func() time.Time { return now }, Rand: func(n int) int { return 0 }})
	defer s.Close()
	challenge(t, s, alice, map[string]string{"target": "2"}, bob)
	first := must(t)(s.Accept(ctx, req(bob))).Session.Record.Created
	r := req(alice)
	r.Game = first
	must(t)(s.Move(ctx, r, "2")) // alice wins the first game
	now = now.Add(time.Second)
	challenge(t, s, alice, nil, bob)
	must(t)(s.Accept(ctx, req(bob)))
	_, err := s.Move(ctx, r, "1")
	if !errors.Is(err, sessions.ErrNoGame) {
		t.Fatalf("a move for the first game, in the second: %v, want ErrNoGame", err)
	}
	if snap, _ := s.Look(ctx, key); len(snap.Record.Actions) != 0 {
		t.Fatalf("the second game has %d actions, want none", len(snap.Record.Actions))
	}
	r.Game = now
	must(t)(s.Move(ctx, r, "1"))
}
