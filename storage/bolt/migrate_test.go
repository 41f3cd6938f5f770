package bolt_test

import (
	"path/filepath"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
)

// v1Live are the live sessions of testdata/v1.db (written by
// testdata/mkv1.go with the bot of schema 1) and how many actions each has.
var v1Live = map[string]int{"spanish": 12, "halma": 61, "dame": 7, "ultradamas": 0, "open": 0}

// TestMigrateV1 opens a database written by the bot of schema 1 (one
// JSON record per live session): every live game is there with all its
// moves, in the position its moves give, and plays on, also after the
// file is closed and opened again; the finished games, their history,
// the ratings, the preferences and the routes are intact.
func TestMigrateV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	if err := scaleCopyFile(path, filepath.Join("testdata", "v1.db")); err != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	svc := sessions.New(sessions.Config{Store: s, Rand: func(int) int { return 0 }})
	if n, err := svc.Resume(ctx); err != nil || n != len(v1Live) {
		t.Fatalf("Resume: %d sessions, %v; want %d", n, err, len(v1Live))
	}
	played := map[string]string{}
	for ch, plies := range v1Live {
		key := sessions.Key{Platform: "console", Channel: ch}
		snap, err := svc.Look(ctx, key)
		if err != nil {
			t.Fatalf("%s: %v", ch, err)
		}
		if n := len(snap.Record.Actions); n != plies {
			t.Fatalf("%s: %d actions, want %d", ch, n, plies)
		}
		if snap.State == nil {
			continue // the open challenge
		}
		// The position is the one the moves give, replayed here alone.
		g, err := games.New(snap.Record.Game, snap.Record.Options)
		if err != nil {
			t.Fatal(err)
		}
		var st rules.State = g.Start(snap.Record.First)
		for _, a := range snap.Record.Actions {
			if st, _, err = st.Play(a.Text); err != nil {
				t.Fatalf("%s: replaying %q: %v", ch, a.Text, err)
			}
		}
		if st.FEN() != snap.State.FEN() {
			t.Fatalf("%s: position %s, its moves give %s", ch, snap.State.FEN(), st.FEN())
		}
		if ch == "ultradamas" {
			continue // in its formation step
		}
		m := snap.State.Moves()[0]
		ev, err := svc.Move(ctx, sessions.Request{Key: key, User: snap.Player(snap.Turn())}, m.Text)
		if err != nil {
			t.Fatalf("%s: move %s: %v", ch, m.Text, err)
		}
		played[ch] = ev.Session.State.FEN()
	}
	svc.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, path)
	defer s.Close()
	svc = sessions.New(sessions.Config{Store: s})
	defer svc.Close()
	for ch, fen := range played {
		snap, err := svc.Look(ctx, sessions.Key{Platform: "console", Channel: ch})
		if err != nil {
			t.Fatalf("%s after reopening: %v", ch, err)
		}
		if snap.State.FEN() != fen || len(snap.Record.Actions) != v1Live[ch]+1 {
			t.Fatalf("%s after reopening: %d actions at %s, want %d at %s", ch, len(snap.Record.Actions), snap.State.FEN(), v1Live[ch]+1, fen)
		}
	}
	h, err := svc.History(ctx, sessions.HistoryQuery{Platform: "console", User: "b"})
	if err != nil || len(h) != 2 || h[0].Key.Channel != "done2" || h[1].Key.Channel != "done1" {
		t.Fatalf("bob's history: %v, %v", h, err)
	}
	for _, r := range h {
		want := map[string]int{"done1": 25, "done2": 30}[r.Key.Channel]
		rated := 2
		f, err := svc.Game(ctx, "console", r.ID)
		if err != nil || len(f.Record.Actions) != want || f.Record.Result == nil || len(f.Record.Ratings) != rated {
			t.Fatalf("game %s: %d actions, result %v, ratings %v, %v; want %d actions, a result and ratings", r.ID, len(f.Record.Actions), f.Record.Result, f.Record.Ratings, err, want)
		}
	}
	if h, err := svc.History(ctx, sessions.HistoryQuery{Key: sessions.Key{Platform: "console", Channel: "done1"}}); err != nil || len(h) != 1 {
		t.Fatalf("history of done1: %v, %v", h, err)
	}
	if st, err := s.Standings(ctx, "console", "a", "spanish"); err != nil || len(st) != 2 {
		t.Fatalf("alice's spanish standings: %v, %v", st, err)
	}
	if p, err := s.NotifyPrefs(ctx, "console"); err != nil || p["b"] {
		t.Fatalf("prefs: %v, %v", p, err)
	}
	routes, err := s.Routes(ctx, "discord")
	if err != nil || routes["thread9"] != (sessions.Key{Platform: "discord", Channel: "chan1", Thread: "thread9"}) {
		t.Fatalf("routes: %v, %v", routes, err)
	}
}
