package ultradamas

import (
	"math/bits"

	"github.com/boardgamebot/bot/rules"
)

// Square is a square of the board, 0 (a1) to 63 (h8): Rank*8 + File.
type Square int8

// NoSquare is the Square value of "no square" (off the board).
const NoSquare Square = -1

// SquareAt returns the square on the given file (0 = a) and rank (0 = rank 1).
func SquareAt(file, rank int) Square { return Square(rank*8 + file) }

// File is the square's file, 0 (a) to 7 (h).
func (s Square) File() int { return int(s) & 7 }

// Rank is the square's rank, 0 (rank 1) to 7 (rank 8).
func (s Square) Rank() int { return int(s) >> 3 }

// String returns the algebraic name of s, "a1" to "h8".
func (s Square) String() string {
	if s < 0 || s > 63 {
		return "?"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// Rules returns s as a rules.Square.
func (s Square) Rules() rules.Square { return rules.Square{File: int8(s.File()), Rank: int8(s.Rank())} }

// SquareOf returns the engine's square for q, or NoSquare when q is off the board.
func SquareOf(q rules.Square) Square {
	if q.File < 0 || q.File > 7 || q.Rank < 0 || q.Rank > 7 {
		return NoSquare
	}
	return SquareAt(int(q.File), int(q.Rank))
}

// parseSquare reads "a1".."h8" (case-insensitive); ok is false otherwise.
func parseSquare(t string) (Square, bool) {
	if len(t) != 2 {
		return NoSquare, false
	}
	f, r := t[0]|0x20, t[1]
	if f < 'a' || f > 'h' || r < '1' || r > '8' {
		return NoSquare, false
	}
	return SquareAt(int(f-'a'), int(r-'1')), true
}

// The eight directions, clockwise from north (toward rank 8).
const (
	dirN = iota
	dirNE
	dirE
	dirSE
	dirS
	dirSW
	dirW
	dirNW
)

var dirDelta = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// forward lists a man's three forward directions per side.
var forward = [2][3]int{{dirNW, dirN, dirNE}, {dirSW, dirS, dirSE}}

// ray[s][d][k] is the square k+1 steps from s in direction d, or -1;
// around[s] is the set of the (up to) 8 squares next to s.
var ray, around = tables()

func tables() (ray [64][8][3]Square, around [64]uint64) {
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		for d := 0; d < 8; d++ {
			for k := 0; k < 3; k++ {
				nf, nr := f+dirDelta[d][0]*(k+1), r+dirDelta[d][1]*(k+1)
				if nf < 0 || nf > 7 || nr < 0 || nr > 7 {
					ray[s][d][k] = NoSquare
					continue
				}
				ray[s][d][k] = SquareAt(nf, nr)
				if k == 0 {
					around[s] |= 1 << uint(SquareAt(nf, nr))
				}
			}
		}
	}
	return ray, around
}

const (
	fileA uint64 = 0x0101010101010101
	fileH uint64 = 0x8080808080808080
)

// shift moves every square of b one step in direction d, dropping what
// leaves the board.
func shift(b uint64, d int) uint64 {
	switch d {
	case dirN:
		return b << 8
	case dirS:
		return b >> 8
	case dirE:
		return (b &^ fileH) << 1
	case dirW:
		return (b &^ fileA) >> 1
	case dirNE:
		return (b &^ fileH) << 9
	case dirNW:
		return (b &^ fileA) << 7
	case dirSE:
		return (b &^ fileH) >> 7
	default: // dirSW
		return (b &^ fileA) >> 9
	}
}

// delta is the change of square index for one step in direction d.
var delta = [8]int{8, 9, 1, -7, -8, -9, -1, 7}

func bit(s Square) uint64 { return 1 << uint(s) }

// first returns the lowest square of a non-empty set.
func first(b uint64) Square { return Square(bits.TrailingZeros64(b)) }
