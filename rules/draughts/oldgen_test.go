package draughts

// The move generator as it was before the fast one (issue 16), kept as a
// reference: TestGeneratorMatchesOld compares the two on random positions.

import "math/bits"

// oldRel is a position seen by the side to move, who always moves up the
// board: Black's positions are turned half a turn.
type oldRel struct{ us, them, kings uint32 }

func oldToRel(p Position) oldRel {
	if p.ToMove == White {
		return oldRel{p.White, p.Black, p.Kings}
	}
	return oldRel{rotate(p.Black), rotate(p.White), rotate(p.Kings)}
}

// oldApplyRel plays m and returns the next position from the opponent's view.
func oldApplyRel(p oldRel, m Move) oldRel {
	from, to := uint32(1)<<m.From, uint32(1)<<m.To
	us := p.us&^from | to
	them := p.them &^ m.Captured
	kings := p.kings &^ m.Captured
	if kings&from != 0 {
		kings = kings&^from | to
	} else if to&topRank != 0 {
		kings |= to
	}
	return oldRel{rotate(them), rotate(us), rotate(kings)}
}

// oldGen generates moves of one position from the mover's view.
type oldGen struct {
	flying, landNext, quality bool
	all                       bool // keep every series (witness paths), not one per move
	loose                     bool // keep every complete capture series, ignoring precedence
	us, them, kings, empty    uint32
	buf                       []Move
	start                     int
	best                      int // score of the best series found
	maxN                      int // most pieces captured by any series found
	path                      [MaxLandings]Square
}

func (v Variant) oldNewGen(buf []Move) oldGen {
	return oldGen{flying: v.Flying, landNext: v.LandNext || !v.Flying, quality: v.Quality, loose: v.Huff, buf: buf, start: len(buf)}
}

func (g *oldGen) set(p oldRel) {
	g.us, g.them, g.kings = p.us, p.them, p.kings
	g.empty = ^(p.us | p.them)
	g.best, g.maxN = 0, 0
}

// captures appends the capture moves; it reports whether there was any.
func (g *oldGen) captures() bool {
	men := g.us &^ g.kings
	e := g.empty
	jumpers := men & (shiftDR(g.them&shiftDR(e)) | shiftDL(g.them&shiftDL(e)))
	n0 := len(g.buf)
	for b := jumpers; b != 0; b &= b - 1 {
		f := Square(bits.TrailingZeros32(b))
		g.empty = e | 1<<f
		g.manJump(f, f, 0, 0)
	}
	for b := g.us & g.kings; b != 0; b &= b - 1 {
		f := Square(bits.TrailingZeros32(b))
		g.empty = e | 1<<f
		g.kingJump(f, f, 0, 0)
	}
	g.empty = e
	return len(g.buf) > n0
}

// oldManJumps[f][d] is a man's jump from f up-left (d=0) or up-right (d=1):
// the square jumped over and the landing, NoSquare when off the board.
var oldManJumps = func() (t [32][2]struct {
	over uint32
	land Square
}) {
	for f := range t {
		for d := range t[f] {
			t[f][d].land = NoSquare
			if r := rays[f][d]; r.n >= 2 {
				t[f][d].over, t[f][d].land = 1<<r.f[0], r.f[1]
			}
		}
	}
	return t
}()

func (g *oldGen) manJump(from, at Square, capt uint32, n int) {
	found := false
	for d := 0; d < 2; d++ {
		j := &oldManJumps[at][d]
		if j.land == NoSquare || g.them&^capt&j.over == 0 || g.empty&(1<<j.land) == 0 {
			continue
		}
		found = true
		g.path[n] = j.land
		g.manJump(from, j.land, capt|j.over, n+1)
	}
	if !found && n > 0 {
		// A man's series is fixed by its captures (each jump climbs two
		// ranks), so it never repeats a move: no need to look for one.
		g.add(from, at, capt, n, false)
	}
}

func (g *oldGen) kingJump(from, at Square, capt uint32, n int) {
	found := false
	for d := 0; d < 4; d++ {
		r := &rays[at][d]
		j := 0
		if g.flying {
			for j < r.n && g.empty&(1<<r.f[j]) != 0 {
				j++
			}
		}
		if j >= r.n-1 {
			continue
		}
		victim := uint32(1) << r.f[j]
		if g.them&^capt&victim == 0 {
			continue
		}
		for j++; j < r.n && g.empty&(1<<r.f[j]) != 0; j++ {
			found = true
			g.path[n] = r.f[j]
			g.kingJump(from, r.f[j], capt|victim, n+1)
			if g.landNext {
				break
			}
		}
	}
	if !found && n > 0 {
		g.add(from, at, capt, n, true)
	}
}

func (g *oldGen) add(from, to Square, capt uint32, n int, dedupe bool) {
	c := bits.OnesCount32(capt)
	if c > g.maxN {
		g.maxN = c
	}
	if !g.loose {
		score := c
		if g.quality {
			score = c<<5 + bits.OnesCount32(capt&g.kings)
		}
		if score < g.best {
			return
		}
		if score > g.best {
			g.best = score
			g.buf = g.buf[:g.start]
		}
	}
	if dedupe && !g.all {
		for i := g.start; i < len(g.buf); i++ {
			if m := &g.buf[i]; m.From == from && m.To == to && m.Captured == capt {
				return
			}
		}
	}
	m := Move{From: from, To: to, N: uint8(n), Path: g.path, Captured: capt}
	g.buf = append(g.buf, m)
}

// plain appends the moves that do not capture.
func (g *oldGen) plain() {
	men := g.us &^ g.kings
	for b := shiftUL(men) & g.empty; b != 0; b &= b - 1 {
		to := Square(bits.TrailingZeros32(b))
		g.addPlain(Square(bits.TrailingZeros32(shiftDR(1<<to))), to)
	}
	for b := shiftUR(men) & g.empty; b != 0; b &= b - 1 {
		to := Square(bits.TrailingZeros32(b))
		g.addPlain(Square(bits.TrailingZeros32(shiftDL(1<<to))), to)
	}
	for b := g.us & g.kings; b != 0; b &= b - 1 {
		f := Square(bits.TrailingZeros32(b))
		for d := 0; d < 4; d++ {
			r := &rays[f][d]
			for j := 0; j < r.n && g.empty&(1<<r.f[j]) != 0; j++ {
				g.addPlain(f, r.f[j])
				if !g.flying {
					break
				}
			}
		}
	}
}

func (g *oldGen) addPlain(from, to Square) {
	m := Move{From: from, To: to, N: 1}
	m.Path[0] = to
	g.buf = append(g.buf, m)
}

// countPlain counts the moves that do not capture.
func (g *oldGen) countPlain() int {
	men := g.us &^ g.kings
	n := bits.OnesCount32(shiftUL(men)&g.empty) + bits.OnesCount32(shiftUR(men)&g.empty)
	for b := g.us & g.kings; b != 0; b &= b - 1 {
		f := Square(bits.TrailingZeros32(b))
		for d := 0; d < 4; d++ {
			r := &rays[f][d]
			for j := 0; j < r.n && g.empty&(1<<r.f[j]) != 0; j++ {
				n++
				if !g.flying {
					break
				}
			}
		}
	}
	return n
}

// moves appends the legal moves of p (mover's view) to g.buf.
func (g *oldGen) moves(p oldRel) {
	g.set(p)
	g.start = len(g.buf)
	if g.captures() && !g.loose {
		return
	}
	g.plain()
}

// oldFromRel turns a move of a rotated (Black) position back to the board.
func oldFromRel(m Move) Move {
	m.From, m.To = 31-m.From, 31-m.To
	for i := 0; i < int(m.N); i++ {
		m.Path[i] = 31 - m.Path[i]
	}
	m.Captured = rotate(m.Captured)
	return m
}

func (v Variant) oldGenerate(buf []Move, p Position, all, loose bool) []Move {
	g := v.oldNewGen(buf)
	g.all = all
	g.loose = g.loose || loose
	g.moves(oldToRel(p))
	if p.ToMove == Black {
		for i := g.start; i < len(g.buf); i++ {
			g.buf[i] = oldFromRel(g.buf[i])
		}
	}
	return g.buf
}

// oldAllCaptures returns every complete capture series, whatever the precedence.
func (v Variant) oldAllCaptures(p Position) []Move {
	g := v.oldNewGen(nil)
	g.all, g.loose = true, true
	g.set(oldToRel(p))
	g.captures()
	if p.ToMove == Black {
		for i := range g.buf {
			g.buf[i] = oldFromRel(g.buf[i])
		}
	}
	return g.buf
}

// oldPerft counts the move paths of the given depth from p (depth 0 is 1).
func (v Variant) oldPerft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	g := v.oldNewGen(make([]Move, 0, 64*depth))
	return g.perft(oldToRel(p), depth)
}

func (g *oldGen) perft(p oldRel, depth int) uint64 {
	g.set(p)
	g.start = len(g.buf)
	if depth == 1 {
		if g.captures() {
			n := len(g.buf) - g.start
			if g.loose {
				n += g.countPlain()
			}
			g.buf = g.buf[:g.start]
			return uint64(n)
		}
		return uint64(g.countPlain())
	}
	start := g.start
	if !g.captures() || g.loose {
		g.plain()
	}
	end := len(g.buf)
	var n uint64
	if depth == 2 && !g.loose {
		// Count the replies without turning the board when the opponent
		// has only men and no capture: the common case.
		men := p.them &^ p.kings
		for i := start; i < end; i++ {
			m := &g.buf[i]
			opp := p.them &^ m.Captured
			if opp&men != opp {
				n += g.perft(oldApplyRel(p, *m), 1)
				continue
			}
			us := p.us&^(1<<m.From) | 1<<m.To
			empty := ^(us | opp)
			if opp&(shiftUR(us&shiftUR(empty))|shiftUL(us&shiftUL(empty))) != 0 {
				n += g.perft(oldApplyRel(p, *m), 1)
				continue
			}
			n += uint64(bits.OnesCount32(shiftDL(opp)&empty) + bits.OnesCount32(shiftDR(opp)&empty))
		}
		g.buf = g.buf[:start]
		return n
	}
	for i := start; i < end; i++ {
		n += g.perft(oldApplyRel(p, g.buf[i]), depth-1)
	}
	g.buf = g.buf[:start]
	return n
}
