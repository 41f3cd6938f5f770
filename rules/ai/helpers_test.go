package ai

import (
	"context"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
)

// newGame returns the registry's game id with options opts.
func newGame(t testing.TB, id string, opts map[string]string) rules.Game {
	t.Helper()
	g, err := games.New(id, opts)
	if err != nil {
		t.Fatalf("games.New(%q, %v): %v", id, opts, err)
	}
	return g
}

// load reads a position of game id.
func load(t testing.TB, id string, opts map[string]string, fen string) rules.State {
	t.Helper()
	s, err := newGame(t, id, opts).Load(fen)
	if err != nil {
		t.Fatalf("%s: Load(%q): %v", id, fen, err)
	}
	return s
}

// start returns the first position of a game, past any formation phase
// (both sides take the default formation).
func start(t testing.TB, g rules.Game, first int) rules.State {
	t.Helper()
	s := g.Start(first)
	for {
		f, ok := s.(rules.Former)
		if !ok || len(f.Pending()) == 0 {
			return s
		}
		var err error
		if s, err = f.Form(f.Pending()[0], "default"); err != nil {
			t.Fatalf("Form: %v", err)
		}
	}
}

// play plays text, which must be legal.
func play(t testing.TB, s rules.State, text string) rules.State {
	t.Helper()
	n, _, err := s.Play(text)
	if err != nil {
		t.Fatalf("Play(%q) in %s: %v", text, s.FEN(), err)
	}
	return n
}

// isLegal reports whether m is one of the moves s lists.
func isLegal(s rules.State, m rules.Move) bool {
	for _, l := range s.Moves() {
		if l.Text == m.Text {
			return true
		}
	}
	return false
}

// choose asks p for a move and checks that it is legal.
func choose(t testing.TB, p *Player, s rules.State, o Options) rules.Move {
	t.Helper()
	r, err := p.Search(context.Background(), s, o)
	if err != nil {
		t.Fatalf("Search(%s, %+v): %v", s.FEN(), o, err)
	}
	if !isLegal(s, r.Move) {
		t.Fatalf("Search(%s, %+v) = %q, not a legal move", s.FEN(), o, r.Move.Text)
	}
	return r.Move
}
