package ai

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boardgamebot/bot/rules/halma"
)

// bestByInsertion is the paranoid search's former move choice: a stable
// insertion sort of the whole list by order, then its first n.
func bestByInsertion(e *halmaEngine, p *halmaPos, moves []halma.Move, n int) []halma.Move {
	moves = slices.Clone(moves)
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && e.order(p, &moves[j]) > e.order(p, &moves[j-1]); j-- {
			moves[j], moves[j-1] = moves[j-1], moves[j]
		}
	}
	return moves[:min(n, len(moves))]
}

// TestParanoidBestMatchesSort checks on the positions of random
// four-player games that the paranoid search looks at the same moves, in
// the same order, as a stable sort of the whole list would give it.
func TestParanoidBestMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	v := halma.Variant{Size: 16, Players: 4}
	for game := 0; game < 10; game++ {
		pos := halmaPos{p: v.Start(game % 4)}
		e := newHalmaEngine(pos.p, 0)
		s := &paranoid{e: e}
		for ply := 0; ply < 150 && pos.p.Winner() < 0; ply++ {
			moves := pos.p.Moves()
			for _, n := range []int{1, beam, len(moves)} {
				want := bestByInsertion(&e, &pos, moves, n)
				if got := s.best(&pos, slices.Clone(moves), n); !slices.Equal(got, want) {
					t.Fatalf("%s: best(%d) = %v, sorted %v", pos.p.FEN(), n, got, want)
				}
			}
			pos = e.apply(&pos, &moves[r.IntN(len(moves))])
		}
	}
}
