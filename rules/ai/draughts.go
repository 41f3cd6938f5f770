package ai

import (
	"math/bits"

	"github.com/boardgamebot/bot/rules/draughts"
)

// The draughts engine works on draughts.Position with the Square layout of
// package draughts: square f is on rank f>>2 counted from White's side; the
// four squares of a rank run right to left (seen from White).

// Masks of the square layout.
const (
	evenRanks uint32 = 0x0F0F0F0F // ranks 1, 3, 5, 7
	oddRanks  uint32 = 0xF0F0F0F0 // ranks 2, 4, 6, 8
	col0      uint32 = 0x11111111 // the right-hand end of each rank
	col3      uint32 = 0x88888888 // the left-hand end
	rank1     uint32 = 0x0000000F
	rank8     uint32 = 0xF0000000
	// centre are the eight central squares (ranks 3 to 6, the middle two of each).
	centre uint32 = 0x00666600
	// longDiagonal is the diagonal of squares 0-4-9-13-18-22-27-31 (the
	// Spanish long diagonal; the main diagonal a1-h8 of the dark-square games).
	longDiagonal uint32 = 1<<0 | 1<<4 | 1<<9 | 1<<13 | 1<<18 | 1<<22 | 1<<27 | 1<<31
)

// One diagonal step of every square of b, up (towards rank 8) or down.
func upLeft(b uint32) uint32    { return (b&evenRanks)<<4 | (b&oddRanks&^col3)<<5 }
func upRight(b uint32) uint32   { return (b&evenRanks&^col0)<<3 | (b&oddRanks)<<4 }
func downLeft(b uint32) uint32  { return (b&evenRanks)>>4 | (b&oddRanks&^col3)>>3 }
func downRight(b uint32) uint32 { return (b&evenRanks&^col0)>>5 | (b&oddRanks)>>4 }

// zobrist keys: [piece kind][square], kinds white man, white king, black
// man, black king; and the side to move.
var draughtsKeys = func() (k [4][32]uint64) {
	x := uint64(0x5EED0001)
	for i := range k {
		for f := range k[i] {
			x = mix(x)
			k[i][f] = x
		}
	}
	return k
}()

const draughtsBlackKey uint64 = 0x6A09E667F3BCC908

// draughtsHash is the Zobrist key of p.
func draughtsHash(p *draughts.Position) uint64 {
	var h uint64
	sets := [4]uint32{p.White &^ p.Kings, p.White & p.Kings, p.Black &^ p.Kings, p.Black & p.Kings}
	for i, b := range sets {
		for ; b != 0; b &= b - 1 {
			h ^= draughtsKeys[i][bits.TrailingZeros32(b)]
		}
	}
	if p.ToMove == draughts.Black {
		h ^= draughtsBlackKey
	}
	return h
}

// draughtsEngine searches one of the draughts games.
type draughtsEngine struct {
	v    draughts.Variant // the variant searched (huffing games search without huffing)
	king int              // a king's value
}

func newDraughtsEngine(v draughts.Variant) draughtsEngine {
	e := draughtsEngine{v: v, king: 300}
	if v.Huff {
		// The computer always takes the most pieces, so it can never be
		// huffed, and reckons that its opponent does the same.
		e.v.Huff = false
	}
	if !v.Flying {
		e.king = 220
	}
	return e
}

func (e draughtsEngine) moves(p *draughts.Position, buf []draughts.Move) []draughts.Move {
	return e.v.AppendMoves(buf[:0], *p)
}

func (e draughtsEngine) apply(p *draughts.Position, m *draughts.Move) draughts.Position {
	return e.v.Apply(*p, *m)
}

func (e draughtsEngine) hash(p *draughts.Position) uint64 { return draughtsHash(p) }

func (e draughtsEngine) capture(m *draughts.Move) bool { return m.Captured != 0 }

func (e draughtsEngine) order(p *draughts.Position, m *draughts.Move) int {
	if m.Captured == 0 {
		// Promotions first among quiet moves.
		if p.Kings&(1<<m.From) == 0 && (1<<m.To)&(rank1|rank8) != 0 {
			return 1 << 20
		}
		return 0
	}
	return bits.OnesCount32(m.Captured)<<8 + bits.OnesCount32(m.Captured&p.Kings)
}

func (e draughtsEngine) key(m *draughts.Move) int { return int(m.From)<<5 | int(m.To) }

func (e draughtsEngine) histSize() int { return 1024 }

func (e draughtsEngine) cycles() bool { return true }

// quiet reports that the side to move has pieces, no king and no man
// that can capture.
func (e draughtsEngine) quiet(p *draughts.Position) bool {
	empty := ^(p.White | p.Black)
	if p.ToMove == draughts.White {
		if p.White == 0 || p.White&p.Kings != 0 {
			return false
		}
		return p.White&(downRight(p.Black&downRight(empty))|downLeft(p.Black&downLeft(empty))) == 0
	}
	if p.Black == 0 || p.Black&p.Kings != 0 {
		return false
	}
	return p.Black&(upLeft(p.White&upLeft(empty))|upRight(p.White&upRight(empty))) == 0
}

func (e draughtsEngine) over(p *draughts.Position) (int, bool) {
	if e.v.Draws == draughts.DamasDraws {
		w, b := bits.OnesCount32(p.White), bits.OnesCount32(p.Black)
		if w == b && w <= 2 && (p.White|p.Black)&^p.Kings == 0 {
			return 0, true
		}
	}
	return 0, false
}

// Weights of the evaluation, in hundredths of a man.
var (
	// advance[r] is a man's bonus on rank r counted from its own side.
	advance = [8]int{0, 0, 3, 6, 10, 16, 24, 0}
)

const (
	guardBonus    = 8  // a man on its own back rank while the opponent has no king
	centreBonus   = 4  // a man on a central square
	mobilityBonus = 3  // per plain move of the men
	diagonalBonus = 12 // a king on the long diagonal
	tempoBonus    = 4  // for the side to move
)

// eval scores p for the side to move: material (kings weighted), the
// men's advancement, the back-rank guard, the centre, the men's mobility
// and the kings on the long diagonal; a side ahead in material gains by
// exchanging.
func (e draughtsEngine) eval(p *draughts.Position) int {
	empty := ^(p.White | p.Black)
	wm, bm := p.White&^p.Kings, p.Black&^p.Kings
	wk, bk := p.White&p.Kings, p.Black&p.Kings
	nwm, nbm := bits.OnesCount32(wm), bits.OnesCount32(bm)
	nwk, nbk := bits.OnesCount32(wk), bits.OnesCount32(bk)

	material := 100*(nwm-nbm) + e.king*(nwk-nbk)
	total := nwm + nbm + nwk + nbk
	// Exchanges favour the side ahead: the lead grows as the board empties.
	score := material + material*(24-total)/48

	for r := 1; r < 7; r++ {
		rank := uint32(0xF) << (4 * r)
		score += advance[r] * bits.OnesCount32(wm&rank)
		score -= advance[7-r] * bits.OnesCount32(bm&rank)
	}
	if nbk == 0 {
		score += guardBonus * bits.OnesCount32(wm&rank1)
	}
	if nwk == 0 {
		score -= guardBonus * bits.OnesCount32(bm&rank8)
	}
	score += centreBonus * (bits.OnesCount32(wm&centre) - bits.OnesCount32(bm&centre))
	wmob := bits.OnesCount32(upLeft(wm)&empty) + bits.OnesCount32(upRight(wm)&empty)
	bmob := bits.OnesCount32(downLeft(bm)&empty) + bits.OnesCount32(downRight(bm)&empty)
	score += mobilityBonus * (wmob - bmob)
	score += diagonalBonus * (bits.OnesCount32(wk&longDiagonal) - bits.OnesCount32(bk&longDiagonal))

	// Flying kings: up to three kings without men cannot force a win
	// against a king (the long diagonal holds), so such an edge is small.
	if e.v.Flying && (score > 0 && nwm == 0 && nwk <= 3 && nbk > 0 || score < 0 && nbm == 0 && nbk <= 3 && nwk > 0) {
		score /= 8
	}
	if p.ToMove == draughts.Black {
		score = -score
	}
	return score + tempoBonus
}
