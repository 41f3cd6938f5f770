package ai

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boardgamebot/bot/rules/halma"
)

// bestByInsertion is the paranoid search's former move choice: a stable
// insertion sort of the whole list by order, then its first n.
func bestByInsertion(e halmaEngine, p *halmaPos, moves []halma.Move, n int) []halma.Move {
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
				want := bestByInsertion(e, &pos, moves, n)
				if got := s.best(&pos, slices.Clone(moves), n); !slices.Equal(got, want) {
					t.Fatalf("%s: best(%d) = %v, sorted %v", pos.p.FEN(), n, got, want)
				}
			}
			pos = e.apply(&pos, &moves[r.IntN(len(moves))])
		}
	}
}

// TestSortByScore checks sortByScore against an insertion sort (stable,
// highest first) on lists of every length with many equal and negative
// scores.
func TestSortByScore(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	var keys []int64
	for n := 0; n < 200; n++ {
		for trial := 0; trial < 5; trial++ {
			var idx, sc []int
			for i := 0; i < n; i++ {
				idx = append(idx, i)
				sc = append(sc, r.IntN(40)-20+[]int{0, 1 << 21, -(1 << 20)}[r.IntN(3)])
			}
			wantIdx, wantSc := slices.Clone(idx), slices.Clone(sc)
			for i := 1; i < n; i++ {
				for j := i; j > 0 && wantSc[j] > wantSc[j-1]; j-- {
					wantSc[j], wantSc[j-1] = wantSc[j-1], wantSc[j]
					wantIdx[j], wantIdx[j-1] = wantIdx[j-1], wantIdx[j]
				}
			}
			keys = sortByScore(idx, sc, keys)
			if !slices.Equal(idx, wantIdx) || !slices.Equal(sc, wantSc) {
				t.Fatalf("n=%d: got %v %v, want %v %v", n, idx, sc, wantIdx, wantSc)
			}
		}
	}
}
