package ultradamas

import (
	"fmt"
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
// Depths 3 to 5 come from refPerft below (at depth 4 Black can already
// be crowned, as in c3-b4 d6-d5 e3-d4 d5xd3xd1xf1xf3xh3xh1xf1), a separate small generator for
// positions of men and kings written straight from the rules page (mailbox board,
// a map of resulting boards for move identity); TestPerftStart runs it.
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

// refBoard is the reference's board: +1 a Red man, +2 a Red king, -1 and
// -2 Black's; +-3 a triple king (crowned on the last ply: the reference
// cannot move triple kings).
type refBoard struct {
	sq  [64]int8
	red bool
}

func refFromPosition(t *testing.T, p Position) refBoard {
	t.Helper()
	var b refBoard
	b.red = p.Turn() == Red
	for s := Square(0); s < 64; s++ {
		if side, level, _, ok := p.Piece(s); ok {
			if level > King {
				t.Fatalf("reference handles men and kings only: %v", p)
			}
			b.sq[s] = int8(level) * (1 - 2*int8(side))
		}
	}
	return b
}

// refChildren returns the positions after each legal move: captures if
// any (a man's first jump forward, later ones any way, a king's any way;
// captured pieces stay until the end, none is jumped twice, the series
// stops only where it cannot capture), otherwise steps (a man's three
// forward, a king's eight).
func refChildren(t *testing.T, b refBoard) []refBoard {
	me, fwd := int8(1), 1
	if !b.red {
		me, fwd = -1, -1
	}
	seen := map[refBoard]bool{}
	var out []refBoard
	add := func(c refBoard) {
		c.red = !b.red
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	on := func(x, y int) bool { return x >= 0 && x < 8 && y >= 0 && y < 8 }
	// crown returns what a piece of value v becomes when it ends on rank y.
	crown := func(v int8, y int) int8 {
		far, own := (me == 1 && y == 7) || (me == -1 && y == 0), (me == 1 && y == 0) || (me == -1 && y == 7)
		if (v == me && far) || (v == 2*me && own) {
			return v + me
		}
		return v
	}
	for s := 0; s < 64; s++ {
		v := b.sq[s]
		if v == 3*me {
			t.Fatalf("reference: a triple king to move; it moves men and kings only")
		}
		if v != me && v != 2*me {
			continue
		}
		var rec func(x, y int, taken [64]bool, n int)
		rec = func(x, y int, taken [64]bool, n int) {
			can := false
			for dx := -1; dx <= 1; dx++ {
				for dy := -1; dy <= 1; dy++ {
					if (dx == 0 && dy == 0) || (v == me && n == 0 && dy != fwd) {
						continue
					}
					mx, my, lx, ly := x+dx, y+dy, x+2*dx, y+2*dy
					if !on(lx, ly) {
						continue
					}
					m, l := my*8+mx, ly*8+lx
					if b.sq[m]*me < 0 && !taken[m] && (b.sq[l] == 0 || l == s) {
						can = true
						tk := taken
						tk[m] = true
						rec(lx, ly, tk, n+1)
					}
				}
			}
			if !can && n > 0 {
				c := b
				for i := range taken {
					if taken[i] {
						c.sq[i] = 0
					}
				}
				c.sq[s] = 0
				c.sq[y*8+x] = crown(v, y)
				add(c)
			}
		}
		rec(s%8, s/8, [64]bool{}, 0)
	}
	if len(out) > 0 {
		return out
	}
	for s := 0; s < 64; s++ {
		v := b.sq[s]
		if v != me && v != 2*me {
			continue
		}
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				if (dx == 0 && dy == 0) || (v == me && dy != fwd) {
					continue
				}
				x, y := s%8+dx, s/8+dy
				if on(x, y) && b.sq[y*8+x] == 0 {
					c := b
					c.sq[s], c.sq[y*8+x] = 0, crown(v, y)
					add(c)
				}
			}
		}
	}
	return out
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

func BenchmarkPerft(b *testing.B) {
	p := Start()
	var nodes uint64
	for b.Loop() {
		nodes += p.Perft(5)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
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
