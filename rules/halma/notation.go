package halma

import (
	"fmt"
	"sort"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// ParseMove finds the legal move that text names: "a1-e5" (start and end
// square: a step or any jump series between them), a full jump series
// "a1-c3-e5" ('x' and ':' also separate squares), or "pass" when passing
// is the only move. Errors are rules.ErrSyntax, rules.ErrIllegal or
// rules.ErrGameOver errors.
func (p Position) ParseMove(text string) (Move, error) {
	if p.won != 0 {
		return Move{}, rules.Errorc(rules.ErrGameOver, rules.CodeGameOver, nil, "the game is over: Player %d has won", p.won)
	}
	moves := p.Moves()
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "pass" {
		if len(moves) == 1 && moves[0].IsPass() {
			return Pass, nil
		}
		return Move{}, rules.Errorc(rules.ErrIllegal, rules.CodeNoPass, nil, "illegal move \"pass\": a player may pass only when it has no move")
	}
	path, err := parsePath(text, p.Size())
	if err != nil {
		return Move{}, err
	}
	illegal := func(code rules.Code, kv []string, format string, args ...any) (Move, error) {
		return Move{}, rules.Errorc(rules.ErrIllegal, code, append([]string{"Move", short(text)}, kv...), "illegal move %q: %s", short(text), fmt.Sprintf(format, args...))
	}
	from, to := path[0], path[len(path)-1]
	if seat := p.At(from); seat != int(p.turn) {
		if seat < 0 {
			return illegal(rules.CodeNoPiece, []string{"Square", from.String()}, "no piece on %s", from)
		}
		return illegal(rules.CodeNotYourPiece, []string{"Square", from.String()}, "the piece on %s is Player %d's, Player %d is to move", from, seat+1, p.turn+1)
	}
	if from == to {
		return illegal(rules.CodeSameSquare, nil, "a move ends on another square than it starts")
	}
	if len(path) > 2 {
		if why := p.checkSeries(path); why != nil {
			return illegal(why.Code, why.Args, "%s", why.Msg)
		}
	}
	for _, m := range moves {
		if m.From == from && m.To == to && !m.IsPass() {
			return m, nil
		}
	}
	var ends []string
	for _, m := range moves {
		if m.From == from {
			ends = append(ends, m.To.String())
		}
	}
	if len(ends) == 0 {
		return illegal(rules.CodePieceCannotMove, []string{"Square", from.String()}, "the piece on %s cannot move", from)
	}
	sort.Strings(ends)
	if len(ends) > 8 {
		ends = append(ends[:8], "…")
	}
	return illegal(rules.CodeCannotReach, []string{"Square", from.String(), "To", to.String(), "Squares", strings.Join(ends, ", ")}, "%s cannot reach %s (it can reach %s)", from, to, strings.Join(ends, ", "))
}

// parsePath reads squares separated by '-', 'x' or ':'.
func parsePath(text string, size int) ([]Square, error) {
	syntax := func(why string) ([]Square, error) {
		return nil, rules.Errorc(rules.ErrSyntax, rules.CodeNotHalmaMove, []string{"Text", short(text), "Examples", "a1-b2, a1-c3-e5"}, "%q is not a halma move: %s (write from-to, like a1-b2, or a jump series, like a1-c3-e5)", short(text), why)
	}
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "" {
		return syntax("it is empty")
	}
	fields := strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == 'x' || r == ':' })
	if len(fields) < 2 || strings.Count(t, "-")+strings.Count(t, "x")+strings.Count(t, ":") != len(fields)-1 {
		return syntax("it needs at least two squares with one separator between them")
	}
	if len(fields) > 257 {
		return syntax("it has too many squares")
	}
	path := make([]Square, len(fields))
	for i, f := range fields {
		q, err := rules.ParseSquare(f, size)
		if err != nil {
			return syntax(fmt.Sprintf("%q is not a square of the %dx%d board", short(f), size, size))
		}
		path[i] = SquareOf(q)
	}
	return path, nil
}

// checkSeries says why path (three squares or more) is not a jump series
// of the seat to move (its code and arguments, Msg in English), or returns
// nil.
func (p Position) checkSeries(path []Square) *rules.Error {
	why := func(code rules.Code, kv []string, format string, args ...any) *rules.Error {
		return &rules.Error{Kind: rules.ErrIllegal, Code: code, Args: kv, Msg: fmt.Sprintf(format, args...)}
	}
	occ := p.Occupied().Without(path[0])
	target := p.Target(int(p.turn))
	in := target.Has(path[0])
	seen := Board{}.With(path[0])
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		df, dr := b.File()-a.File(), b.Rank()-a.Rank()
		if (df != 0 && df != 2 && df != -2) || (dr != 0 && dr != 2 && dr != -2) || (df == 0 && dr == 0) {
			return why(rules.CodeNotJump, []string{"From", a.String(), "To", b.String()}, "%s to %s is not a jump (a step cannot be part of a series)", a, b)
		}
		over := SquareAt(a.File()+df/2, a.Rank()+dr/2)
		switch {
		case !occ.Has(over):
			return why(rules.CodeJumpOverEmpty, []string{"From", a.String(), "To", b.String(), "Over", over.String()}, "%s to %s jumps over the empty square %s", a, b, over)
		case occ.Has(b):
			return why(rules.CodeLandsOccupied, []string{"From", a.String(), "To", b.String()}, "%s to %s lands on an occupied square", a, b)
		case seen.Has(b):
			return why(rules.CodeLandsTwice, []string{"Square", b.String()}, "the series lands on %s twice", b)
		case in && !target.Has(b):
			return why(rules.CodeLeavesCamp, []string{"From", a.String(), "To", b.String()}, "%s to %s leaves the target camp", a, b)
		}
		seen = seen.With(b)
		in = in || target.Has(b)
	}
	return nil
}
