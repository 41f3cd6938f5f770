package ai

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/boardgamebot/bot/rules/draughts"
)

// minimax is the plain negamax search of the tree searcher.search cuts.
func minimax(e draughtsEngine, p draughts.Position, depth, ply int) int {
	if ply >= maxPly || depth <= 0 && e.quiet(&p) {
		return e.eval(&p)
	}
	moves := e.v.Moves(p)
	if len(moves) == 0 {
		return -mate + ply
	}
	if depth <= 0 && moves[0].Captured == 0 {
		return e.eval(&p)
	}
	if depth < 0 {
		depth = 0
	}
	next := depth - 1
	if len(moves) == 1 && depth > 0 {
		next = depth
	}
	if next < 0 {
		next = 0
	}
	best := -infinity
	for _, m := range moves {
		c := e.v.Apply(p, m)
		v := -minimax(e, c, next, ply+1)
		if v > best {
			best = v
		}
	}
	return best
}

// TestSearchMatchesMinimax: the alpha-beta search with its table, its
// move ordering and its null windows finds the same score as a plain
// minimax search of the same tree (same depth, extensions and quiescence),
// in positions of random Spanish games.
func TestSearchMatchesMinimax(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	e := newDraughtsEngine(draughts.Spanish)
	tt := newTable(4)
	total := 0
	for game := 0; game < 6; game++ {
		p := draughts.Initial
		for ply := 0; ply < 60; ply++ {
			ms := draughts.Spanish.Moves(p)
			if len(ms) == 0 {
				break
			}
			if ply > 8 && ply%3 == 0 && len(ms) > 1 {
				for _, d := range []int{2, 3, 4} {
					s := newSearcher[draughts.Position, draughts.Move](budget{ctx: context.Background(), lim: limits{depth: d}}, e, tt, map[uint64]bool{})
					res := s.run(&p, ms)
					want := -infinity
					for _, m := range ms {
						v := -minimax(e, draughts.Spanish.Apply(p, m), d-1, 1)
						if v > want {
							want = v
						}
					}
					total++
					if res.score != want {
						t.Errorf("%s, depth %d: the search scores %d, minimax %d", draughts.Spanish.FEN(p), d, res.score, want)
					}
				}
			}
			p = draughts.Spanish.Apply(p, ms[r.IntN(len(ms))])
		}
	}
	if total < 50 {
		t.Errorf("only %d positions compared", total)
	}
}
