package halma

import (
	"math/bits"

	"github.com/boardgamebot/bot/rules"
)

// Square is a square of the board: rank*16 + file, whatever the board size
// (a1 = 0, b1 = 1, a2 = 16, p16 = 255).
type Square uint8

// SquareAt returns the square on the given file (0 = a) and rank (0 = rank 1).
func SquareAt(file, rank int) Square { return Square(rank<<4 | file) }

// File is the file of s, 0 for file a.
func (s Square) File() int { return int(s & 15) }

// Rank is the rank of s, 0 for rank 1.
func (s Square) Rank() int { return int(s >> 4) }

// Rules returns s as a rules.Square.
func (s Square) Rules() rules.Square { return rules.Square{File: int8(s.File()), Rank: int8(s.Rank())} }

// String returns the algebraic name of s ("a1", "p16").
func (s Square) String() string { return s.Rules().String() }

// SquareOf returns the engine's square for q (assumed on a 16x16 board).
func SquareOf(q rules.Square) Square { return SquareAt(int(q.File), int(q.Rank)) }

// Board is a set of squares: bit s%64 of word s/64 is square s.
type Board [4]uint64

// Has reports whether s is in b.
func (b Board) Has(s Square) bool { return b[s>>6]>>(s&63)&1 != 0 }

// With returns b with s added.
func (b Board) With(s Square) Board { b[s>>6] |= 1 << (s & 63); return b }

// Without returns b with s removed.
func (b Board) Without(s Square) Board { b[s>>6] &^= 1 << (s & 63); return b }

// Or returns the union of b and c.
func (b Board) Or(c Board) Board { return Board{b[0] | c[0], b[1] | c[1], b[2] | c[2], b[3] | c[3]} }

// And returns the intersection of b and c.
func (b Board) And(c Board) Board { return Board{b[0] & c[0], b[1] & c[1], b[2] & c[2], b[3] & c[3]} }

// AndNot returns the squares of b that are not in c.
func (b Board) AndNot(c Board) Board {
	return Board{b[0] &^ c[0], b[1] &^ c[1], b[2] &^ c[2], b[3] &^ c[3]}
}

// Empty reports whether b has no square.
func (b Board) Empty() bool { return b[0]|b[1]|b[2]|b[3] == 0 }

// Count returns the number of squares in b.
func (b Board) Count() int {
	return bits.OnesCount64(b[0]) + bits.OnesCount64(b[1]) + bits.OnesCount64(b[2]) + bits.OnesCount64(b[3])
}

// Squares returns the squares of b in increasing order.
func (b Board) Squares() []Square {
	out := make([]Square, 0, b.Count())
	for w, x := range b {
		for x != 0 {
			out = append(out, Square(w<<6|bits.TrailingZeros64(x)))
			x &= x - 1
		}
	}
	return out
}

// corner is a corner of the board: which edge file and edge rank it touches.
type corner struct{ right, top bool }

// square returns the square in row i (counted from the corner's edge rank)
// and column j (counted from its edge file).
func (c corner) square(size, i, j int) Square {
	f, r := j, i
	if c.right {
		f = size - 1 - j
	}
	if c.top {
		r = size - 1 - i
	}
	return SquareAt(f, r)
}

// jump is one jump from a square: over the piece on over to land.
type jump struct{ over, land Square }

// geometry holds the neighbour tables of one board size.
type geometry struct {
	size   int
	board  Board
	nsteps [256]uint8
	steps  [256][8]Square
	njumps [256]uint8
	jumps  [256][8]jump
	walls  [mbSize]uint8 // the empty mailbox (movegen.go)
}

var directions = [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}

func newGeometry(size int) *geometry {
	g := &geometry{size: size, walls: walls(size)}
	on := func(f, r int) bool { return f >= 0 && f < size && r >= 0 && r < size }
	for r := 0; r < size; r++ {
		for f := 0; f < size; f++ {
			s := SquareAt(f, r)
			g.board = g.board.With(s)
			for _, d := range directions {
				if on(f+d[0], r+d[1]) {
					g.steps[s][g.nsteps[s]] = SquareAt(f+d[0], r+d[1])
					g.nsteps[s]++
				}
				if on(f+2*d[0], r+2*d[1]) {
					g.jumps[s][g.njumps[s]] = jump{SquareAt(f+d[0], r+d[1]), SquareAt(f+2*d[0], r+2*d[1])}
					g.njumps[s]++
				}
			}
		}
	}
	return g
}

// layout is one configuration of the page: board, players, camps.
type layout struct {
	size, players int
	pieces        int   // pieces per player, the size of a camp
	rows          []int // camp rows counted from the corner
	g             *geometry
	corners       [4]corner
	home          [4]Board        // home camp per seat
	target        [4]int          // the seat whose home camp is each seat's target
	boxes         [4][mbSize]bool // home camps as mailbox masks (movegen.go)
}

// The configurations, in the order of the page's table.
const (
	lay16x2 = iota
	lay16x4
	lay10x2
	lay8x2
	numLayouts
)

var layouts = buildLayouts()

func buildLayouts() [numLayouts]*layout {
	g16, g10, g8 := newGeometry(16), newGeometry(10), newGeometry(8)
	two := [4]corner{{false, false}, {true, true}}
	four := [4]corner{{false, false}, {false, true}, {true, true}, {true, false}}
	mk := func(g *geometry, players int, rows []int, corners [4]corner) *layout {
		l := &layout{size: g.size, players: players, rows: rows, g: g, corners: corners}
		for seat := 0; seat < players; seat++ {
			for i, n := range rows {
				for j := 0; j < n; j++ {
					l.home[seat] = l.home[seat].With(corners[seat].square(g.size, i, j))
				}
			}
			l.target[seat] = (seat + players/2) % players
			l.boxes[seat] = campBox(l.home[seat])
		}
		l.pieces = l.home[0].Count()
		return l
	}
	return [numLayouts]*layout{
		lay16x2: mk(g16, 2, []int{5, 5, 4, 3, 2}, two),
		lay16x4: mk(g16, 4, []int{4, 4, 3, 2}, four),
		lay10x2: mk(g10, 2, []int{5, 4, 3, 2, 1}, two),
		lay8x2:  mk(g8, 2, []int{4, 3, 2, 1}, two),
	}
}

// findLayout returns the layout index of a board size and player count.
func findLayout(size, players int) (int, bool) {
	for i, l := range layouts {
		if l.size == size && l.players == players {
			return i, true
		}
	}
	return 0, false
}
