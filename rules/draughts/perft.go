package draughts

import (
	"context"
	"math/bits"
)

// The perft walker counts every depth in one traversal. Plain moves are
// played straight from the bitboards (no move list), and so are the men's
// captures when every one is a single jump; other captures, which need
// the precedence filter, are listed by gen on its shared stack. The
// replies of the last ply are counted from the mover's view without
// turning the board (popcounts, and the men's capture series counted
// without listing them) unless a king of the opponent can capture.

// rayMask[f][d] is the ray from f in direction d as a bitboard; step[f][d]
// is its first square.
var rayMask, stepMask = func() (r, s [32][4]uint32) {
	for f := range rays {
		for d := range rays[f] {
			ry := &rays[f][d]
			for j := 0; j < ry.n; j++ {
				r[f][d] |= 1 << ry.f[j]
			}
			if ry.n > 0 {
				s[f][d] = 1 << ry.f[0]
			}
		}
	}
	return r, s
}()

// shiftDir steps every bit of b once in direction d.
func shiftDir(b uint32, d int) uint32 {
	switch d {
	case upLeft:
		return shiftUL(b)
	case upRight:
		return shiftUR(b)
	case downLeft:
		return shiftDL(b)
	}
	return shiftDR(b)
}

// nearest returns the blocker nearest to the start of a ray in direction
// d among blockers (not 0): rays up the board run to higher squares.
func nearest(blockers uint32, d int) uint32 {
	if d < downLeft {
		return blockers & -blockers
	}
	return 1 << (31 - bits.LeadingZeros32(blockers))
}

// kingTargets returns the empty squares a king on f reaches by plain moves.
func kingTargets(f Square, empty uint32, flying bool) uint32 {
	if !flying {
		s := &stepMask[f]
		return (s[0] | s[1] | s[2] | s[3]) & empty
	}
	var t uint32
	for d := 0; d < 4; d++ {
		r := rayMask[f][d]
		if b := r &^ empty; b != 0 {
			if d < downLeft {
				r &= b&-b - 1
			} else {
				r &^= 1<<(32-bits.LeadingZeros32(b)) - 1
			}
		}
		t |= r
	}
	return t
}

// kingCanTake reports whether a king on f can capture a piece of prey.
func kingCanTake(f Square, prey, empty uint32, flying bool) bool {
	for d := 0; d < 4; d++ {
		var victim uint32
		if flying {
			b := rayMask[f][d] &^ empty
			if b == 0 {
				continue
			}
			victim = nearest(b, d)
		} else {
			victim = stepMask[f][d] &^ empty
		}
		if victim&prey != 0 && shiftDir(victim, d)&empty != 0 {
			return true
		}
	}
	return false
}

// walker counts the nodes of every ply below a position.
type walker struct {
	g gen
	n []uint64 // n[ply] is the number of nodes at that ply
	// The men's capture series counted by countMen and countMenDown: the
	// best score, how many series reach it, and the kings that score counts.
	best, count int
	kings       uint32
	// bulk counts the last ply's moves without playing them; without it
	// every leaf is made (for benchmarks against other engines).
	bulk bool
	// ctx is polled at the nodes with pollLeft plies or more below them;
	// err is its error once it is done, and the walk then unwinds.
	ctx context.Context
	err error
	// leaf is the last leaf made without bulk counting, seen from the
	// side that moved into it.
	leaf rel
}

// pollLeft: the walk polls its context at nodes this many plies or more
// from the leaves, a few thousand leaves apart or more.
const pollLeft = 6

// PerftCounts counts the move paths from p for every depth from 0 to
// depth in one traversal: the result's element d is Perft(p, d). It
// stops with ctx's error when ctx is done.
func (v Variant) PerftCounts(ctx context.Context, p Position, depth int) ([]uint64, error) {
	return v.perftCounts(ctx, p, depth, true)
}

func (v Variant) perftCounts(ctx context.Context, p Position, depth int, bulk bool) ([]uint64, error) {
	n := make([]uint64, max(depth, 0)+1)
	n[0] = 1
	if depth >= 1 {
		w := walker{g: v.newGen(make([]Move, 0, 64*depth)), n: n, bulk: bulk, ctx: ctx}
		w.g.noPath = true
		w.walk(toRel(p), 0, depth)
		if w.err != nil {
			return nil, w.err
		}
	}
	return n, nil
}

// Perft counts the move paths of the given depth from p (depth 0 is 1).
func (v Variant) Perft(p Position, depth int) uint64 {
	n, _ := v.PerftCounts(context.Background(), p, depth)
	return n[max(depth, 0)]
}

// walk counts the nodes of the left plies below p (mover's view), which is
// at ply.
func (w *walker) walk(p rel, ply, left int) {
	if left == 0 || w.err != nil {
		return
	}
	if left >= pollLeft {
		if w.err = w.ctx.Err(); w.err != nil {
			return
		}
	}
	if left == 1 && w.bulk && p.us&p.kings == 0 {
		w.n[ply+1] += uint64(w.countMen(p))
		return
	}
	if p.us&p.kings == 0 {
		if done := w.menJumps(p, ply, left); done {
			return
		}
	} else if w.canCapture(p) && w.listCaptures(p, ply, left) {
		return
	}
	w.plain(p, ply, left)
}

// menJumps counts the captures of p (mover's view) when the mover has men
// only; it reports whether the node is done (captures are obligatory).
func (w *walker) menJumps(p rel, ply, left int) bool {
	empty := ^(p.us | p.them)
	jumpers := p.us & (shiftDR(p.them&shiftDR(empty)) | shiftDL(p.them&shiftDL(empty)))
	if jumpers == 0 {
		return false
	}
	ul := shiftUL(shiftUL(jumpers)&p.them) & empty
	ur := shiftUR(shiftUR(jumpers)&p.them) & empty
	if (ul|ur)&(shiftDR(p.them&shiftDR(empty))|shiftDL(p.them&shiftDL(empty))) != 0 {
		return w.listCaptures(p, ply, left)
	}
	// Every capture is a single jump.
	if w.g.quality && !w.g.loose {
		kul, kur := shiftUL(shiftDR(ul)&p.kings), shiftUR(shiftDL(ur)&p.kings)
		if kul|kur != 0 {
			ul, ur = kul, kur
		}
	}
	w.n[ply+1] += uint64(bits.OnesCount32(ul) + bits.OnesCount32(ur))
	if left > 1 || !w.bulk {
		for b := ul; b != 0; b &= b - 1 {
			to := b & -b
			v := shiftDR(to)
			w.child(p, shiftDR(v), to, v, ply+1, left-1)
		}
		for b := ur; b != 0; b &= b - 1 {
			to := b & -b
			v := shiftDL(to)
			w.child(p, shiftDL(v), to, v, ply+1, left-1)
		}
	}
	return !w.g.loose
}

// listCaptures lists the captures of p (mover's view) with gen and counts
// below them; it reports whether the node is done.
func (w *walker) listCaptures(p rel, ply, left int) bool {
	g := &w.g
	g.set(p)
	start := len(g.buf)
	g.start = start
	if g.captures() {
		end := len(g.buf)
		w.n[ply+1] += uint64(end - start)
		if left > 1 || !w.bulk {
			for i := start; i < end; i++ {
				m := &g.buf[i]
				w.child(p, 1<<m.From, 1<<m.To, m.Captured, ply+1, left-1)
			}
		}
		g.buf = g.buf[:start]
		return !g.loose
	}
	return false
}

// plain counts the plain moves of p (mover's view) and below them.
func (w *walker) plain(p rel, ply, left int) {
	empty := ^(p.us | p.them)
	men := p.us &^ p.kings
	ul, ur := shiftUL(men)&empty, shiftUR(men)&empty
	flying := w.g.flying
	if left == 1 && w.bulk {
		n := bits.OnesCount32(ul) + bits.OnesCount32(ur)
		for b := p.us & p.kings; b != 0; b &= b - 1 {
			n += bits.OnesCount32(kingTargets(Square(bits.TrailingZeros32(b)), empty, flying))
		}
		w.n[ply+1] += uint64(n)
		return
	}
	n := bits.OnesCount32(ul) + bits.OnesCount32(ur)
	if left == 2 && w.bulk && p.them&p.kings == 0 {
		w.n[ply+2] += w.menReplies(p, empty, ul, false) + w.menReplies(p, empty, ur, true)
	} else {
		for b := ul; b != 0; b &= b - 1 {
			to := b & -b
			w.child(p, shiftDR(to), to, 0, ply+1, left-1)
		}
		for b := ur; b != 0; b &= b - 1 {
			to := b & -b
			w.child(p, shiftDL(to), to, 0, ply+1, left-1)
		}
	}
	for b := p.us & p.kings; b != 0; b &= b - 1 {
		from := b & -b
		t := kingTargets(Square(bits.TrailingZeros32(b)), empty, flying)
		n += bits.OnesCount32(t)
		for ; t != 0; t &= t - 1 {
			w.child(p, from, t&-t, 0, ply+1, left-1)
		}
	}
	w.n[ply+1] += uint64(n)
}

// child plays from-to capturing capt in p and counts the left plies below
// the position it reaches, at ply.
func (w *walker) child(p rel, from, to, capt uint32, ply, left int) {
	us := p.us&^from | to
	them := p.them &^ capt
	kings := p.kings &^ capt
	if kings&from != 0 {
		kings = kings&^from | to
	} else {
		kings |= to & topRank
	}
	if left == 1 && w.bulk {
		// The opponent's replies, counted from this side of the board
		// unless the opponent has a king that may capture.
		empty := ^(us | them)
		om := them &^ kings
		jumpers := om & (shiftUR(us&shiftUR(empty)) | shiftUL(us&shiftUL(empty)))
		if them&kings == 0 {
			w.n[ply+1] += uint64(w.countMenDown(om, us, kings, empty, jumpers))
			return
		}
		if jumpers == 0 {
			n := bits.OnesCount32(shiftDL(om)&empty) + bits.OnesCount32(shiftDR(om)&empty)
			ok := true
			for b := them & kings; b != 0; b &= b - 1 {
				f := Square(bits.TrailingZeros32(b))
				if kingCanTake(f, us, empty, w.g.flying) {
					ok = false
					break
				}
				n += bits.OnesCount32(kingTargets(f, empty, w.g.flying))
			}
			if ok {
				w.n[ply+1] += uint64(n)
				return
			}
		}
	}
	if left == 0 {
		w.leaf = rel{us, them, kings} // made, from the mover's side
		return
	}
	w.walk(rel{rotate(them), rotate(us), rotate(kings)}, ply, left)
}

// countMen counts the moves of p (mover's view), whose mover has no king,
// without listing them.
func (w *walker) countMen(p rel) int {
	empty := ^(p.us | p.them)
	men := p.us
	n := 0
	if jumpers := men & (shiftDR(p.them&shiftDR(empty)) | shiftDL(p.them&shiftDL(empty))); jumpers != 0 {
		// Most often every capture is a single jump: the landings of all
		// the jumpers at once, and none can jump again.
		ul := shiftUL(shiftUL(jumpers)&p.them) & empty
		ur := shiftUR(shiftUR(jumpers)&p.them) & empty
		if (ul|ur)&(shiftDR(p.them&shiftDR(empty))|shiftDL(p.them&shiftDL(empty))) == 0 {
			n = bits.OnesCount32(ul) + bits.OnesCount32(ur)
			if !w.g.loose {
				if k := bits.OnesCount32(shiftDR(ul)&p.kings) + bits.OnesCount32(shiftDL(ur)&p.kings); k > 0 && w.g.quality {
					return k
				}
				return n
			}
			return n + bits.OnesCount32(shiftUL(men)&empty) + bits.OnesCount32(shiftUR(men)&empty)
		}
		w.best, w.count, w.kings = 0, 0, p.kings
		for b := jumpers; b != 0; b &= b - 1 {
			at := b & -b
			w.manSeries(at, p.them, empty|at, 0)
		}
		if !w.g.loose {
			return w.count
		}
		n = w.count
	}
	return n + bits.OnesCount32(shiftUL(men)&empty) + bits.OnesCount32(shiftUR(men)&empty)
}

// manSeries counts the complete capture series of a man on at that has
// taken capt, the precedence applied unless huffing is allowed. A man's
// series never repeats a move: each jump climbs two ranks.
func (w *walker) manSeries(at, them, empty, capt uint32) {
	found := false
	if v := shiftUL(at) & them; v != 0 {
		if l := shiftUL(v) & empty; l != 0 {
			found = true
			w.manSeries(l, them&^v, empty, capt|v)
		}
	}
	if v := shiftUR(at) & them; v != 0 {
		if l := shiftUR(v) & empty; l != 0 {
			found = true
			w.manSeries(l, them&^v, empty, capt|v)
		}
	}
	if !found && capt != 0 {
		w.score(capt)
	}
}

// countMenDown counts the moves of men that move down the board, taking
// prey, jumpers being those of men that can capture.
func (w *walker) countMenDown(men, prey, kings, empty, jumpers uint32) int {
	n := 0
	if jumpers != 0 {
		dl := shiftDL(shiftDL(jumpers)&prey) & empty
		dr := shiftDR(shiftDR(jumpers)&prey) & empty
		if (dl|dr)&(shiftUR(prey&shiftUR(empty))|shiftUL(prey&shiftUL(empty))) == 0 {
			n = bits.OnesCount32(dl) + bits.OnesCount32(dr)
			if !w.g.loose {
				if k := bits.OnesCount32(shiftUR(dl)&kings) + bits.OnesCount32(shiftUL(dr)&kings); k > 0 && w.g.quality {
					return k
				}
				return n
			}
			return n + bits.OnesCount32(shiftDL(men)&empty) + bits.OnesCount32(shiftDR(men)&empty)
		}
		w.best, w.count, w.kings = 0, 0, kings
		for b := jumpers; b != 0; b &= b - 1 {
			at := b & -b
			w.manSeriesDown(at, prey, empty|at, 0)
		}
		if !w.g.loose {
			return w.count
		}
		n = w.count
	}
	return n + bits.OnesCount32(shiftDL(men)&empty) + bits.OnesCount32(shiftDR(men)&empty)
}

// manSeriesDown is manSeries for a man that moves down the board.
func (w *walker) manSeriesDown(at, them, empty, capt uint32) {
	found := false
	if v := shiftDL(at) & them; v != 0 {
		if l := shiftDL(v) & empty; l != 0 {
			found = true
			w.manSeriesDown(l, them&^v, empty, capt|v)
		}
	}
	if v := shiftDR(at) & them; v != 0 {
		if l := shiftDR(v) & empty; l != 0 {
			found = true
			w.manSeriesDown(l, them&^v, empty, capt|v)
		}
	}
	if !found && capt != 0 {
		w.score(capt)
	}
}

// score counts a complete series that took capt.
func (w *walker) score(capt uint32) {
	if w.g.loose {
		w.count++
		return
	}
	score := bits.OnesCount32(capt)
	if w.g.quality {
		score = score<<5 + bits.OnesCount32(capt&w.kings)
	}
	switch {
	case score > w.best:
		w.best, w.count = score, 1
	case score == w.best:
		w.count++
	}
}

// menReplies counts the replies to the plain moves of men of p (mover's
// view) to the squares of targets, up-right ones when right and up-left
// ones otherwise, when the opponent has men only: the last two plies of a
// walk, counted without making the positions.
func (w *walker) menReplies(p rel, empty, targets uint32, right bool) uint64 {
	om := p.them
	dl, dr := shiftDL(om), shiftDR(om)
	var n uint64
	for b := targets; b != 0; b &= b - 1 {
		to := b & -b
		from := shiftDR(to)
		if right {
			from = shiftDL(to)
		}
		ft := from | to
		us, e := p.us^ft, empty^ft
		if j := om & (shiftUR(us&shiftUR(e)) | shiftUL(us&shiftUL(e))); j != 0 {
			n += uint64(w.countMenDown(om, us, p.kings|to&topRank, e, j))
			continue
		}
		n += uint64(bits.OnesCount32(dl&e) + bits.OnesCount32(dr&e))
	}
	return n
}

// canCapture reports whether the mover of p (mover's view) has a capture.
func (w *walker) canCapture(p rel) bool {
	empty := ^(p.us | p.them)
	if p.us&^p.kings&(shiftDR(p.them&shiftDR(empty))|shiftDL(p.them&shiftDL(empty))) != 0 {
		return true
	}
	for b := p.us & p.kings; b != 0; b &= b - 1 {
		if kingCanTake(Square(bits.TrailingZeros32(b)), p.them, empty, w.g.flying) {
			return true
		}
	}
	return false
}
