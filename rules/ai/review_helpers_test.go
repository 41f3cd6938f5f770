package ai

import (
	"context"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// selfPlay lets the computer play s's game from s for at most plies
// plies, seat i at levels[i] (with depth and node limits only, so the game
// is the same on every run), and returns the positions and the moves.
func selfPlay(t testing.TB, p *Player, s rules.State, levels []int, seed uint64, plies int) ([]rules.State, []rules.Move) {
	t.Helper()
	return selfPlayDepth(t, p, s, levels, 0, seed, plies)
}

// selfPlayDepth is selfPlay with the levels' depth set to depth (0: the
// levels' own).
func selfPlayDepth(t testing.TB, p *Player, s rules.State, levels []int, depth int, seed uint64, plies int) ([]rules.State, []rules.Move) {
	t.Helper()
	var positions []rules.State
	var moves []rules.Move
	for ply := 0; ply < plies && !s.Outcome().Over; ply++ {
		lv := levels[s.Turn()]
		o := Options{Level: lv, Seed: seed*1000 + uint64(ply), Depth: depth, untimed: true}
		r, err := p.Search(context.Background(), s, o)
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		positions = append(positions, s)
		moves = append(moves, r.Move)
		s = play(t, s, r.Move.Text)
	}
	return positions, moves
}

// review reviews a game at options o and fails the test on an error.
func review(t testing.TB, p *Player, positions []rules.State, moves []rules.Move, o ReviewOptions) Review {
	t.Helper()
	r, err := p.Review(context.Background(), positions, moves, o)
	if err != nil {
		t.Fatalf("Review: %v", err)
	}
	return r
}

// material is seat's pieces minus the others' in s.
func material(s rules.State, seat int) int {
	n := 0
	for _, p := range s.View().Pieces {
		if p.Seat == seat {
			n++
		} else {
			n--
		}
	}
	return n
}

// materialAfter is seat's material after depth plies in which both sides
// play for pieces alone (every move tried, then captures in progress
// played out): what a move keeps or loses within that depth, found
// without the engine.
func materialAfter(s rules.State, seat, depth int) int {
	if s.Outcome().Over || depth <= -12 {
		return material(s, seat)
	}
	moves := s.Moves()
	capture := false
	for _, m := range moves {
		capture = capture || len(m.Captured) > 0
	}
	if depth <= 0 && !capture {
		return material(s, seat)
	}
	best, first := 0, true
	for _, m := range moves {
		next, _, err := s.Play(m.Text)
		if err != nil {
			panic(err)
		}
		v := materialAfter(next, seat, depth-1)
		if first || s.Turn() == seat && v > best || s.Turn() != seat && v < best {
			best, first = v, false
		}
	}
	return best
}
