package draughts

import (
	"math/bits"

	"github.com/boardgamebot/bot/rules"
)

// Square is a playing square in the engine's layout, 0 to 31: Square s is
// Spanish square number s+1 (0 is h1 on the Spanish board, the right corner
// of White's first rank; numbers run right to left, rank by rank). The games
// on the dark squares use the same layout mirrored left to right, so that
// Square 0 is their a1; Variant.Rules and Variant.Number give a Square's
// name in a game.
type Square uint8

// NoSquare marks the absence of a square.
const NoSquare Square = 255

// Color is a side: White moves first, up the board.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

// String returns "White" or "Black".
func (c Color) String() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// Position is a draughts position: one bit per Square for each side's pieces
// and for the kings of both sides, and the side to move. It is a comparable
// value; the zero Position is an empty board with White to move.
type Position struct {
	White, Black uint32 // the pieces of each side
	Kings        uint32 // the kings (of both sides)
	ToMove       Color
}

// Pieces returns the pieces of side c.
func (p Position) Pieces(c Color) uint32 {
	if c == White {
		return p.White
	}
	return p.Black
}

// Empty returns the empty squares.
func (p Position) Empty() uint32 { return ^(p.White | p.Black) }

// Initial is the starting position of all three games: White on squares
// 0-11 (numbers 1-12), Black on 20-31 (21-32), White to move.
var Initial = Position{White: 0x00000FFF, Black: 0xFFF00000}

// rank and column of a square in the layout: column k counts from the
// right-hand end of the rank (Spanish files h/g for k=0).
func squareRank(f Square) int { return int(f) >> 2 }

// spanishFile is the file (0 = a) of f on the Spanish board.
func spanishFile(f Square) int {
	r, k := int(f)>>2, int(f)&3
	if r&1 == 0 {
		return 7 - 2*k
	}
	return 6 - 2*k
}

// Masks of the layout.
const (
	evenRanks uint32 = 0x0F0F0F0F // ranks 1, 3, 5, 7
	oddRanks  uint32 = 0xF0F0F0F0 // ranks 2, 4, 6, 8
	col0      uint32 = 0x11111111 // k == 0: the right-hand end of each rank
	col3      uint32 = 0x88888888 // k == 3: the left-hand end
	topRank   uint32 = 0xF0000000 // rank 8: White's promotion rank
	lowRank   uint32 = 0x0000000F // rank 1: Black's promotion rank
	// longDiagonal is Spanish 1-5-10-14-19-23-28-32 (h1-a8).
	longDiagonal uint32 = 1<<0 | 1<<4 | 1<<9 | 1<<13 | 1<<18 | 1<<22 | 1<<27 | 1<<31
)

// Directions on the Spanish board, seen from White: up-left (towards a8),
// up-right, down-left, down-right. Opposite directions are d^3.
const (
	upLeft = iota
	upRight
	downLeft
	downRight
)

// One diagonal step of every bit in b (bits that would leave the board are dropped).
func shiftUL(b uint32) uint32 { return (b&evenRanks)<<4 | (b&oddRanks&^col3)<<5 }
func shiftUR(b uint32) uint32 { return (b&evenRanks&^col0)<<3 | (b&oddRanks)<<4 }
func shiftDL(b uint32) uint32 { return (b&evenRanks)>>4 | (b&oddRanks&^col3)>>3 }
func shiftDR(b uint32) uint32 { return (b&evenRanks&^col0)>>5 | (b&oddRanks)>>4 }

// ray is the squares along one direction from a square, nearest first.
type ray struct {
	n int
	f [7]Square
}

// rays[f][d] is the ray from f in direction d.
var rays = func() (t [32][4]ray) {
	var at [8][8]Square // [file][rank] -> square
	for f := range at {
		for r := range at[f] {
			at[f][r] = NoSquare
		}
	}
	for f := Square(0); f < 32; f++ {
		at[spanishFile(f)][squareRank(f)] = f
	}
	steps := [4][2]int{{-1, 1}, {1, 1}, {-1, -1}, {1, -1}}
	for f := Square(0); f < 32; f++ {
		for d, s := range steps {
			x, y := spanishFile(f)+s[0], squareRank(f)+s[1]
			for x >= 0 && x < 8 && y >= 0 && y < 8 {
				r := &t[f][d]
				r.f[r.n] = at[x][y]
				r.n++
				x, y = x+s[0], y+s[1]
			}
		}
	}
	return t
}()

// rotate turns a bitboard half a turn: square f becomes 31-f.
func rotate(b uint32) uint32 { return bits.Reverse32(b) }

// Rules returns square f as a rules.Square in this variant.
func (v Variant) Rules(f Square) rules.Square {
	file := spanishFile(f)
	if v.Dark {
		file = 7 - file
	}
	return rules.Square{File: int8(file), Rank: int8(squareRank(f))}
}

// Number returns the numeric name (1-32) of square f in this variant:
// square 1 is White's bottom-right playing square, numbers run right to
// left, rank by rank.
func (v Variant) Number(f Square) int {
	if v.Dark {
		return int(f)&^3 + 3 - int(f)&3 + 1
	}
	return int(f) + 1
}

// SquareOf returns the engine's square for s, or false when s is not a
// playing square of this variant.
func (v Variant) SquareOf(s rules.Square) (Square, bool) {
	if s.File < 0 || s.File > 7 || s.Rank < 0 || s.Rank > 7 {
		return NoSquare, false
	}
	file := int(s.File)
	if v.Dark {
		file = 7 - file
	}
	r := int(s.Rank)
	if (file+r)&1 == 0 { // a1 parity: a dark square of the Spanish layout
		return NoSquare, false
	}
	k := (7 - file) / 2
	return Square(r*4 + k), true
}

// SquareOfNumber returns the square with numeric name n (1-32).
func (v Variant) SquareOfNumber(n int) (Square, bool) {
	if n < 1 || n > 32 {
		return NoSquare, false
	}
	f := Square(n - 1)
	if v.Dark {
		f = f&^3 + 3 - f&3
	}
	return f, true
}
