package rulestest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// Snapshots checks the snapshots of one game's states. Its fields are the
// game-specific parts; the methods are the same for every game.
type Snapshots struct {
	// Pick returns a random action of s, as Apply takes it (a move's text
	// or a game action such as "huff 12"), or "" when there is none.
	Pick func(rng *rand.Rand, s rules.State) string
	// Apply plays action on s.
	Apply func(s rules.State, action string) (rules.State, error)
	// Differ, when not nil, names what else a player sees that differs
	// between a and b ("huffable", "pending formations"), or returns ""
	// when nothing does.
	Differ func(a, b rules.State) string
}

// Act plays action on s with Apply and returns the new state; an error
// fails the test.
func (h Snapshots) Act(t testing.TB, s rules.State, action string) rules.State {
	t.Helper()
	n, err := h.Apply(s, action)
	if err != nil {
		t.Fatalf("%s: %v", action, err)
	}
	return n
}

// Same fails the test when a and b differ in anything a player sees: FEN,
// turn, outcome, moves (texts and paths), view, and what Differ names.
func (h Snapshots) Same(t testing.TB, what string, a, b rules.State) {
	t.Helper()
	if a.FEN() != b.FEN() || a.Turn() != b.Turn() || a.Outcome() != b.Outcome() {
		t.Fatalf("%s: %s turn %d %+v, restored %s turn %d %+v", what, a.FEN(), a.Turn(), a.Outcome(), b.FEN(), b.Turn(), b.Outcome())
	}
	if !reflect.DeepEqual(a.Moves(), b.Moves()) {
		t.Fatalf("%s: moves %v, restored %v", what, a.Moves(), b.Moves())
	}
	if !reflect.DeepEqual(a.View(), b.View()) {
		t.Fatalf("%s: views differ", what)
	}
	if h.Differ != nil {
		if d := h.Differ(a, b); d != "" {
			t.Fatalf("%s: %s differ", what, d)
		}
	}
}

// RoundTrip saves s, restores it with its game's Restore, checks that the
// restored state saves the same bytes and looks the same (Same), and
// returns it.
func (h Snapshots) RoundTrip(t testing.TB, what string, s rules.State) rules.State {
	t.Helper()
	snap := s.(rules.Saver).Save()
	r, err := s.Game().(rules.Restorer).Restore(snap)
	if err != nil {
		t.Fatalf("%s: Restore(Save()): %v", what, err)
	}
	if again := r.(rules.Saver).Save(); !bytes.Equal(again, snap) {
		t.Fatalf("%s: Save(Restore(%x)) = %x", what, snap, again)
	}
	h.Same(t, what, s, r)
	return r
}

// PlayOn plays the same random actions (Pick on a, with rng) on a and b,
// at most n of them, and checks after each that they look the same. It
// returns the final states.
func (h Snapshots) PlayOn(t testing.TB, what string, rng *rand.Rand, a, b rules.State, n int) (rules.State, rules.State) {
	t.Helper()
	for i := 0; i < n; i++ {
		x := h.Pick(rng, a)
		if x == "" {
			break
		}
		a, b = h.Act(t, a, x), h.Act(t, b, x)
		h.Same(t, fmt.Sprintf("%s, %d plies on (%s)", what, i+1, x), a, b)
	}
	return a, b
}

// CautiousMove returns the text of a random legal move of s: three times
// in four (by rng) one after which nothing can be captured, when there is
// one, so that random games with kings last until the automatic draws;
// else any. It returns "" when s has no moves.
func CautiousMove(rng *rand.Rand, s rules.State) string {
	ms := s.Moves()
	if len(ms) == 0 {
		return ""
	}
	if rng.IntN(4) > 0 {
		var safe []string
		for _, m := range ms {
			n, _, err := s.Play(m.Text)
			if err == nil && !capturable(n) {
				safe = append(safe, m.Text)
			}
		}
		if len(safe) > 0 {
			return safe[rng.IntN(len(safe))]
		}
	}
	return ms[rng.IntN(len(ms))].Text
}

// capturable reports whether a move of s captures.
func capturable(s rules.State) bool {
	for _, m := range s.Moves() {
		if len(m.Captured) > 0 {
			return true
		}
	}
	return false
}
