package ultradamas

import (
	"context"
	"math/bits"
)

// The perft walker counts every depth in one traversal, with one move
// buffer per ply and one generator (and its series table) for the whole
// walk. The last ply is counted without a move list where the side to
// move cannot capture: the steps by popcounts, an ultra king's teleports,
// loads and drops by popcounts, a double ultra king's second actions after
// each first one; only the triple kings' friendly jump series are listed.

// pollLeft is the depth left from which the walker checks its context.
const pollLeft = 3

type walker struct {
	g    gen
	bufs [][]Move
	pos  []Position // the position of each ply
	n    []uint64
	ctx  context.Context
	err  error
}

// PerftCounts counts the leaves of the move tree of p at every depth from
// 0 to depth in one traversal (counts[d] is Perft(d); draw rules ignored,
// a side with no move has no leaves below it); it stops with ctx's error
// when ctx is done.
func (p Position) PerftCounts(ctx context.Context, depth int) ([]uint64, error) {
	n := make([]uint64, max(depth, 0)+1)
	n[0] = 1
	if depth >= 1 {
		w := walker{n: n, ctx: ctx, bufs: make([][]Move, depth), pos: make([]Position, depth+1)}
		for i := range w.bufs {
			w.bufs[i] = make([]Move, 0, 128)
		}
		w.pos[0] = p
		w.walk(0, depth)
		if w.err != nil {
			return nil, w.err
		}
	}
	return n, nil
}

// Perft counts the leaves of the move tree of p at the given depth
// (draw rules ignored; a side with no move has no leaves below it).
func (p Position) Perft(depth int) uint64 {
	n, _ := p.PerftCounts(context.Background(), depth)
	return n[max(depth, 0)]
}

// moves lists p's legal moves into buf with the walker's generator.
func (w *walker) moves(p *Position, buf []Move) []Move {
	w.g.reset(p, buf)
	p.captures(&w.g)
	if len(w.g.moves) == 0 {
		p.quiet(&w.g)
	}
	return w.g.moves
}

// walk counts the nodes of the left plies below w.pos[ply].
func (w *walker) walk(ply, left int) {
	p := &w.pos[ply]
	if w.err != nil {
		return
	}
	if left >= pollLeft {
		if w.err = w.ctx.Err(); w.err != nil {
			return
		}
	}
	buf := w.bufs[left-1]
	if left == 1 {
		w.g.reset(p, buf)
		p.captures(&w.g)
		n := len(w.g.moves)
		w.bufs[0] = w.g.moves
		if n == 0 {
			n = w.countQuiet(p, w.bufs[0])
		}
		w.n[ply+1] += uint64(n)
		return
	}
	ms := w.moves(p, buf)
	w.bufs[left-1] = ms
	w.n[ply+1] += uint64(len(ms))
	for i := range ms {
		w.pos[ply+1] = p.Apply(ms[i])
		w.walk(ply+1, left-1)
	}
}

// countQuiet returns the number of moves quiet lists, for a position
// whose side to move cannot capture.
func (w *walker) countQuiet(p *Position, buf []Move) int {
	side := p.turn
	own, enemy := p.occ[side], p.occ[side^1]
	empty := ^(own | enemy)
	n := 0
	men := own & p.lvl[Man-1]
	for _, d := range forward[side] {
		n += bits.OnesCount64(shift(men, d) & empty)
	}
	kings := own & (p.lvl[King-1] | p.lvl[TripleKing-1] | p.lvl[QuadKing-1])
	for d := 0; d < 8; d++ {
		n += bits.OnesCount64(shift(kings, d) & empty)
	}
	if tk := own & p.lvl[TripleKing-1]; tk != 0 {
		g := &w.g
		g.reset(p, buf)
		g.capOnly = false
		for b := tk; b != 0; b &= b - 1 {
			g.startSeries(first(b), TripleKing)
			g.series(first(b), 0, 0, false)
		}
		n += len(g.moves)
		w.bufs[0] = g.moves
	}
	carriers := p.carriers()
	for b := own & p.lvl[UltraKing-1]; b != 0; b &= b - 1 {
		n += p.countUltraActions(first(b), carriers, empty, false)
	}
	for b := own & p.lvl[DoubleUltra-1]; b != 0; b &= b - 1 {
		u := first(b)
		var acts [maxUltraActions]Action
		na := p.ultraActions(u, carriers, empty, true, &acts)
		for _, a := range acts[:na] {
			n += p.countSecond(side, a)
		}
	}
	return n
}

// countSecond returns the number of moves second appends for the quiet
// first action a of a double ultra king.
func (p *Position) countSecond(side Side, a Action) int {
	q := *p
	q.do(side, a)
	d := a.End()
	carriers := q.carriers()
	if c := around[d] & q.occ[side^1]; carriers&bit(d) == 0 && c != 0 {
		return bits.OnesCount64(c)
	}
	return 1 + q.countUltraActions(d, carriers, ^(q.occ[0]|q.occ[1]), true)
}

// PerftCounts counts the leaves of the move tree at every depth from 0 to
// depth from the current position in one traversal (Position.PerftCounts);
// in the formation phase, from the position FEN shows.
func (s *State) PerftCounts(ctx context.Context, depth int) ([]uint64, error) {
	return s.Position().PerftCounts(ctx, depth)
}
