package draughts

import "math/bits"

// MaxLandings is the most landings a series can have (every enemy piece taken).
const MaxLandings = 12

// Move is one move: the start square, the landings in order (the last is To)
// and the captured pieces. A plain move has one landing and no captures.
// Two moves with the same From, To and Captured are the same move (Path is a
// witness of the route); Same compares them that way.
type Move struct {
	From, To Square
	N        uint8               // number of landings
	Path     [MaxLandings]Square // Path[:N] are the landings; Path[N-1] == To
	Captured uint32              // the captured pieces, one bit per square
}

// Landings returns the landing squares, To last.
func (m Move) Landings() []Square { return append([]Square(nil), m.Path[:m.N]...) }

// IsCapture reports whether m captures.
func (m Move) IsCapture() bool { return m.Captured != 0 }

// Count returns the number of pieces m captures.
func (m Move) Count() int { return bits.OnesCount32(m.Captured) }

// Same reports whether a and b are the same move: same start, end and captured set.
func Same(a, b Move) bool { return a.From == b.From && a.To == b.To && a.Captured == b.Captured }

// rel is a position seen by the side to move, who always moves up the
// board: Black's positions are turned half a turn.
type rel struct{ us, them, kings uint32 }

func toRel(p Position) rel {
	if p.ToMove == White {
		return rel{p.White, p.Black, p.Kings}
	}
	return rel{rotate(p.Black), rotate(p.White), rotate(p.Kings)}
}

// gen generates moves of one position from the mover's view.
type gen struct {
	flying, landNext, quality bool
	all                       bool // keep every series (witness paths), not one per move
	noPath                    bool // leave Path empty (perft needs no routes)
	flip                      bool // write the moves on the board, turned back from the mover's view
	loose                     bool // keep every complete capture series, ignoring precedence
	us, them, kings, empty    uint32
	buf                       []Move
	start                     int
	best                      int // score of the best series found
	maxN                      int // most pieces captured by any series found
	path                      [MaxLandings]Square
}

func (v Variant) newGen(buf []Move) gen {
	return gen{flying: v.Flying, landNext: v.LandNext || !v.Flying, quality: v.Quality, loose: v.Huff, buf: buf, start: len(buf)}
}

func (g *gen) set(p rel) {
	g.us, g.them, g.kings = p.us, p.them, p.kings
	g.empty = ^(p.us | p.them)
	g.best, g.maxN = 0, 0
}

// captures appends the capture moves; it reports whether there was any.
func (g *gen) captures() bool {
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
		if !kingCanTake(f, g.them, e, g.flying) {
			continue
		}
		g.empty = e | 1<<f
		g.kingJump(f, f, 0, 0)
	}
	g.empty = e
	return len(g.buf) > n0
}

// manJumps[f][d] is a man's jump from f up-left (d=0) or up-right (d=1):
// the square jumped over and the landing, NoSquare when off the board.
var manJumps = func() (t [32][2]struct {
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

func (g *gen) manJump(from, at Square, capt uint32, n int) {
	found := false
	for d := 0; d < 2; d++ {
		j := &manJumps[at][d]
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

func (g *gen) kingJump(from, at Square, capt uint32, n int) {
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

func (g *gen) add(from, to Square, capt uint32, n int, dedupe bool) {
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
	if g.flip {
		from, to, capt = 31-from, 31-to, rotate(capt)
	}
	if dedupe && !g.all {
		for i := g.start; i < len(g.buf); i++ {
			if m := &g.buf[i]; m.From == from && m.To == to && m.Captured == capt {
				return
			}
		}
	}
	g.buf = append(g.buf, Move{From: from, To: to, N: uint8(n), Captured: capt})
	if !g.noPath {
		m := &g.buf[len(g.buf)-1]
		m.Path = g.path
		if g.flip {
			for i := range m.Path[:n] {
				m.Path[i] = 31 - m.Path[i]
			}
		}
	}
}

// plain appends the moves that do not capture.
func (g *gen) plain() {
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

func (g *gen) addPlain(from, to Square) {
	if g.flip {
		from, to = 31-from, 31-to
	}
	m := Move{From: from, To: to, N: 1}
	m.Path[0] = to
	g.buf = append(g.buf, m)
}

// moves appends the legal moves of p (mover's view) to g.buf.
func (g *gen) moves(p rel) {
	g.set(p)
	g.start = len(g.buf)
	if g.captures() && !g.loose {
		return
	}
	g.plain()
}

func (v Variant) generate(buf []Move, p Position, all, loose bool) []Move {
	g := v.newGen(buf)
	g.all = all
	g.loose = g.loose || loose
	g.flip = p.ToMove == Black
	g.moves(toRel(p))
	return g.buf
}

// Moves returns the legal moves of p, one per move (same start, end and
// captured set), in a fresh slice. When capturing is obligatory only the
// captures that the game's precedence allows are returned; with huffing
// every plain move and every complete capture series is legal.
func (v Variant) Moves(p Position) []Move { return v.generate(nil, p, false, false) }

// AppendMoves appends the legal moves of p (as Moves returns them) to buf
// and returns the extended slice: a search can reuse one buffer.
func (v Variant) AppendMoves(buf []Move, p Position) []Move {
	return v.generate(buf, p, false, false)
}

// series returns every legal series with its route: the same move may
// appear with several paths.
func (v Variant) series(p Position) []Move { return v.generate(nil, p, true, false) }

// allCaptures returns every complete capture series, whatever the precedence.
func (v Variant) allCaptures(p Position) []Move {
	g := v.newGen(nil)
	g.all, g.loose = true, true
	g.flip = p.ToMove == Black
	g.set(toRel(p))
	g.captures()
	return g.buf
}

// Apply plays m on p without checking it; m must come from Moves(p).
// A man that ends its move on the far rank becomes a king.
func (v Variant) Apply(p Position, m Move) Position {
	from, to := uint32(1)<<m.From, uint32(1)<<m.To
	q := p
	promo := topRank
	if p.ToMove == White {
		q.White = q.White&^from | to
		q.Black &^= m.Captured
	} else {
		q.Black = q.Black&^from | to
		q.White &^= m.Captured
		promo = lowRank
	}
	q.Kings &^= m.Captured
	if p.Kings&from != 0 {
		q.Kings = q.Kings&^from | to
	} else if to&promo != 0 {
		q.Kings |= to
	}
	q.ToMove = p.ToMove.Other()
	return q
}
