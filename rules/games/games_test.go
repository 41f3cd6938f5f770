package games_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
)

// TestNewErrors: a bad /play names the game or option that is wrong and
// what is allowed, as a rules.ErrBadOption, on one line.
func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		id   string
		opts map[string]string
		want string
	}{
		{"chess", nil, `unknown game "chess" (games: spanish, damas, dame, ultradamas, halma)`},
		{"spanish", map[string]string{"flying": "no"}, `spanish has no option "flying" (options: none)`},
		{"dame", map[string]string{"flying": "maybe"}, "flying=maybe is not allowed (choose yes, no)"},
		{"halma", map[string]string{"size": "12"}, "size=12 is not allowed (choose 8, 10, 16)"},
		{"dame", map[string]string{"flying": "a\nb"}, `flying="a\nb" is not allowed`},
		{"halma", map[string]string{"size": "8", "players": "4"}, "halma with 4 players needs size=16"},
	} {
		_, err := games.New(tc.id, tc.opts)
		if !errors.Is(err, rules.ErrBadOption) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("New(%q, %v) = %v; want ErrBadOption with %q", tc.id, tc.opts, err, tc.want)
		}
	}
}

// TestEveryGame: each listed game is built with its defaults, in any case,
// reports its id and options back, and starts a game of its seats.
func TestEveryGame(t *testing.T) {
	list := games.List()
	if len(list) != 5 {
		t.Fatalf("%d games listed, want 5", len(list))
	}
	for _, info := range list {
		g, err := games.New(strings.ToUpper(info.ID), nil)
		if err != nil {
			t.Fatalf("%s: %v", info.ID, err)
		}
		if g.ID() != info.ID || g.Name() != info.Name {
			t.Errorf("%s: game says %s %q, list says %q", info.ID, g.ID(), g.Name(), info.Name)
		}
		for _, o := range info.Options {
			// The default, or what it means for these options (halma's
			// leavehome=auto is off on 16x16).
			if got := g.Options()[o.Key]; !slices.Contains(o.Values, got) {
				t.Errorf("%s: option %s = %q, not one of %v", info.ID, o.Key, got, o.Values)
			}
		}
		again, err := games.New(info.ID, g.Options())
		if err != nil || again.Name() != g.Name() || len(again.Seats()) != len(g.Seats()) {
			t.Errorf("%s: New with its own Options: %v", info.ID, err)
		}
		if st := g.Start(0); st.Game().ID() != info.ID {
			t.Errorf("%s: Start gives a state of %s", info.ID, st.Game().ID())
		}
		if _, ok := games.Lookup(info.ID); !ok {
			t.Errorf("Lookup(%q) fails", info.ID)
		}
	}
}
