package sessions_test

import (
	"sync/atomic"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// savingGame is the count game as a rules.Restorer whose states are
// rules.Savers (the snapshot is the FEN, which holds all of count's
// state), counting its restores.
type savingGame struct {
	rules.Game
	restored *atomic.Int32
}

func (g savingGame) Start(first int) rules.State { return savingState{g.Game.Start(first)} }

func (g savingGame) Load(fen string) (rules.State, error) {
	st, err := g.Game.Load(fen)
	if err != nil {
		return nil, err
	}
	return savingState{st}, nil
}

func (g savingGame) Restore(b []byte) (rules.State, error) {
	g.restored.Add(1)
	st, err := g.Load(string(b))
	if err != nil {
		return nil, &rules.Error{Kind: rules.ErrBadSnapshot, Msg: err.Error()}
	}
	return st, nil
}

type savingState struct{ rules.State }

func (s savingState) Save() []byte { return []byte(s.FEN()) }

func (s savingState) Play(text string) (rules.State, rules.Move, error) {
	next, m, err := s.State.Play(text)
	if err != nil {
		return nil, m, err
	}
	return savingState{next}, m, nil
}

// TestLoadFromSnapshot: a session of a game that saves its state loads
// from the snapshot in its record (the state before its last move) and
// plays its last move, without replaying from the start: the same
// position, last move and play as the replayed one. A snapshot that does
// not restore falls back to the replay. A finished game keeps none.
func TestLoadFromSnapshot(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	var restored atomic.Int32
	games := func(id string, opts map[string]string) (rules.Game, error) {
		g, err := sessionstest.Games(id, opts)
		return savingGame{g, &restored}, err
	}
	newSvc := func() *sessions.Service {
		return sessions.New(sessions.Config{Store: store, Games: games, Rand: func(int) int { return 0 }})
	}
	s := newSvc()
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	must(t)(s.Challenge(ctx, req(alice), sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "100"},
		Invited: []sessions.User{bob}, Play: p}))
	must(t)(s.Accept(ctx, req(bob)))
	var ev sessions.Event
	for i := range 7 {
		ev = must(t)(s.Move(ctx, req([]sessions.User{alice, bob}[i%2]), "2"))
	}
	want := ev.Session
	s.Close()
	rec, err := store.Load(ctx, key)
	if err != nil || rec.Snap == nil || rec.SnapAt != 6 {
		t.Fatalf("stored snapshot at %d (%q), %v; want the state after 6 actions", rec.SnapAt, rec.Snap, err)
	}

	s = newSvc()
	got, err := s.Look(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if restored.Load() != 1 || got.State.FEN() != want.State.FEN() || got.Last == nil || got.Last.Text != want.Last.Text {
		t.Fatalf("loaded with %d restores at %s (last %v); want one restore at %s (last %s)", restored.Load(), got.State.FEN(), got.Last, want.State.FEN(), want.Last.Text)
	}
	after := must(t)(s.Move(ctx, req(bob), "1")).Session.State.FEN()
	s.Close()

	rec, _ = store.Load(ctx, key)
	rec.Snap = []byte("garbage")
	if err := store.Commit(ctx, &sessions.Change{Key: key, Live: rec}); err != nil {
		t.Fatal(err)
	}
	s = newSvc()
	defer s.Close()
	got, err = s.Look(ctx, key)
	if err != nil || restored.Load() != 2 || got.State.FEN() != after || len(got.Record.Actions) != 8 {
		t.Fatalf("after a bad snapshot: %v, %v; want the replayed position %s", got, err, after)
	}
	ev = must(t)(s.Resign(ctx, req(alice)))
	fin, err := s.Game(ctx, "test", ev.Session.Record.ID)
	if err != nil || fin.Record.Snap != nil || len(fin.Record.Actions) != 8 {
		t.Fatalf("the finished game: %v, %v; want its 8 actions and no snapshot", fin, err)
	}
}
