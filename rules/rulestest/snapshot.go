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

// RandomGame is a seeded random game for PlayRandom: where it starts, how
// its actions are drawn, and where its snapshots are taken.
type RandomGame struct {
	// Seed names the game in failure messages ("seed 3 ply 12").
	Seed uint64
	// Start is the state the game starts from.
	Start rules.State
	// Rand draws the game's actions (Pick).
	Rand *rand.Rand
	// Plies is the most plies the game is played for.
	Plies int
	// At is the ply whose state is saved, restored and played on from.
	At int
	// Every also round-trips the state at every other ply.
	Every bool
	// OnRand draws the actions played on from ply At (PlayOn); On is the
	// most of them.
	OnRand *rand.Rand
	On     int
}

// PlayRandom plays g with Pick until it ends or for g.Plies plies, and
// checks the snapshot of its state at ply g.At (RoundTrip), and at every
// ply when g.Every is set. From ply g.At, the saved and the restored
// states play on side by side (PlayOn). It returns the saved state at the
// end of that continuation, or nil when the game ended before ply g.At.
func (h Snapshots) PlayRandom(t testing.TB, g RandomGame) rules.State {
	t.Helper()
	var end rules.State
	s := g.Start
	for ply := 0; ply < g.Plies; ply++ {
		what := fmt.Sprintf("seed %d ply %d", g.Seed, ply)
		if g.Every || ply == g.At {
			r := h.RoundTrip(t, what, s)
			if ply == g.At {
				end, _ = h.PlayOn(t, what, g.OnRand, s, r, g.On)
			}
		}
		x := h.Pick(g.Rand, s)
		if x == "" {
			break
		}
		s = h.Act(t, s, x)
	}
	return end
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
