package draughts

import (
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// FEN writes p as on the rules page: the side to move, then each side's
// pieces with algebraic squares, kings prefixed with K, ordered by rank and
// file: "W:Wb1,d1,Kf5:Bb7,d7".
func (v Variant) FEN(p Position) string {
	var b strings.Builder
	if p.ToMove == White {
		b.WriteString("W")
	} else {
		b.WriteString("B")
	}
	for _, c := range []Color{White, Black} {
		b.WriteString(":")
		b.WriteString(c.String()[:1])
		for i, f := range v.sortedSquares(p.Pieces(c)) {
			if i > 0 {
				b.WriteString(",")
			}
			if p.Kings&(1<<f) != 0 {
				b.WriteString("K")
			}
			b.WriteString(v.Rules(f).String())
		}
	}
	return b.String()
}

// sortedSquares returns the squares of set ordered by rank, then file.
func (v Variant) sortedSquares(set uint32) []Square {
	var fs []Square
	for b := set; b != 0; b &= b - 1 {
		fs = append(fs, Square(bits.TrailingZeros32(b)))
	}
	sort.Slice(fs, func(i, j int) bool {
		a, b := v.Rules(fs[i]), v.Rules(fs[j])
		if a.Rank != b.Rank {
			return a.Rank < b.Rank
		}
		return a.File < b.File
	})
	return fs
}

// ParseFEN reads a position: "W:Wb1,d1,Kf5:Bb7,d7" with algebraic squares
// or numbers ("B:W1-12:B21-32", ranges allowed), in either order of the
// two piece lists. Spaces and a final period are ignored. Malformed or
// impossible positions are rules.ErrBadPosition errors.
func (v Variant) ParseFEN(text string) (Position, error) {
	s := strings.Join(strings.Fields(text), "")
	s = strings.TrimSuffix(s, ".")
	bad := func(format string, args ...any) (Position, error) {
		return Position{}, rules.Errorf(rules.ErrBadPosition, "bad FEN: "+format, args...)
	}
	if s == "" {
		return bad("empty position")
	}
	parts := strings.Split(s, ":")
	var p Position
	switch strings.ToUpper(parts[0]) {
	case "W":
		p.ToMove = White
	case "B":
		p.ToMove = Black
	default:
		return bad("unknown side to move %q (W or B)", clip(parts[0]))
	}
	if len(parts) > 3 {
		return bad("too many sections (side:white pieces:black pieces)")
	}
	seen := [2]bool{}
	for _, part := range parts[1:] {
		if part == "" {
			return bad("empty section (write W or B before the pieces)")
		}
		var c Color
		switch part[0] {
		case 'W', 'w':
			c = White
		case 'B', 'b':
			c = Black
		default:
			return bad("section %q must start with W or B", clip(part))
		}
		if seen[c] {
			return bad("%s pieces listed twice", c)
		}
		seen[c] = true
		if len(part) == 1 {
			continue
		}
		for _, item := range strings.Split(part[1:], ",") {
			king := false
			if item != "" && (item[0] == 'K' || item[0] == 'k') {
				king, item = true, item[1:]
			}
			fs, err := v.parseFENSquares(item)
			if err != nil {
				return Position{}, err
			}
			for _, f := range fs {
				bit := uint32(1) << f
				if (p.White|p.Black)&bit != 0 {
					return bad("square %s listed twice", v.Rules(f))
				}
				if c == White {
					p.White |= bit
				} else {
					p.Black |= bit
				}
				if king {
					p.Kings |= bit
				} else if (c == White && bit&topRank != 0) || (c == Black && bit&lowRank != 0) {
					return bad("a %s man on %s, its promotion rank", strings.ToLower(c.String()), v.Rules(f))
				}
			}
		}
	}
	for _, c := range []Color{White, Black} {
		if n := bits.OnesCount32(p.Pieces(c)); n > 12 {
			return bad("%s has %d pieces (at most 12)", c, n)
		}
	}
	return p, nil
}

// parseFENSquares reads one square ("c3", "11") or a numeric range ("1-12").
func (v Variant) parseFENSquares(item string) ([]Square, error) {
	if a, b, ok := strings.Cut(item, "-"); ok {
		lo, err1 := strconv.Atoi(a)
		hi, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || lo < 1 || hi > 32 || lo > hi {
			return nil, rules.Errorf(rules.ErrBadPosition, "bad FEN: %q is not a range of squares 1-32", clip(item))
		}
		var fs []Square
		for n := lo; n <= hi; n++ {
			f, _ := v.SquareOfNumber(n)
			fs = append(fs, f)
		}
		return fs, nil
	}
	f, err := v.parseSquare(item)
	if err != nil {
		return nil, rules.Errorf(rules.ErrBadPosition, "bad FEN: %s", strings.TrimPrefix(err.Error(), "rules: "))
	}
	return []Square{f}, nil
}

// parseSquare reads a square of this variant: algebraic ("c3", "C3") or a
// number 1-32. Errors are rules.ErrSyntax.
func (v Variant) parseSquare(t string) (Square, error) {
	if t == "" {
		return NoSquare, rules.Errorc(rules.ErrSyntax, rules.CodeNoSquare, nil, "a square is missing")
	}
	if t[0] >= '0' && t[0] <= '9' {
		n, err := strconv.Atoi(t)
		f, ok := v.SquareOfNumber(n)
		if err != nil || !ok {
			return NoSquare, rules.Errorc(rules.ErrSyntax, rules.CodeOffBoard, []string{"Text", clip(t), "Size", "8"}, "%q is not a square (numbers go from 1 to 32)", clip(t))
		}
		return f, nil
	}
	sq, err := rules.ParseSquare(t, 8)
	if err != nil {
		return NoSquare, rules.Errorc(rules.ErrSyntax, rules.CodeNotSquare, []string{"Text", clip(t)}, "%q is not a square of the board", clip(t))
	}
	f, ok := v.SquareOf(sq)
	if !ok {
		return NoSquare, rules.Errorc(rules.ErrSyntax, rules.CodeNotPlayingSquare, []string{"Square", sq.String()}, "%s is not a playing square", sq)
	}
	return f, nil
}

// clip shortens text quoted in error messages to keep them on one short line.
func clip(s string) string {
	if r := []rune(s); len(r) > 24 {
		return string(r[:21]) + "..."
	}
	return s
}
