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
		return Move{}, rules.Errorf(rules.ErrGameOver, "the game is over: Player %d has won", p.won)
	}
	moves := p.Moves()
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "pass" {
		if len(moves) == 1 && moves[0].IsPass() {
			return Pass, nil
		}
		return Move{}, rules.Errorf(rules.ErrIllegal, "illegal move \"pass\": a player may pass only when it has no move")
	}
	path, err := parsePath(text, p.Size())
	if err != nil {
		return Move{}, err
	}
	illegal := func(format string, args ...any) (Move, error) {
		return Move{}, rules.Errorf(rules.ErrIllegal, "illegal move %q: %s", short(text), fmt.Sprintf(format, args...))
	}
	from, to := path[0], path[len(path)-1]
	if seat := p.At(from); seat != int(p.turn) {
		if seat < 0 {
			return illegal("no piece on %s", from)
		}
		return illegal("the piece on %s is Player %d's, Player %d is to move", from, seat+1, p.turn+1)
	}
	if from == to {
		return illegal("a move ends on another square than it starts")
	}
	if len(path) > 2 {
		if why := p.checkSeries(path); why != "" {
			return illegal("%s", why)
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
		return illegal("the piece on %s cannot move", from)
	}
	sort.Strings(ends)
	if len(ends) > 8 {
		ends = append(ends[:8], "...")
	}
	return illegal("%s cannot reach %s (it can reach %s)", from, to, strings.Join(ends, ", "))
}

// parsePath reads squares separated by '-', 'x' or ':'.
func parsePath(text string, size int) ([]Sq, error) {
	syntax := func(why string) ([]Sq, error) {
		return nil, rules.Errorf(rules.ErrSyntax, "%q is not a halma move: %s (write from-to, like a1-b2, or a jump series, like a1-c3-e5)", short(text), why)
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
	path := make([]Sq, len(fields))
	for i, f := range fields {
		q, err := rules.ParseSquare(f, size)
		if err != nil {
			return syntax(fmt.Sprintf("%q is not a square of the %dx%d board", short(f), size, size))
		}
		path[i] = SqOf(q)
	}
	return path, nil
}

// checkSeries says why path (three squares or more) is not a jump series
// of the seat to move, or returns "".
func (p Position) checkSeries(path []Sq) string {
	occ := p.Occupied().Without(path[0])
	target := p.Target(int(p.turn))
	in := target.Has(path[0])
	seen := Board{}.With(path[0])
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		df, dr := b.File()-a.File(), b.Rank()-a.Rank()
		if (df != 0 && df != 2 && df != -2) || (dr != 0 && dr != 2 && dr != -2) || (df == 0 && dr == 0) {
			return fmt.Sprintf("%s to %s is not a jump (a step cannot be part of a series)", a, b)
		}
		over := SqAt(a.File()+df/2, a.Rank()+dr/2)
		switch {
		case !occ.Has(over):
			return fmt.Sprintf("%s to %s jumps over the empty square %s", a, b, over)
		case occ.Has(b):
			return fmt.Sprintf("%s to %s lands on an occupied square", a, b)
		case seen.Has(b):
			return fmt.Sprintf("the series lands on %s twice", b)
		case in && !target.Has(b):
			return fmt.Sprintf("%s to %s leaves the target camp", a, b)
		}
		seen = seen.With(b)
		in = in || target.Has(b)
	}
	return ""
}
