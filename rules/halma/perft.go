package halma

import (
	"context"
	"math/bits"
)

// The perft walker counts every depth in one traversal. It keeps one
// mailbox for the whole walk, moving a piece on it before going down and
// back after; the last ply is counted from the sizes of the reach sets,
// without a move list, and nothing is allocated after the counts.

// pollLeft is the depth left from which the walker checks its context.
const pollLeft = 3

type walker struct {
	m   mover
	n   []uint64
	ctx context.Context
	err error
}

// PerftCounts counts the leaves of the move tree at every depth from 0 to
// depth in one traversal (counts[d] is Perft(d); a pass is one move, a
// won position has none); it stops with ctx's error when ctx is done.
func (p Position) PerftCounts(ctx context.Context, depth int) ([]uint64, error) {
	n := make([]uint64, max(depth, 0)+1)
	n[0] = 1
	if depth >= 1 {
		w := walker{n: n, ctx: ctx}
		w.m.setup(&p)
		w.walk(p, 0, depth)
		if w.err != nil {
			return nil, w.err
		}
	}
	return n, nil
}

// Perft counts the leaves of the move tree depth plies deep (a pass is one
// move; a won position has none).
func (p Position) Perft(depth int) uint64 {
	n, _ := p.PerftCounts(context.Background(), depth)
	return n[max(depth, 0)]
}

// walk counts the nodes of the left plies below p, which is at ply; w.m
// holds p's pieces.
func (w *walker) walk(p Position, ply, left int) {
	if p.won != 0 || w.err != nil {
		return
	}
	if left >= pollLeft {
		if w.err = w.ctx.Err(); w.err != nil {
			return
		}
	}
	l := p.l()
	w.m.target = &l.boxes[l.target[p.turn]]
	mine := p.pieces[p.turn]
	if left == 1 {
		var n int
		for wd, x := range mine {
			for x != 0 {
				n += w.m.count(Square(wd<<6 | bits.TrailingZeros64(x)))
				x &= x - 1
			}
		}
		w.n[ply+1] += uint64(max(n, 1))
		return
	}
	var moved bool
	box := &w.m.box
	for wd, x := range mine {
		for x != 0 {
			s := Square(wd<<6 | bits.TrailingZeros64(x))
			x &= x - 1
			w.m.target = &l.boxes[l.target[p.turn]]
			reach := w.m.reach(s)
			for w2, y := range reach {
				for y != 0 {
					to := Square(w2<<6 | bits.TrailingZeros64(y))
					y &= y - 1
					moved = true
					w.n[ply+1]++
					i, j := mbIndex(s), mbIndex(to)
					box[i], box[j] = mbEmpty, mbPiece
					w.walk(p.Play(Move{s, to}), ply+1, left-1)
					box[i], box[j] = mbPiece, mbEmpty
				}
			}
		}
	}
	if !moved {
		w.n[ply+1]++
		w.walk(p.Play(Pass), ply+1, left-1)
	}
}

// PerftCounts counts the leaves of the move tree at every depth from 0 to
// depth from the current position in one traversal (Position.PerftCounts).
func (s *State) PerftCounts(ctx context.Context, depth int) ([]uint64, error) {
	return s.pos.PerftCounts(ctx, depth)
}
