package console_test

import (
	"math/rand/v2"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// step is one scripted action of a seat: a move, or a formation.
type step struct {
	seat int
	cmd  string // "/move c3-d4" or "/setup default"
	fen  string // the position after it
}

// autoplay plays a whole game with the rules packages alone and returns
// its script: every formation (forms, per seat; "" for none) and every move,
// chosen by a simple player (the most captures; in Halma the move that
// brings its piece nearest the target corner), random among equals with a
// fixed seed. The console then plays the same script through sessions and
// storage. It fails the test if the game does not end within maxPlies.
//
// With huffs set, the player captures only half of the time it could, and
// huffs whenever it may (Damas with huff=yes).
func autoplay(t *testing.T, g rules.Game, forms []string, seed uint64, maxPlies int, huffs bool) ([]step, rules.Outcome) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	st := g.Start(0)
	var script []step
	if f, ok := st.(rules.Former); ok {
		for _, seat := range f.Pending() {
			next, err := st.(rules.Former).Form(seat, forms[seat])
			if err != nil {
				t.Fatalf("formation %q of seat %d: %v", forms[seat], seat, err)
			}
			st = next
			script = append(script, step{seat, "/setup " + forms[seat], st.FEN()})
		}
	}
	for ply := 0; ply < maxPlies; ply++ {
		if o := st.Outcome(); o.Over {
			return script, o
		}
		seat := st.Turn()
		if h, ok := st.(rules.Huffer); ok && huffs && len(h.Huffable()) > 0 {
			sq := h.Huffable()[0].String()
			next, err := h.Huff(sq)
			if err != nil {
				t.Fatalf("ply %d: huff %s: %v", ply, sq, err)
			}
			st = next
			script = append(script, step{seat, "/huff " + sq, st.FEN()})
			if st.Outcome().Over {
				continue
			}
		}
		moves := st.Moves()
		if len(moves) == 0 {
			t.Fatalf("ply %d: no moves and no outcome in %s", ply, st.FEN())
		}
		m := choose(st, seat, moves, rng)
		if huffs && rng.IntN(2) == 0 {
			m = moves[rng.IntN(len(moves))]
		}
		next, played, err := st.Play(m.Text)
		if err != nil {
			t.Fatalf("ply %d: %s: %v", ply, m.Text, err)
		}
		if played.Text != m.Text {
			t.Fatalf("ply %d: played %q for %q", ply, played.Text, m.Text)
		}
		st = next
		script = append(script, step{seat, "/move " + m.Text, st.FEN()})
	}
	t.Fatalf("%s did not end in %d plies (%s)", g.ID(), maxPlies, st.FEN())
	return nil, rules.Outcome{}
}

func choose(st rules.State, seat int, moves []rules.Move, rng *rand.Rand) rules.Move {
	score := func(m rules.Move) int { return 100 * len(m.Captured) }
	v := st.View()
	if v.Camps != nil {
		target := targetCorner(v, seat)
		dist := func(s rules.Square) int {
			df, dr := abs(int(s.File-target.File)), abs(int(s.Rank-target.Rank))
			return (df+dr)*32 + max(df, dr)
		}
		score = func(m rules.Move) int {
			if m.Pass {
				return -1 << 20
			}
			return dist(m.From) - dist(m.To)
		}
	}
	best := []rules.Move{}
	bestScore := -1 << 30
	for _, m := range moves {
		switch s := score(m); {
		case s > bestScore:
			best, bestScore = []rules.Move{m}, s
		case s == bestScore:
			best = append(best, m)
		}
	}
	return best[rng.IntN(len(best))]
}

// targetCorner is the board corner of the camp opposite seat's own: the
// camp in the diagonally opposite corner.
func targetCorner(v rules.View, seat int) rules.Square {
	n := int8(v.Size - 1)
	own := corner(v.Camps[seat], n)
	return rules.Square{File: n - own.File, Rank: n - own.Rank}
}

func corner(camp []rules.Square, n int8) rules.Square {
	for _, s := range camp {
		if (s.File == 0 || s.File == n) && (s.Rank == 0 || s.Rank == n) {
			return s
		}
	}
	return camp[0]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
