package chat_test

import (
	"testing"

	"github.com/boardgamebot/bot/sessions"
)

// TestLookup: the answers to commands that change nothing (read-only
// commands, refusals) are marked Lookup, so that a platform may send a
// game's news before them; every change of a game, and every notice, is
// news.
func TestLookup(t *testing.T) {
	f := newFixture(t)
	steps := []struct {
		who, text string
		lookup    bool
	}{
		{"alice", "/help", true},
		{"alice", "/games", true},
		{"alice", "/board", true}, // no game: a refusal
		{"alice", "/play count @bob color=white target=4", false},
		{"carol", "/accept", true}, // not for carol: a refusal
		{"alice", "/board", true},  // the challenge waiting
		{"bob", "/accept", false},
		{"carol", "/board", true},
		{"carol", "/moves", true},
		{"carol", "/history", true},
		{"carol", "/top", true},
		{"carol", "/rating", true},
		{"carol", "/lang", true},
		{"carol", "/xyzzy", true},
		{"carol", "/tournament standings", true},
		{"bob", "/move 1", true}, // out of turn: a refusal
		{"alice", "/move 2", false},
		{"bob", "/draw", false},
		{"alice", "/decline", false},
		{"alice", "/takeback", false},
		{"alice", "/move 1", true}, // bob's turn: refused
		{"bob", "/resign", false},
		{"carol", "/show 1", true},
		{"carol", "/export 1", true},
	}
	for _, s := range steps {
		r := f.say(s.who, s.text)
		if r.Lookup != s.lookup {
			t.Errorf("%s %q (error=%v): Lookup %v, want %v\n%s", s.who, s.text, r.Error, r.Lookup, s.lookup, r.Text())
		}
	}
	for _, name := range []string{"board", "moves", "help", "games", "history", "top", "rating", "show", "replay", "export", "lang", "profile", "vs", "Board"} {
		if !f.h.ReadOnly(name) {
			t.Errorf("ReadOnly(%q) = false", name)
		}
	}
	for _, name := range []string{"move", "m", "play", "accept", "resign", "tournament", "nosuch", ""} {
		if f.h.ReadOnly(name) {
			t.Errorf("ReadOnly(%q) = true", name)
		}
	}
	n := sessions.Notice{Kind: sessions.NoticeYourTurn, Key: key}
	if f.h.NoticeReply(n).Lookup {
		t.Error("a notice is a Lookup")
	}
}
