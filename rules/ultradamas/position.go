package ultradamas

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// Side is a player: Red (seat 0, moves first, starts on ranks 1-3) or Black.
type Side uint8

// The two sides.
const (
	Red   Side = 0
	Black Side = 1
)

// String returns "Red" or "Black".
func (s Side) String() string {
	if s == Red {
		return "Red"
	}
	return "Black"
}

// Levels of the pieces.
const (
	Man         = 1
	King        = 2
	TripleKing  = 3
	QuadKing    = 4
	UltraKing   = 5
	DoubleUltra = 6
)

// levelNames are the names of the levels, for messages.
var levelNames = [7]string{"", "man", "king", "triple king", "quad king", "ultra king", "double ultra king"}

// Position is an Ultradamas position: every piece with its side, level and
// carried piece, the side to move and the plies since the last capture or
// promotion. It is a small comparable value: == compares positions.
// The zero Position is an empty board with Red to move.
type Position struct {
	occ   [2]uint64 // the squares of each side's pieces
	lvl   [6]uint64 // lvl[L-1]: the squares of pieces of level L
	carry [4]uint64 // carry[L-1]: the squares of ultra kings carrying a piece of level L
	turn  Side
	ply   uint8
}

// Turn is the side to move.
func (p Position) Turn() Side { return p.turn }

// Ply is the number of plies since the last capture or promotion.
func (p Position) Ply() int { return int(p.ply) }

// Key is p without its ply counter: positions with equal keys are the same
// position for the repetition rule.
func (p Position) Key() Position { p.ply = 0; return p }

// Piece reports the piece on s: its side, level (1-6) and the level of the
// piece it carries (0 for none). ok is false for an empty square.
func (p Position) Piece(s Square) (side Side, level, carried int, ok bool) {
	b := bit(s)
	switch {
	case p.occ[Red]&b != 0:
		side = Red
	case p.occ[Black]&b != 0:
		side = Black
	default:
		return 0, 0, 0, false
	}
	return side, p.levelAt(b), p.carriedAt(b), true
}

// Bitboards returns p's sets of squares (bit s is square s): each side's
// pieces, the pieces of each level (lvl[L-1] for level L) and the ultra
// kings carrying a piece of each level (carry[L-1]). The computer player
// reads positions through it.
func (p Position) Bitboards() (occ [2]uint64, lvl [6]uint64, carry [4]uint64) {
	return p.occ, p.lvl, p.carry
}

func (p *Position) levelAt(b uint64) int {
	for l := 0; l < 6; l++ {
		if p.lvl[l]&b != 0 {
			return l + 1
		}
	}
	return 0
}

func (p *Position) carriedAt(b uint64) int {
	for l := 0; l < 4; l++ {
		if p.carry[l]&b != 0 {
			return l + 1
		}
	}
	return 0
}

// put places a piece on the empty square s.
func (p *Position) put(s Square, side Side, level, carried int) {
	b := bit(s)
	p.occ[side] |= b
	p.lvl[level-1] |= b
	if carried > 0 {
		p.carry[carried-1] |= b
	}
}

// clear empties square s.
func (p *Position) clear(b uint64) {
	p.occ[0] &^= b
	p.occ[1] &^= b
	for l := range p.lvl {
		p.lvl[l] &^= b
	}
	for l := range p.carry {
		p.carry[l] &^= b
	}
}

// Pieces is the number of pieces a side has: a double ultra king counts
// two, a carried piece one. It never exceeds 12 and never grows.
func (p Position) Pieces(side Side) int {
	return bits.OnesCount64(p.occ[side]) + p.Count(side, DoubleUltra) + p.Carried(side)
}

// Count is the number of side's pieces of the given level on the board
// (carried pieces not included).
func (p Position) Count(side Side, level int) int {
	if level < 1 || level > 6 {
		return 0
	}
	return bits.OnesCount64(p.occ[side] & p.lvl[level-1])
}

// Carried is the number of side's pieces that ride on an ultra king.
func (p Position) Carried(side Side) int {
	n := 0
	for l := range p.carry {
		n += bits.OnesCount64(p.occ[side] & p.carry[l])
	}
	return n
}

// Valid reports whether p is a well-formed position: every piece has one
// side and one level, only ultra kings carry, a carried piece is of level
// 1-4, and each side has at most 12 pieces.
func (p Position) Valid() error {
	if p.occ[0]&p.occ[1] != 0 {
		return rules.Errorf(rules.ErrBadPosition, "%v holds pieces of both sides", first(p.occ[0]&p.occ[1]))
	}
	all := p.occ[0] | p.occ[1]
	var seen uint64
	for l := range p.lvl {
		if p.lvl[l]&seen != 0 {
			return rules.Errorf(rules.ErrBadPosition, "%v has two levels", first(p.lvl[l]&seen))
		}
		seen |= p.lvl[l]
	}
	if seen != all {
		return rules.Errorf(rules.ErrBadPosition, "a piece has no level or a level has no piece")
	}
	var carriers uint64
	for l := range p.carry {
		if p.carry[l]&carriers != 0 {
			return rules.Errorf(rules.ErrBadPosition, "%v carries two pieces", first(p.carry[l]&carriers))
		}
		carriers |= p.carry[l]
	}
	if carriers&^(p.lvl[UltraKing-1]|p.lvl[DoubleUltra-1]) != 0 {
		return rules.Errorf(rules.ErrBadPosition, "%v carries a piece but is no ultra king", first(carriers&^(p.lvl[UltraKing-1]|p.lvl[DoubleUltra-1])))
	}
	for _, s := range []Side{Red, Black} {
		if n := p.Pieces(s); n > 12 {
			return rules.Errorf(rules.ErrBadPosition, "%v has %d pieces (at most 12)", s, n)
		}
	}
	if p.turn > Black {
		return rules.Errorf(rules.ErrBadPosition, "no side to move")
	}
	return nil
}

// DefaultFormation is the default set of squares of each side: the dark
// squares (a1 is dark) of its first three ranks.
var DefaultFormation = [2]uint64{
	0x0000000000ffffff & darkSquares,
	0xffffff0000000000 & darkSquares,
}

// darkSquares are the squares whose file and rank have the same parity.
const darkSquares uint64 = 0xAA55AA55AA55AA55

// FromFormations returns the starting position of the given formations
// (each a set of 12 squares of that side's first three ranks): men only,
// Red to move. It does not check the formations (see CheckFormation).
func FromFormations(red, black uint64) Position {
	var p Position
	p.occ[Red] = red
	p.occ[Black] = black
	p.lvl[Man-1] = red | black
	return p
}

// Start is the position of the default formations.
func Start() Position { return FromFormations(DefaultFormation[Red], DefaultFormation[Black]) }

// homeRanks are each side's first three ranks.
var homeRanks = [2]uint64{0x0000000000ffffff, 0xffffff0000000000}

// CheckFormation checks that squares is a valid formation for side:
// 12 distinct squares of its first three ranks.
func CheckFormation(side Side, squares []Square) (uint64, error) {
	var set uint64
	for _, s := range squares {
		if s < 0 || s > 63 {
			return 0, rules.Errorc(rules.ErrBadPosition, rules.CodeFormation, []string{"Example", FormatFormation(DefaultFormation[side])}, "a formation square is off the board")
		}
		if set&bit(s) != 0 {
			return 0, rules.Errorc(rules.ErrBadPosition, rules.CodeFormationTwice, []string{"Square", fmt.Sprint(s)}, "%v is given twice", s)
		}
		if homeRanks[side]&bit(s) == 0 {
			ranks := "1-3"
			if side == Black {
				ranks = "6-8"
			}
			return 0, rules.Errorc(rules.ErrBadPosition, rules.CodeFormationRanks, []string{"Square", fmt.Sprint(s), "Ranks", ranks}, "%v is not on %v's first three ranks (%s)", s, side, ranks)
		}
		set |= bit(s)
	}
	if len(squares) != 12 {
		return 0, rules.Errorc(rules.ErrBadPosition, rules.CodeFormationCount, []string{"Given", fmt.Sprint(len(squares))}, "a formation has 12 squares, not %d", len(squares))
	}
	return set, nil
}

// ParseFormation reads a formation for side: 12 squares separated by
// spaces or commas, or "default".
func ParseFormation(side Side, text string) (uint64, error) {
	t := strings.TrimSpace(text)
	if strings.EqualFold(t, "default") {
		return DefaultFormation[side], nil
	}
	fields := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	if len(fields) == 0 {
		return 0, rules.Errorc(rules.ErrSyntax, rules.CodeFormation, []string{"Example", FormatFormation(DefaultFormation[side])}, "a formation is 12 squares, such as %s, or \"default\"", FormatFormation(DefaultFormation[side]))
	}
	var sq []Square
	for _, f := range fields {
		s, ok := parseSquare(f)
		if !ok {
			return 0, rules.Errorc(rules.ErrSyntax, rules.CodeOffBoard, []string{"Text", clip(f), "Size", "8"}, "%q is not a square (a1 to h8)", clip(f))
		}
		sq = append(sq, s)
	}
	return CheckFormation(side, sq)
}

// FormatFormation writes a set of squares as a formation: "a1 c1 ...".
func FormatFormation(set uint64) string {
	var parts []string
	for b := set; b != 0; b &= b - 1 {
		parts = append(parts, first(b).String())
	}
	return strings.Join(parts, " ")
}

// String returns the position's FEN.
func (p Position) String() string { return p.FEN() }

// FEN writes p in the project's format: side to move, then each side's
// pieces (level prefix above 1, "+L" for a carried piece of level L), then
// ":nK" when K plies passed since the last capture or promotion.
// The default start is R:Ra1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8.
func (p Position) FEN() string {
	var sb strings.Builder
	sb.WriteString([]string{"R", "B"}[p.turn&1])
	for _, side := range []Side{Red, Black} {
		sb.WriteString([]string{":R", ":B"}[side])
		sep := ""
		for b := p.occ[side]; b != 0; b &= b - 1 {
			s := first(b)
			_, level, carried, _ := p.Piece(s)
			sb.WriteString(sep)
			sep = ","
			if level > 1 {
				sb.WriteByte(byte('0' + level))
			}
			sb.WriteString(s.String())
			if carried > 0 {
				sb.WriteByte('+')
				sb.WriteByte(byte('0' + carried))
			}
		}
	}
	if p.ply > 0 {
		sb.WriteString(":n")
		sb.WriteString(strconv.Itoa(int(p.ply)))
	}
	return sb.String()
}

// ParseFEN reads a position written by FEN. "W" is accepted for Red. Each
// side's field may be omitted when the side has no pieces.
func ParseFEN(text string) (Position, error) {
	var p Position
	// Letters are read in either case; errors echo the fields as typed.
	t := strings.Join(strings.Fields(text), "")
	parts := strings.Split(t, ":")
	if len(parts) < 1 || len(parts) > 4 {
		return p, rules.Errorf(rules.ErrBadPosition, "a position is side:Rpieces:Bpieces, such as %s", Start().FEN())
	}
	side, ok := parseSide(parts[0])
	if !ok {
		return p, rules.Errorf(rules.ErrBadPosition, "%q is not a side to move (R or B)", clip(parts[0]))
	}
	p.turn = side
	var done [2]bool
	for i, f := range parts[1:] {
		if f == "" {
			return p, rules.Errorf(rules.ErrBadPosition, "empty field in the position")
		}
		if (f[0] == 'N' || f[0] == 'n') && i == len(parts)-2 {
			n, err := strconv.Atoi(f[1:])
			if err != nil || n < 0 || n > 255 {
				return p, rules.Errorf(rules.ErrBadPosition, "%q is not a ply count (n0 to n255)", clip(f))
			}
			p.ply = uint8(n)
			continue
		}
		s, ok := parseSide(f[:1])
		if !ok {
			return p, rules.Errorf(rules.ErrBadPosition, "%q does not start with R or B", clip(f))
		}
		if done[s] {
			return p, rules.Errorf(rules.ErrBadPosition, "%v's pieces are given twice", s)
		}
		done[s] = true
		if len(f) == 1 {
			continue
		}
		for _, pc := range strings.Split(f[1:], ",") {
			if err := p.parsePiece(s, pc); err != nil {
				return p, err
			}
		}
	}
	if err := p.Valid(); err != nil {
		return Position{}, err
	}
	return p, nil
}

func parseSide(t string) (Side, bool) {
	switch strings.ToUpper(t) {
	case "R", "W":
		return Red, true
	case "B":
		return Black, true
	}
	return 0, false
}

func (p *Position) parsePiece(side Side, t string) error {
	orig := t
	level, carried := 1, 0
	if t != "" && t[0] >= '0' && t[0] <= '9' {
		level = int(t[0] - '0')
		t = t[1:]
	}
	if i := strings.IndexByte(t, '+'); i >= 0 {
		if len(t) != i+2 || t[i+1] < '1' || t[i+1] > '4' {
			return rules.Errorf(rules.ErrBadPosition, "%q: a carried piece is +1 to +4", clip(orig))
		}
		carried = int(t[i+1] - '0')
		t = t[:i]
	}
	s, ok := parseSquare(t)
	if !ok || level < 1 || level > 6 {
		return rules.Errorf(rules.ErrBadPosition, "%q is not a piece (a square, with a level 2-6 before it)", clip(orig))
	}
	if carried > 0 && level < UltraKing {
		return rules.Errorf(rules.ErrBadPosition, "%q: only ultra kings carry pieces", clip(orig))
	}
	if (p.occ[0]|p.occ[1])&bit(s) != 0 {
		return rules.Errorf(rules.ErrBadPosition, "%v is given twice", s)
	}
	p.put(s, side, level, carried)
	return nil
}
