package ai

import (
	"math/bits"

	"github.com/boardgamebot/bot/rules/ultradamas"
)

// ultraBoard is an Ultradamas position with the level and carried level
// of each square, read from the package's bitboards.
type ultraBoard struct {
	occ   [2]uint64
	level [64]int8
	carry [64]int8
}

func readUltra(p *ultradamas.Position) (b ultraBoard) {
	occ, lvl, carry := p.Bitboards()
	b.occ = occ
	for l, set := range lvl {
		for ; set != 0; set &= set - 1 {
			b.level[bits.TrailingZeros64(set)] = int8(l + 1)
		}
	}
	for l, set := range carry {
		for ; set != 0; set &= set - 1 {
			b.carry[bits.TrailingZeros64(set)] = int8(l + 1)
		}
	}
	return b
}

// Zobrist keys: [side][level-1 + 6*carried][square], carried 0-4.
var ultraKeys = func() (k [2][30][64]uint64) {
	x := uint64(0x5EED0002)
	for i := range k {
		for j := range k[i] {
			for s := range k[i][j] {
				x = mix(x)
				k[i][j][s] = x
			}
		}
	}
	return k
}()

const ultraBlackKey uint64 = 0xBB67AE8584CAA73B

// ultraValue is the value of a piece of each level, in hundredths of a man.
var ultraValue = [7]int{0, 100, 260, 420, 560, 900, 1500}

// ultraEngine searches Ultradamas. It keeps the last position it read
// square by square, which hash and eval of the same node share.
type ultraEngine struct {
	last  ultradamas.Position
	board ultraBoard
	valid bool
}

// read returns p's board, read once per node.
func (e *ultraEngine) read(p *ultradamas.Position) *ultraBoard {
	if !e.valid || e.last != *p {
		e.last, e.board, e.valid = *p, readUltra(p), true
	}
	return &e.board
}

func (e *ultraEngine) moves(p *ultradamas.Position, buf []ultradamas.Move) []ultradamas.Move {
	return p.Moves(buf)
}

func (e *ultraEngine) apply(p *ultradamas.Position, m *ultradamas.Move) ultradamas.Position {
	return p.Apply(*m)
}

func (e *ultraEngine) hash(p *ultradamas.Position) uint64 {
	return ultraHash(p, e.read(p))
}

func ultraHash(p *ultradamas.Position, b *ultraBoard) uint64 {
	var h uint64
	for side := 0; side < 2; side++ {
		for o := b.occ[side]; o != 0; o &= o - 1 {
			s := bits.TrailingZeros64(o)
			h ^= ultraKeys[side][int(b.level[s])-1+6*int(b.carry[s])][s]
		}
	}
	if p.Turn() == ultradamas.Black {
		h ^= ultraBlackKey
	}
	return h
}

func (e *ultraEngine) capture(m *ultradamas.Move) bool { return m.Captured != 0 }

func (e *ultraEngine) order(p *ultradamas.Position, m *ultradamas.Move) int {
	if m.Captured == 0 {
		return 0
	}
	v := 0
	for c := m.Captured; c != 0; c &= c - 1 {
		_, level, carried, _ := p.Piece(ultradamas.Square(bits.TrailingZeros64(c)))
		v += ultraValue[level] + ultraValue[carried]
	}
	return v
}

func (e *ultraEngine) key(m *ultradamas.Move) int {
	return int(m.First.Kind)<<12 | int(m.First.From)<<6 | int(m.First.To)
}

func (e *ultraEngine) histSize() int { return 8 << 12 }

func (e *ultraEngine) cycles() bool { return true }

// quiet is never sure: telling captures apart costs as much as listing them.
func (e *ultraEngine) quiet(p *ultradamas.Position) bool { return false }

func (e *ultraEngine) over(p *ultradamas.Position) (int, bool) {
	if p.Ply() >= ultradamas.DrawPlies {
		return 0, true
	}
	return 0, false
}

// Files and ranks of the 64-square board (a1 is bit 0).
const (
	fileA uint64 = 0x0101010101010101
	fileH uint64 = 0x8080808080808080
)

// forward returns the squares one step forward (straight or diagonal) of b
// for side: where its men may step.
func forward(b uint64, side int) [3]uint64 {
	if side == 0 {
		return [3]uint64{b << 8, (b &^ fileA) << 7, (b &^ fileH) << 9}
	}
	return [3]uint64{b >> 8, (b &^ fileA) >> 9, (b &^ fileH) >> 7}
}

// eval scores p for the side to move: material by level (a carried piece
// counts almost fully), each level's progress towards the rank that
// promotes it, the men's mobility and the back-rank guard.
func (e *ultraEngine) eval(p *ultradamas.Position) int {
	b := e.read(p)
	var score [2]int
	empty := ^(b.occ[0] | b.occ[1])
	for side := 0; side < 2; side++ {
		men := uint64(0)
		for o := b.occ[side]; o != 0; o &= o - 1 {
			s := bits.TrailingZeros64(o)
			lv := int(b.level[s])
			v := ultraValue[lv] + ultraValue[b.carry[s]]*9/10
			rank := s >> 3
			if side == 1 {
				rank = 7 - rank // ranks from the side's own first rank
			}
			switch lv {
			case 1:
				men |= 1 << uint(s)
				v += advance[rank]
			case 2, 4: // promoted on the own first rank
				v += 4 * (7 - rank)
			case 3: // promoted on the far rank
				v += 4 * rank
			}
			score[side] += v
		}
		first := uint64(0xFF)
		if side == 1 {
			first = 0xFF << 56
		}
		score[side] += guardBonus * bits.OnesCount64(men&first)
		for _, f := range forward(men, side) {
			score[side] += 2 * bits.OnesCount64(f&empty)
		}
	}
	me := int(p.Turn())
	return score[me] - score[me^1] + tempoBonus
}
