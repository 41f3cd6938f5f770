package ultradamas

import "math/bits"

// Kind is the kind of one action.
type Kind uint8

// The kinds of actions.
const (
	// NoAction marks the missing second action of a one-action move.
	NoAction Kind = iota
	// Shift is a step (levels 1-4) or an ultra king's teleport: From-To.
	Shift
	// Jump is a series of jumps (captures and friendly jumps) from From,
	// ending on To; the route is worked out from the position (see Path).
	Jump
	// Consume is an ultra king taking the adjacent enemy on To: FromxTo.
	Consume
	// Load is the piece on From climbing onto the ultra king on To: From^To.
	Load
	// Drop is the ultra king on From putting its carried piece on To: From^To.
	Drop
)

// Action is one action of a move: a double ultra king makes one or two,
// every other piece one.
type Action struct {
	Kind     Kind
	From, To Square
}

// Mover is the square of the piece that makes the action (the carrier for
// a load).
func (a Action) Mover() Square {
	if a.Kind == Load {
		return a.To
	}
	return a.From
}

// End is where the acting piece stands after the action.
func (a Action) End() Square {
	if a.Kind == Drop {
		return a.From
	}
	return a.To
}

// Move is one legal move: one action, or two for a double ultra king
// (Second.Kind is NoAction otherwise), and the squares of the pieces it
// captures. Two moves are the same move exactly when they are ==.
type Move struct {
	Captured      uint64
	First, Second Action
}

// promoRank[side][level] is the rank on which a piece of that level ends
// its move to be promoted, or -1.
var promoRank = [2][7]int{
	{-1, 7, 0, 7, 0, -1, -1},
	{-1, 0, 7, 0, 7, -1, -1},
}

func promoted(side Side, level int, to Square) int {
	if promoRank[side][level] == to.Rank() {
		return level + 1
	}
	return level
}

// Apply returns the position after m. m must be a legal move of p (one
// that Moves returns); Apply does not check it.
func (p Position) Apply(m Move) Position {
	side := p.turn
	reset := m.Captured != 0
	if m.First.Kind == Jump {
		from := bit(m.First.From)
		level := p.levelAt(from)
		p.clear(from | m.Captured)
		nl := promoted(side, level, m.First.To)
		reset = reset || nl != level
		p.put(m.First.To, side, nl, 0)
	} else {
		reset = p.do(side, m.First) || reset
		if m.Second.Kind != NoAction {
			reset = p.do(side, m.Second) || reset
		}
	}
	if reset {
		p.ply = 0
	} else if p.ply < 255 {
		p.ply++
	}
	p.turn ^= 1
	return p
}

// do applies one non-jump action of side and reports whether it promoted
// a piece (a promotion on a step or drop, or a merge).
func (p *Position) do(side Side, a Action) bool {
	from, to := bit(a.From), bit(a.To)
	switch a.Kind {
	case Shift, Consume:
		level, carried := p.levelAt(from), p.carriedAt(from)
		p.clear(from | to)
		nl := promoted(side, level, a.To)
		p.put(a.To, side, nl, carried)
		return nl != level
	case Load:
		level := p.levelAt(from)
		p.clear(from)
		if level == UltraKing {
			p.lvl[UltraKing-1] &^= to
			p.lvl[DoubleUltra-1] |= to
			return true
		}
		p.carry[level-1] |= to
	case Drop:
		level := p.carriedAt(from)
		p.carry[level-1] &^= from
		nl := promoted(side, level, a.To)
		p.put(a.To, side, nl, 0)
		return nl != level
	}
	return false
}

// gen is the state of one move generation.
type gen struct {
	p       *Position
	moves   []Move
	side    Side
	own     uint64 // the side's pieces, without the piece making a series
	enemy   uint64
	occ     uint64 // every piece, without the piece making a series
	from    Square
	level   int
	mark    int  // first move of the current piece, for deduplication
	capOnly bool // record capturing series only
	// The (square, jumped) states a series of the current piece has
	// explored, with three or more pieces jumped (fewer cannot be reached
	// twice often enough to pay for a look-up): the first ones in near,
	// the rest in seen. A state fixes the rest of the series, so a state
	// seen before adds nothing.
	near  [16][2]uint64
	nnear int
	seen  map[[2]uint64]struct{}

	// Route search (Path): the move wanted, the depth limit and the route.
	want     *Move
	limit    int
	depth    int
	route    [32]Square
	found    bool
	foundLen int
}

// rayBits[s][d][k] is the square k+1 steps from s in direction d as a
// bitboard, 0 off the board.
var rayBits = func() (t [64][8][3]uint64) {
	for s := range t {
		for d := range t[s] {
			for k, q := range ray[s][d] {
				if q >= 0 {
					t[s][d][k] = bit(q)
				}
			}
		}
	}
	return t
}()

// allDirs are the eight directions, clockwise from north.
var allDirs = [8]int{dirN, dirNE, dirE, dirSE, dirS, dirSW, dirW, dirNW}

// hop is one jump available to a piece: where it lands, what it jumps.
type hop struct {
	to      Square
	over    uint64
	capture bool
}

// hops lists the jumps from s for the current piece, given the pieces
// already jumped; manFirst restricts a man to its forward directions.
func (g *gen) hops(s Square, jumped uint64, manFirst bool, out *[8]hop) int {
	n := 0
	dirs := allDirs[:]
	if manFirst {
		dirs = forward[g.side&1][:]
	}
	for _, d := range dirs {
		rb := &rayBits[s][d]
		b1, b2 := rb[0], rb[1]
		if b2 == 0 {
			continue
		}
		switch {
		case g.enemy&b1 != 0:
			if jumped&b1 != 0 {
				continue
			}
			if g.occ&b2 == 0 {
				out[n] = hop{ray[s][d][1], b1, true}
				n++
			} else if g.level >= TripleKing && g.enemy&b2 != 0 && jumped&b2 == 0 && rb[2] != 0 && g.occ&rb[2] == 0 {
				out[n] = hop{ray[s][d][2], b1 | b2, true}
				n++
			}
		case g.occ&b1 == 0:
			if g.level == QuadKing && g.enemy&b2 != 0 && jumped&b2 == 0 && rb[2] != 0 && g.occ&rb[2] == 0 {
				out[n] = hop{ray[s][d][2], b2, true}
				n++
			}
		default: // a friendly piece
			if g.level == TripleKing && jumped&b1 == 0 && g.occ&b2 == 0 {
				out[n] = hop{ray[s][d][1], b1, false}
				n++
			}
		}
	}
	return n
}

// series explores every way the current piece can go on jumping from s.
func (g *gen) series(s Square, jumped, captured uint64, manFirst bool) {
	if g.found {
		return
	}
	if bits.OnesCount64(jumped) >= 3 && g.want == nil {
		key := [2]uint64{uint64(s), jumped}
		if g.explored(key) {
			return
		}
	}
	var hs [8]hop
	n := g.hops(s, jumped, manFirst, &hs)
	canCapture := false
	for _, h := range hs[:n] {
		canCapture = canCapture || h.capture
	}
	if jumped != 0 && !canCapture {
		g.add(s, captured)
	}
	if g.want != nil && g.depth >= g.limit {
		return
	}
	for _, h := range hs[:n] {
		if g.found {
			return
		}
		c := captured
		if h.capture {
			c |= h.over
		}
		g.route[g.depth] = h.to
		g.depth++
		g.series(h.to, jumped|h.over, c, false)
		g.depth--
	}
}

// explored reports whether the series state key was explored already,
// and records it.
func (g *gen) explored(key [2]uint64) bool {
	for _, k := range g.near[:g.nnear] {
		if k == key {
			return true
		}
	}
	if g.nnear < len(g.near) {
		g.near[g.nnear] = key
		g.nnear++
		return false
	}
	if g.seen == nil {
		g.seen = map[[2]uint64]struct{}{}
	}
	if _, ok := g.seen[key]; ok {
		return true
	}
	g.seen[key] = struct{}{}
	return false
}

// add records the series of the current piece ending on to.
func (g *gen) add(to Square, captured uint64) {
	if captured == 0 && (to == g.from || g.capOnly) {
		return
	}
	if g.want != nil {
		if to == g.want.First.To && captured == g.want.Captured {
			g.found, g.foundLen = true, g.depth
		}
		return
	}
	for _, m := range g.moves[g.mark:] {
		if m.First.To == to && m.Captured == captured {
			return
		}
	}
	g.moves = append(g.moves, Move{Captured: captured, First: Action{Jump, g.from, to}})
}

// startSeries sets g up for a series of the piece on s.
func (g *gen) startSeries(s Square, level int) {
	all := g.p.occ[0] | g.p.occ[1]
	g.from, g.level, g.mark = s, level, len(g.moves)
	g.own = g.p.occ[g.side] &^ bit(s)
	g.enemy = g.p.occ[g.side^1]
	g.occ = all &^ bit(s)
	g.nnear = 0
	if len(g.seen) > 0 {
		clear(g.seen)
	}
}

// reset sets g up for a new generation of p's moves into buf[:0],
// keeping its series table.
func (g *gen) reset(p *Position, buf []Move) {
	g.p, g.moves, g.side = p, buf[:0], p.turn
	g.capOnly, g.want, g.found, g.depth = false, nil, false, 0
}

// Moves appends the legal moves of p to buf[:0] and returns the result.
// When the side to move has a capturing move, only capturing moves (and a
// double ultra king's moves that start with a consume) are legal.
func (p *Position) Moves(buf []Move) []Move {
	g := gen{p: p, moves: buf[:0], side: p.turn}
	p.captures(&g)
	if len(g.moves) == 0 {
		p.quiet(&g)
	}
	return g.moves
}

// carriers is the set of loaded ultra kings.
func (p *Position) carriers() uint64 {
	return p.carry[0] | p.carry[1] | p.carry[2] | p.carry[3]
}

// captures appends the capturing moves.
func (p *Position) captures(g *gen) {
	side := p.turn
	own, enemy := p.occ[side], p.occ[side^1]
	g.capOnly = true
	empty := ^(own | enemy)
	// Men: a capture starts with a forward jump.
	men := own & p.lvl[Man-1]
	var cand uint64
	for _, d := range forward[side] {
		cand |= shift(shift(empty, d^4)&enemy, d^4)
	}
	for b := men & cand; b != 0; b &= b - 1 {
		g.startSeries(first(b), Man)
		g.series(first(b), 0, 0, true)
	}
	for level := King; level <= QuadKing; level++ {
		for b := own & p.lvl[level-1]; b != 0; b &= b - 1 {
			s := first(b)
			if level != TripleKing && around[s]&enemy == 0 && level != QuadKing {
				continue
			}
			g.startSeries(s, level)
			g.series(s, 0, 0, false)
		}
	}
	ultras := own & (p.lvl[UltraKing-1] | p.lvl[DoubleUltra-1]) &^ p.carriers()
	for b := ultras; b != 0; b &= b - 1 {
		u := first(b)
		for c := around[u] & enemy; c != 0; c &= c - 1 {
			a := Action{Consume, u, first(c)}
			if p.lvl[DoubleUltra-1]&bit(u) != 0 {
				g.second(a, bit(first(c)))
			} else {
				g.moves = append(g.moves, Move{Captured: bit(first(c)), First: a})
			}
		}
	}
}

// quiet appends the moves of a position where the side cannot capture.
func (p *Position) quiet(g *gen) {
	side := p.turn
	own, enemy := p.occ[side], p.occ[side^1]
	empty := ^(own | enemy)
	g.capOnly = false
	men := own & p.lvl[Man-1]
	for _, d := range forward[side] {
		for t := shift(men, d) & empty; t != 0; t &= t - 1 {
			to := first(t)
			g.moves = append(g.moves, Move{First: Action{Shift, to - Square(delta[d]), to}})
		}
	}
	kings := own & (p.lvl[King-1] | p.lvl[TripleKing-1] | p.lvl[QuadKing-1])
	for d := 0; d < 8; d++ {
		for t := shift(kings, d) & empty; t != 0; t &= t - 1 {
			to := first(t)
			g.moves = append(g.moves, Move{First: Action{Shift, to - Square(delta[d]), to}})
		}
	}
	for b := own & p.lvl[TripleKing-1]; b != 0; b &= b - 1 {
		g.startSeries(first(b), TripleKing)
		g.series(first(b), 0, 0, false)
	}
	carriers := p.carriers()
	for b := own & (p.lvl[UltraKing-1] | p.lvl[DoubleUltra-1]); b != 0; b &= b - 1 {
		u := first(b)
		duk := p.lvl[DoubleUltra-1]&bit(u) != 0
		var acts [maxUltraActions]Action
		na := p.ultraActions(u, carriers, empty, duk, &acts)
		for _, a := range acts[:na] {
			if duk {
				g.second(a, 0)
			} else {
				g.moves = append(g.moves, Move{First: a})
			}
		}
	}
}

// maxUltraActions bounds the quiet actions of one ultra king: a drop or
// teleport to each empty square, or those and a load from each neighbour.
const maxUltraActions = 64 + 8

// ultraActions writes the quiet actions of the ultra king on u to out
// and returns their number: drops when loaded, otherwise teleports and
// loads.
func (p *Position) ultraActions(u Square, carriers, empty uint64, duk bool, out *[maxUltraActions]Action) int {
	n := 0
	if carriers&bit(u) != 0 {
		for e := empty; e != 0; e &= e - 1 {
			out[n%maxUltraActions] = Action{Drop, u, first(e)}
			n++
		}
		return n
	}
	for e := empty; e != 0; e &= e - 1 {
		out[n%maxUltraActions] = Action{Shift, u, first(e)}
		n++
	}
	for c := around[u] & p.occ[p.turn] & p.climbers(carriers, duk); c != 0; c &= c - 1 {
		out[n%maxUltraActions] = Action{Load, first(c), u}
		n++
	}
	return n
}

// climbers is the set of pieces that may climb onto an ultra king (a
// double ultra king when duk): levels 1-4 and unloaded ultra kings.
func (p *Position) climbers(carriers uint64, duk bool) uint64 {
	c := p.lvl[Man-1] | p.lvl[King-1] | p.lvl[TripleKing-1] | p.lvl[QuadKing-1]
	if !duk {
		c |= p.lvl[UltraKing-1] &^ carriers
	}
	return c
}

// countUltraActions returns the number of actions ultraActions writes.
func (p *Position) countUltraActions(u Square, carriers, empty uint64, duk bool) int {
	n := bits.OnesCount64(empty)
	if carriers&bit(u) == 0 {
		n += bits.OnesCount64(around[u] & p.occ[p.turn] & p.climbers(carriers, duk))
	}
	return n
}

// second appends the moves of a double ultra king whose first action is a
// (captured holds what it consumed): when it can then consume it must,
// otherwise it may stop or make any second action.
func (g *gen) second(a Action, captured uint64) {
	q := *g.p
	q.do(g.side, a)
	d := a.End()
	enemy := q.occ[g.side^1]
	if q.carriers()&bit(d) == 0 && around[d]&enemy != 0 {
		for c := around[d] & enemy; c != 0; c &= c - 1 {
			g.moves = append(g.moves, Move{Captured: captured | bit(first(c)), First: a, Second: Action{Consume, d, first(c)}})
		}
		return
	}
	g.moves = append(g.moves, Move{Captured: captured, First: a})
	empty := ^(q.occ[0] | q.occ[1])
	var acts [maxUltraActions]Action
	na := q.ultraActions(d, q.carriers(), empty, true, &acts)
	for _, b := range acts[:na] {
		g.moves = append(g.moves, Move{Captured: captured, First: a, Second: b})
	}
}
