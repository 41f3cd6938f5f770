package ultradamas

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// startPerft are the perft counts from the default formation
// (R:Ra1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8).
// No count for Ultradamas is published, so they are derived independently:
//
// Depth 1, by hand (Red men step straight ahead or diagonally forward):
//
//	8  .  b1 .  b1 .  b1 .  b1
//	7  b1 .  b1 .  b1 .  b1 .
//	6  .  b1 .  b1 .  b1 .  b1
//	5  .  .  .  .  .  .  .  .
//	4  .  .  .  .  .  .  .  .
//	3  r1 .  r1 .  r1 .  r1 .
//	2  .  r1 .  r1 .  r1 .  r1
//	1  r1 .  r1 .  r1 .  r1 .
//	    a  b  c  d  e  f  g  h
//
//	rank 3: a3 -> a4, b4 (2); c3, e3, g3 -> three squares each (9)  = 11
//	rank 2: b2 -> b3, d2 -> d3, f2 -> f3, h2 -> h3 (diagonals taken) = 4
//	rank 1: a1 -> a2, c1 -> c2, e1 -> e2, g1 -> g2                  = 4
//	                                                           total  19
//
// Depth 2: no Red move reaches rank 5, so Black's 19 moves (the mirror
// image) are the same after each: 19 * 19 = 361.
//
// Depths 3 to 5 come from refPerft below, a separate plain generator
// written straight from the rules page (mailbox board, moves told apart by
// a map keyed by piece, end and captures); TestPerftStart runs it. At
// depth 4 Black can already be crowned, as in c3-b4 d6-d5 e3-d4
// d5xd3xd1xf1xf3xh3xh1xf1.
var startPerft = []uint64{1, 19, 361, 6888, 122684, 2207096}

func TestPerftStart(t *testing.T) {
	p := Start()
	for d, want := range startPerft {
		if got := p.Perft(d); got != want {
			t.Errorf("perft(%d) = %d, want %d", d, got, want)
		}
	}
	ref := refFromPosition(t, p)
	for d, want := range startPerft {
		if d == 5 && testing.Short() {
			break
		}
		if got := refPerft(t, ref, d); got != want {
			t.Errorf("reference perft(%d) = %d, table says %d", d, got, want)
		}
	}
	st, err := Game{}.Load(p.FEN())
	if err != nil {
		t.Fatal(err)
	}
	if got := st.(rules.Perfter).Perft(4); got != startPerft[4] {
		t.Errorf("State.Perft(4) = %d, want %d", got, startPerft[4])
	}
	if got := (Game{}).Start(0).(rules.Perfter).Perft(3); got != startPerft[3] {
		t.Errorf("formation phase Perft(3) = %d, want %d (the default formation)", got, startPerft[3])
	}
}

// The reference generator: a separate, plain implementation of the rules
// page on a mailbox board, used to check the counts of the fast one.

// refBoard is the reference's board: the signed level of each square's
// piece (+ Red, - Black) and the level of the piece an ultra king carries.
type refBoard struct {
	sq  [64]int8
	cr  [64]int8
	red bool
}

// refKey identifies a move as the page does: the piece (its start), the
// end and the captured pieces; for a double ultra king, both actions.
type refKey struct {
	kind1, from1, to1 int8
	kind2, from2, to2 int8
	captured          uint64
}

func refFromPosition(t *testing.T, p Position) refBoard {
	t.Helper()
	var b refBoard
	b.red = p.Turn() == Red
	for s := Square(0); s < 64; s++ {
		if side, level, carried, ok := p.Piece(s); ok {
			b.sq[s] = int8(level) * (1 - 2*int8(side))
			b.cr[s] = int8(carried)
		}
	}
	return b
}

func abs8(v int8) int8 {
	if v < 0 {
		return -v
	}
	return v
}

// refChildren returns the position after each legal move.
func refChildren(t *testing.T, b refBoard) []refBoard {
	g := refGen{b: b, me: 1, fwd: 1, moves: map[refKey]refBoard{}}
	if !b.red {
		g.me, g.fwd = -1, -1
	}
	g.captures()
	if len(g.moves) == 0 {
		g.plain()
	}
	var out []refBoard
	for _, c := range g.moves {
		out = append(out, c)
	}
	return out
}

// refGen gathers the reference's moves of board b, whose mover is me (+1
// Red, -1 Black) moving forward by fwd ranks.
type refGen struct {
	b     refBoard
	me    int8
	fwd   int
	moves map[refKey]refBoard
}

func refOn(x, y int) bool { return x >= 0 && x < 8 && y >= 0 && y < 8 }
func refAt(x, y int) int  { return y*8 + x }

// crown: the level a piece of level lv has after ending a move on rank y.
func (g *refGen) crown(lv int8, y int) int8 {
	me := g.me
	far := (me == 1 && y == 7) || (me == -1 && y == 0)
	own := (me == 1 && y == 0) || (me == -1 && y == 7)
	if ((lv == 1 || lv == 3) && far) || ((lv == 2 || lv == 4) && own) {
		return lv + 1
	}
	return lv
}

func (g *refGen) put(c *refBoard, i int, lv, carried int8) { c.sq[i], c.cr[i] = lv*g.me, carried }

// act applies one ultra-king action (kinds: 1 teleport, 3 consume,
// 4 load from->to, 5 drop from->to) and returns the board.
func (g *refGen) act(c refBoard, kind, from, to int8) refBoard {
	switch kind {
	case 1, 3:
		lv, cr := abs8(c.sq[from]), c.cr[from]
		c.sq[from], c.cr[from] = 0, 0
		g.put(&c, int(to), lv, cr)
	case 4:
		lv := abs8(c.sq[from])
		c.sq[from] = 0
		if lv == 5 {
			c.sq[to] = 6 * g.me
		} else {
			c.cr[to] = lv
		}
	case 5:
		lv := c.cr[from]
		c.cr[from] = 0
		g.put(&c, int(to), g.crown(lv, int(to)/8), 0)
	}
	return c
}

// ultra lists the actions of the ultra king on u other than consumes.
func (g *refGen) ultra(c refBoard, u int) [][3]int8 {
	var out [][3]int8
	if c.cr[u] != 0 {
		for e := 0; e < 64; e++ {
			if c.sq[e] == 0 {
				out = append(out, [3]int8{5, int8(u), int8(e)})
			}
		}
		return out
	}
	for e := 0; e < 64; e++ {
		if c.sq[e] == 0 {
			out = append(out, [3]int8{1, int8(u), int8(e)})
		}
	}
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			x, y := u%8+dx, u/8+dy
			if (dx == 0 && dy == 0) || !refOn(x, y) {
				continue
			}
			f := refAt(x, y)
			lv := c.sq[f] * g.me
			if lv >= 1 && lv <= 4 || (lv == 5 && c.cr[f] == 0 && abs8(c.sq[u]) == 5) {
				out = append(out, [3]int8{4, int8(f), int8(u)})
			}
		}
	}
	return out
}

// consumes lists the squares of the pieces the ultra king on u can consume.
func (g *refGen) consumes(c refBoard, u int) []int {
	var out []int
	if c.cr[u] != 0 {
		return nil
	}
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			x, y := u%8+dx, u/8+dy
			if (dx != 0 || dy != 0) && refOn(x, y) && c.sq[refAt(x, y)]*g.me < 0 {
				out = append(out, refAt(x, y))
			}
		}
	}
	return out
}

func (g *refGen) add(k refKey, c refBoard) {
	c.red = !g.b.red
	g.moves[k] = c
}

// second adds a double ultra king's moves after its first action.
func (g *refGen) second(a [3]int8, captured uint64) {
	c := g.act(g.b, a[0], a[1], a[2])
	d := int(a[2])
	if a[0] == 5 {
		d = int(a[1])
	}
	if cs := g.consumes(c, d); len(cs) > 0 {
		for _, e := range cs {
			g.add(refKey{a[0], a[1], a[2], 3, int8(d), int8(e), captured | 1<<uint(e)}, g.act(c, 3, int8(d), int8(e)))
		}
		return
	}
	g.add(refKey{a[0], a[1], a[2], 0, 0, 0, captured}, c)
	for _, a2 := range g.ultra(c, d) {
		if a2[0] == 4 && abs8(c.sq[a2[1]]) == 5 {
			continue // an ultra king never climbs onto a double one
		}
		g.add(refKey{a[0], a[1], a[2], a2[0], a2[1], a2[2], captured}, g.act(c, a2[0], a2[1], a2[2]))
	}
}

// captures adds the captures.
func (g *refGen) captures() {
	b, me, fwd := g.b, g.me, g.fwd
	for s := 0; s < 64; s++ {
		lv := b.sq[s] * me
		switch {
		case lv >= 1 && lv <= 4:
			refSeries(b, s, lv, me, fwd, true, func(to int, taken, captured uint64) {
				if captured == 0 {
					return
				}
				c := b
				for i := 0; i < 64; i++ {
					if captured&(1<<uint(i)) != 0 {
						c.sq[i], c.cr[i] = 0, 0
					}
				}
				c.sq[s] = 0
				g.put(&c, to, g.crown(lv, to/8), 0)
				g.add(refKey{kind1: 2, from1: int8(s), to1: int8(to), captured: captured}, c)
			})
		case lv == 5 || lv == 6:
			for _, e := range g.consumes(b, s) {
				a := [3]int8{3, int8(s), int8(e)}
				if lv == 6 {
					g.second(a, 1<<uint(e))
				} else {
					g.add(refKey{kind1: 3, from1: int8(s), to1: int8(e), captured: 1 << uint(e)}, g.act(b, 3, int8(s), int8(e)))
				}
			}
		}
	}
}

// plain adds the moves that capture nothing.
func (g *refGen) plain() {
	b, me, fwd := g.b, g.me, g.fwd
	for s := 0; s < 64; s++ {
		lv := b.sq[s] * me
		switch {
		case lv >= 1 && lv <= 4:
			for dx := -1; dx <= 1; dx++ {
				for dy := -1; dy <= 1; dy++ {
					if (dx == 0 && dy == 0) || (lv == 1 && dy != fwd) {
						continue
					}
					x, y := s%8+dx, s/8+dy
					if refOn(x, y) && b.sq[refAt(x, y)] == 0 {
						c := b
						c.sq[s] = 0
						g.put(&c, refAt(x, y), g.crown(lv, y), 0)
						g.add(refKey{kind1: 1, from1: int8(s), to1: int8(refAt(x, y))}, c)
					}
				}
			}
			if lv == 3 {
				refSeries(b, s, lv, me, fwd, false, func(to int, taken, captured uint64) {
					if to == s {
						return
					}
					c := b
					c.sq[s] = 0
					g.put(&c, to, g.crown(lv, to/8), 0)
					g.add(refKey{kind1: 2, from1: int8(s), to1: int8(to)}, c)
				})
			}
		case lv == 5 || lv == 6:
			for _, a := range g.ultra(b, s) {
				if lv == 6 {
					if a[0] == 4 && abs8(b.sq[a[1]]) == 5 {
						continue
					}
					g.second(a, 0)
				} else {
					g.add(refKey{kind1: a[0], from1: a[1], to1: a[2]}, g.act(b, a[0], a[1], a[2]))
				}
			}
		}
	}
}

// refSeries calls stop for every place where the piece of level lv on s
// can end a series of jumps: where it cannot capture, after at least one
// jump. Captured pieces stay until the end; no piece is jumped twice.
func refSeries(b refBoard, s int, lv, me int8, fwd int, withCaptures bool, stop func(to int, taken, captured uint64)) {
	on := func(x, y int) bool { return x >= 0 && x < 8 && y >= 0 && y < 8 }
	occupied := func(i int) bool { return i != s && b.sq[i] != 0 }
	var rec func(x, y int, taken, captured uint64, n int)
	rec = func(x, y int, taken, captured uint64, n int) {
		type hop struct {
			x, y    int
			over    uint64
			capture bool
		}
		var hops []hop
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				if (dx == 0 && dy == 0) || (lv == 1 && n == 0 && dy != fwd) {
					continue
				}
				if !on(x+2*dx, y+2*dy) {
					continue
				}
				i1, i2 := (y+dy)*8+x+dx, (y+2*dy)*8+x+2*dx
				i3 := -1
				if on(x+3*dx, y+3*dy) {
					i3 = (y+3*dy)*8 + x + 3*dx
				}
				enemy := func(i int) bool { return b.sq[i]*me < 0 && taken&(1<<uint(i)) == 0 }
				switch {
				case enemy(i1) && !occupied(i2):
					hops = append(hops, hop{x + 2*dx, y + 2*dy, 1 << uint(i1), true})
				case enemy(i1) && lv >= 3 && enemy(i2) && i3 >= 0 && !occupied(i3):
					hops = append(hops, hop{x + 3*dx, y + 3*dy, 1<<uint(i1) | 1<<uint(i2), true})
				case !occupied(i1) && lv == 4 && enemy(i2) && i3 >= 0 && !occupied(i3):
					hops = append(hops, hop{x + 3*dx, y + 3*dy, 1 << uint(i2), true})
				case occupied(i1) && b.sq[i1]*me > 0 && lv == 3 && taken&(1<<uint(i1)) == 0 && !occupied(i2):
					hops = append(hops, hop{x + 2*dx, y + 2*dy, 1 << uint(i1), false})
				}
			}
		}
		can := false
		for _, h := range hops {
			can = can || h.capture
		}
		if !can && n > 0 {
			stop(y*8+x, taken, captured)
		}
		for _, h := range hops {
			c := captured
			if h.capture {
				c |= h.over
			}
			rec(h.x, h.y, taken|h.over, c, n+1)
		}
	}
	rec(s%8, s/8, 0, 0, 0)
}

func refPerft(t *testing.T, b refBoard, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, c := range refChildren(t, b) {
		n += refPerft(t, c, depth-1)
	}
	return n
}

// perftPositions have high levels: carried pieces, double ultra kings,
// friendly jumps, skips. Their counts are checked for consistency only.
var perftPositions = []string{
	"R:R3c1,c2,d2,b1,5e4+1,g2:B4d6,2f6,5b7,a8,h5",
	"B:R2d4,4c3,e5,f3:B3e6,5g6+3,b7,c7,d7,d5",
	"R:R6b2,c3,4f4,3d1:Bd6,e5,2g5,h8,a6",
	"B:Ra3,b4,c5,5d6,2g2:B6f7,e7,4d8,3b6",
	"R:Rc3,e3,g3,d2,f2,3e1,2c5:Bd5,e6,f7,c6,2b4,4e4",
}

// TestPerftReference compares the fast counts with the reference
// generator's on the positions with high levels.
func TestPerftReference(t *testing.T) {
	for _, fen := range perftPositions {
		p := mustFEN(t, fen)
		depth := 3
		if p.lvl[DoubleUltra-1] != 0 || testing.Short() {
			depth = 2
		}
		for d := 1; d <= depth; d++ {
			if got, want := p.Perft(d), refPerft(t, refFromPosition(t, p), d); got != want {
				t.Errorf("%s: perft(%d) = %d, reference %d", fen, d, got, want)
			}
		}
	}
	// Random positions of every level, some loaded ultra kings.
	r := rand.New(rand.NewPCG(7, 8))
	n := 300
	if testing.Short() {
		n = 30
	}
	for i := 0; i < n; i++ {
		p := randomPosition(r)
		depth := 2
		if p.Perft(1) > 300 {
			depth = 1
		}
		if got, want := p.Perft(depth), refPerft(t, refFromPosition(t, p), depth); got != want {
			t.Errorf("%s: perft(%d) = %d, reference %d", p, depth, got, want)
		}
	}
}

// slowPerft counts through the rules.State interface: Moves, then Play
// of each move's text (parse, check against the legal moves, apply).
func slowPerft(t *testing.T, s rules.State, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range s.Moves() {
		c, _, err := s.Play(m.Text)
		if err != nil {
			t.Fatalf("%s: Play(%q): %v", s.FEN(), m.Text, err)
		}
		n += slowPerft(t, c, depth-1)
	}
	return n
}

// TestPerftConsistency: perft(n) equals the sum of perft(n-1) over the
// moves when counted through the slow generic path.
func TestPerftConsistency(t *testing.T) {
	fens := append([]string{Start().FEN()}, perftPositions...)
	for _, fen := range fens {
		st, err := Game{}.Load(fen)
		if err != nil {
			t.Fatal(err)
		}
		p := mustFEN(t, fen)
		depth := 3
		if p.lvl[DoubleUltra-1] != 0 {
			depth = 2
		}
		var sum uint64
		for _, m := range st.Moves() {
			c, _, err := st.Play(m.Text)
			if err != nil {
				t.Fatal(err)
			}
			sum += slowPerft(t, c, depth-1)
		}
		if fast := p.Perft(depth); fast != sum {
			t.Errorf("%s: fast perft(%d) = %d, slow sum = %d", fen, depth, fast, sum)
		}
	}
}

// TestChildrenValid walks the move trees of the test positions and checks
// every move and child: the position is valid and its FEN reads back, no
// side gains material, the move's text names exactly that move, and
// perft(n) is the sum of perft(n-1) over the children.
func TestChildrenValid(t *testing.T) {
	for _, fen := range append([]string{Start().FEN()}, perftPositions...) {
		p := mustFEN(t, fen)
		depth := 3
		if p.lvl[DoubleUltra-1] != 0 || testing.Short() {
			depth = 2
		}
		walk(t, p, depth)
	}
}

func walk(t *testing.T, p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	ms := p.Moves(nil)
	for _, m := range ms {
		c := p.Apply(m)
		if err := c.Valid(); err != nil {
			t.Fatalf("%s, %s: %v", p, p.Text(m), err)
		}
		if back, err := ParseFEN(c.FEN()); err != nil || back != c {
			t.Fatalf("%s, %s: FEN %s reads back as %v, %v", p, p.Text(m), c.FEN(), back, err)
		}
		for _, s := range []Side{Red, Black} {
			if c.Pieces(s) > p.Pieces(s) {
				t.Fatalf("%s, %s: %v gains pieces", p, p.Text(m), s)
			}
		}
		if len(ms) < 200 || depth > 1 {
			if back, err := p.ParseMove(p.Text(m)); err != nil || back != m {
				t.Fatalf("%s: %s reads back as %v, %v", p, p.Text(m), back, err)
			}
		}
		n += walk(t, c, depth-1)
	}
	if n != p.Perft(depth) {
		t.Fatalf("%s: perft(%d) = %d but the children sum to %d", p, depth, p.Perft(depth), n)
	}
	return n
}

// BenchmarkPerft counts the trees of perftBenches (oldgen_test.go);
// Mnodes/s is leaves per second.
func BenchmarkPerft(b *testing.B) {
	for _, c := range perftBenches {
		p := benchPosition(b, c.fen)
		b.Run(c.name, func(b *testing.B) {
			var n uint64
			for b.Loop() {
				n += p.Perft(c.depth)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
}

func ExamplePosition_Perft() {
	p := Start()
	for d := 1; d <= 3; d++ {
		fmt.Println(d, p.Perft(d))
	}
	// Output:
	// 1 19
	// 2 361
	// 3 6888
}
