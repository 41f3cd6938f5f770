package ai

import (
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/halma"
)

// TestHalmaTurnsRestored: the engine counts the moves each seat has made
// (for the leave-home rule) the same in a state restored from a snapshot,
// which has no past moves, as in the state that was saved.
func TestHalmaTurnsRestored(t *testing.T) {
	g := newGame(t, "halma", map[string]string{"size": "8"})
	s := g.Start(1)
	for i := 0; i < 15; i++ {
		var err error
		if s, _, err = s.Play(s.Moves()[i%len(s.Moves())].Text); err != nil {
			t.Fatal(err)
		}
	}
	r, err := g.(rules.Restorer).Restore(s.(rules.Saver).Save())
	if err != nil {
		t.Fatal(err)
	}
	want, got := halmaTurns(s.(*halma.State)), halmaTurns(r.(*halma.State))
	if got != want || want != [4]uint16{7, 8} {
		t.Errorf("restored: %v, saved: %v; want [7 8 0 0] for both", got, want)
	}
}
