package ultradamas

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// This file keeps the move generator as it was before issue 16 (movegen.go
// of that time, every name prefixed with "old"), as the reference the fast
// generator is compared with on random positions, and as the "before" of
// BenchmarkPerft (BenchmarkPerftOld, in the same run).

// Apply returns the position after m. m must be a legal move of p (one
// that Moves returns); Apply does not check it.
func (p Position) oldApply(m Move) Position {
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
		reset = p.oldDo(side, m.First) || reset
		if m.Second.Kind != NoAction {
			reset = p.oldDo(side, m.Second) || reset
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
func (p *Position) oldDo(side Side, a Action) bool {
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

// oldGen is the state of one move generation.
type oldGen struct {
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
	seen    map[[2]uint64]struct{}

	// Route search (Path): the move wanted, the depth limit and the route.
	want     *Move
	limit    int
	depth    int
	route    [32]Square
	found    bool
	foundLen int
}

// oldHop is one jump available to a piece: where it lands, what it jumps.
type oldHop struct {
	to      Square
	over    uint64
	capture bool
}

// hops lists the jumps from s for the current piece, given the pieces
// already jumped; manFirst restricts a man to its forward directions.
func (g *oldGen) oldHops(s Square, jumped uint64, manFirst bool, out *[8]oldHop) int {
	n := 0
	dirs := [8]int{0, 1, 2, 3, 4, 5, 6, 7}
	nd := 8
	if manFirst {
		f := forward[g.side]
		dirs[0], dirs[1], dirs[2] = f[0], f[1], f[2]
		nd = 3
	}
	for _, d := range dirs[:nd] {
		r := &ray[s][d]
		s1 := r[0]
		if s1 < 0 || r[1] < 0 {
			continue
		}
		b1, b2 := bit(s1), bit(r[1])
		switch {
		case g.enemy&b1 != 0:
			if jumped&b1 != 0 {
				continue
			}
			if g.occ&b2 == 0 {
				out[n] = oldHop{r[1], b1, true}
				n++
			} else if g.level >= TripleKing && g.enemy&b2 != 0 && jumped&b2 == 0 && r[2] >= 0 && g.occ&bit(r[2]) == 0 {
				out[n] = oldHop{r[2], b1 | b2, true}
				n++
			}
		case g.occ&b1 == 0:
			if g.level == QuadKing && g.enemy&b2 != 0 && jumped&b2 == 0 && r[2] >= 0 && g.occ&bit(r[2]) == 0 {
				out[n] = oldHop{r[2], b2, true}
				n++
			}
		default: // a friendly piece
			if g.level == TripleKing && jumped&b1 == 0 && g.occ&b2 == 0 {
				out[n] = oldHop{r[1], b1, false}
				n++
			}
		}
	}
	return n
}

// series explores every way the current piece can go on jumping from s.
func (g *oldGen) oldSeries(s Square, jumped, captured uint64, manFirst bool) {
	if g.found {
		return
	}
	if bits.OnesCount64(jumped) >= 2 && g.want == nil {
		key := [2]uint64{uint64(s), jumped}
		if g.seen == nil {
			g.seen = map[[2]uint64]struct{}{}
		}
		if _, ok := g.seen[key]; ok {
			return
		}
		g.seen[key] = struct{}{}
	}
	var hs [8]oldHop
	n := g.oldHops(s, jumped, manFirst, &hs)
	canCapture := false
	for _, h := range hs[:n] {
		canCapture = canCapture || h.capture
	}
	if jumped != 0 && !canCapture {
		g.oldAdd(s, captured)
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
		g.oldSeries(h.to, jumped|h.over, c, false)
		g.depth--
	}
}

// add records the series of the current piece ending on to.
func (g *oldGen) oldAdd(to Square, captured uint64) {
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
func (g *oldGen) oldStartSeries(s Square, level int) {
	all := g.p.occ[0] | g.p.occ[1]
	g.from, g.level, g.mark = s, level, len(g.moves)
	g.own = g.p.occ[g.side] &^ bit(s)
	g.enemy = g.p.occ[g.side^1]
	g.occ = all &^ bit(s)
	if g.seen != nil {
		clear(g.seen)
	}
}

// Moves appends the legal moves of p to buf[:0] and returns the result.
// When the side to move has a capturing move, only capturing moves (and a
// double ultra king's moves that start with a consume) are legal.
func (p *Position) oldMoves(buf []Move) []Move {
	g := oldGen{p: p, moves: buf[:0], side: p.turn}
	p.oldCaptures(&g)
	if len(g.moves) == 0 {
		p.oldQuiet(&g)
	}
	return g.moves
}

// carriers is the set of loaded ultra kings.
func (p *Position) oldCarriers() uint64 {
	return p.carry[0] | p.carry[1] | p.carry[2] | p.carry[3]
}

// captures appends the capturing moves.
func (p *Position) oldCaptures(g *oldGen) {
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
		g.oldStartSeries(first(b), Man)
		g.oldSeries(first(b), 0, 0, true)
	}
	for level := King; level <= QuadKing; level++ {
		for b := own & p.lvl[level-1]; b != 0; b &= b - 1 {
			s := first(b)
			if level != TripleKing && around[s]&enemy == 0 && level != QuadKing {
				continue
			}
			g.oldStartSeries(s, level)
			g.oldSeries(s, 0, 0, false)
		}
	}
	ultras := own & (p.lvl[UltraKing-1] | p.lvl[DoubleUltra-1]) &^ p.oldCarriers()
	for b := ultras; b != 0; b &= b - 1 {
		u := first(b)
		for c := around[u] & enemy; c != 0; c &= c - 1 {
			a := Action{Consume, u, first(c)}
			if p.lvl[DoubleUltra-1]&bit(u) != 0 {
				g.oldSecond(a, bit(first(c)))
			} else {
				g.moves = append(g.moves, Move{Captured: bit(first(c)), First: a})
			}
		}
	}
}

// quiet appends the moves of a position where the side cannot capture.
func (p *Position) oldQuiet(g *oldGen) {
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
		g.oldStartSeries(first(b), TripleKing)
		g.oldSeries(first(b), 0, 0, false)
	}
	carriers := p.oldCarriers()
	for b := own & (p.lvl[UltraKing-1] | p.lvl[DoubleUltra-1]); b != 0; b &= b - 1 {
		u := first(b)
		duk := p.lvl[DoubleUltra-1]&bit(u) != 0
		for _, a := range p.oldUltraActions(u, carriers, empty, duk) {
			if duk {
				g.oldSecond(a, 0)
			} else {
				g.moves = append(g.moves, Move{First: a})
			}
		}
	}
}

// ultraActions lists the quiet actions of the ultra king on u: drops when
// loaded, otherwise teleports and loads.
func (p *Position) oldUltraActions(u Square, carriers, empty uint64, duk bool) []Action {
	var out []Action
	if carriers&bit(u) != 0 {
		for e := empty; e != 0; e &= e - 1 {
			out = append(out, Action{Drop, u, first(e)})
		}
		return out
	}
	for e := empty; e != 0; e &= e - 1 {
		out = append(out, Action{Shift, u, first(e)})
	}
	climbers := p.lvl[Man-1] | p.lvl[King-1] | p.lvl[TripleKing-1] | p.lvl[QuadKing-1]
	if !duk {
		climbers |= p.lvl[UltraKing-1] &^ carriers
	}
	for c := around[u] & p.occ[p.turn] & climbers; c != 0; c &= c - 1 {
		out = append(out, Action{Load, first(c), u})
	}
	return out
}

// second appends the moves of a double ultra king whose first action is a
// (captured holds what it consumed): when it can then consume it must,
// otherwise it may stop or make any second action.
func (g *oldGen) oldSecond(a Action, captured uint64) {
	q := *g.p
	q.oldDo(g.side, a)
	d := a.End()
	enemy := q.occ[g.side^1]
	if q.oldCarriers()&bit(d) == 0 && around[d]&enemy != 0 {
		for c := around[d] & enemy; c != 0; c &= c - 1 {
			g.moves = append(g.moves, Move{Captured: captured | bit(first(c)), First: a, Second: Action{Consume, d, first(c)}})
		}
		return
	}
	g.moves = append(g.moves, Move{Captured: captured, First: a})
	empty := ^(q.occ[0] | q.occ[1])
	for _, b := range q.oldUltraActions(d, q.oldCarriers(), empty, true) {
		g.moves = append(g.moves, Move{Captured: captured, First: a, Second: b})
	}
}

// Perft counts the leaves of the move tree of p at the given depth
// (draw rules ignored; a side with no move has no leaves below it).
func (p Position) oldPerft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 64)
	}
	return oldPerftRec(&p, depth, bufs)
}

func oldPerftRec(p *Position, depth int, bufs [][]Move) uint64 {
	ms := p.Moves(bufs[depth-1])
	bufs[depth-1] = ms
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, m := range ms {
		q := p.oldApply(m)
		n += oldPerftRec(&q, depth-1, bufs)
	}
	return n
}

// oldMoveTexts returns the texts of the old generator's moves, sorted.
func (p Position) oldMoveTexts() []string {
	var out []string
	for _, m := range p.oldMoves(nil) {
		out = append(out, p.Text(m))
	}
	slices.Sort(out)
	return out
}

// newMoveTexts returns the texts of the generator's moves, sorted.
func (p Position) newMoveTexts() []string {
	var out []string
	for _, m := range p.Moves(nil) {
		out = append(out, p.Text(m))
	}
	slices.Sort(out)
	return out
}

// comparePositions returns random positions: random placements of every
// level (with carried pieces), random formations, and positions of random
// games from them.
func comparePositions(seed uint64, n int) []Position {
	r := rand.New(rand.NewPCG(seed, 9))
	var out []Position
	for len(out) < n {
		var p Position
		switch r.IntN(3) {
		case 0:
			p = randomPosition(r)
		case 1:
			p = FromFormations(randomFormation(r, Red), randomFormation(r, Black))
		default:
			p = Start()
		}
		for i := r.IntN(80); i > 0; i-- {
			ms := p.oldMoves(nil)
			if len(ms) == 0 {
				break
			}
			p = p.oldApply(ms[r.IntN(len(ms))])
		}
		out = append(out, p)
	}
	return out
}

// TestGeneratorMatchesOld compares the move generator with the old one on
// random positions: the same moves (as texts and as values), the same
// positions after each, and the same perft counts at small depths, counted
// by Perft and by PerftCounts.
func TestGeneratorMatchesOld(t *testing.T) {
	n, depth := 1500, 3
	if testing.Short() {
		n, depth = 300, 2
	}
	for k, p := range comparePositions(11, n) {
		got, want := p.newMoveTexts(), p.oldMoveTexts()
		if !slices.Equal(got, want) {
			t.Fatalf("%s: moves\n%v\nold\n%v", p.FEN(), got, want)
		}
		for _, m := range p.Moves(nil) {
			if !slices.Contains(p.oldMoves(nil), m) {
				t.Fatalf("%s: %s is no old move", p.FEN(), p.Text(m))
			}
			if got, want := p.Apply(m), p.oldApply(m); got != want {
				t.Fatalf("%s: %s gives %s, old %s", p.FEN(), p.Text(m), got.FEN(), want.FEN())
			}
		}
		d := 2
		if k%10 == 0 {
			d = depth
		}
		counts, err := p.PerftCounts(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		for dd := 0; dd <= d; dd++ {
			want := p.oldPerft(dd)
			if counts[dd] != want {
				t.Fatalf("%s: PerftCounts[%d] = %d, old perft %d", p.FEN(), dd, counts[dd], want)
			}
			if got := p.Perft(dd); got != want {
				t.Fatalf("%s: perft(%d) = %d, old %d", p.FEN(), dd, got, want)
			}
		}
	}
}

// perftBenches are the positions and depths of BenchmarkPerft: the
// default start, a middle game with kings of levels 2-4, and the same
// with ultra kings (whose teleports make most of its leaves).
var perftBenches = []struct {
	name  string
	fen   string
	depth int
}{
	{"start", "", 5},
	{"kings", "R:Ra1,c1,2e1,3b2,d2,4f2,a3,c3,g5:Bb6,d6,2f6,h6,3a7,c7,4e7,b8,d8,f8", 5},
	{"ultras", "R:Ra1,c1,2e1,3b2,d2,4f2,a3,5e3+1,g5:Bb6,d6,2f6,h6,3a7,c7,4e7,b8,6d8,f8", 4},
}

func benchPosition(b *testing.B, fen string) Position {
	if fen == "" {
		return Start()
	}
	p, err := ParseFEN(fen)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPerftOld is BenchmarkPerft with the old generator: the before
// of the before/after table, in the same run.
func BenchmarkPerftOld(b *testing.B) {
	for _, c := range perftBenches {
		p := benchPosition(b, c.fen)
		b.Run(c.name, func(b *testing.B) {
			var n uint64
			for b.Loop() {
				n += p.oldPerft(c.depth)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
}
