package ultradamas

import (
	"fmt"
	"sort"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// Route returns the landing squares of a jump series m of p, the shortest
// route first found (directions tried clockwise from north); nil when m is
// not a jump series.
func (p Position) Route(m Move) []Square {
	if m.First.Kind != Jump {
		return nil
	}
	_, level, _, ok := p.Piece(m.First.From)
	if !ok || level > QuadKing {
		return nil
	}
	for limit := 1; limit <= 24; limit++ {
		g := gen{p: &p, side: p.turn, want: &m, limit: limit}
		g.startSeries(m.First.From, level)
		g.series(m.First.From, 0, 0, level == Man)
		if g.found {
			return append([]Square(nil), g.route[:g.foundLen]...)
		}
	}
	return nil
}

// walk follows a typed route of landing squares for the piece on from and
// returns what it captures; ok is false if a landing is not a jump.
func (p Position) walk(from Square, landings []Square) (captured uint64, ok bool) {
	_, level, _, _ := p.Piece(from)
	g := gen{p: &p, side: p.turn}
	g.startSeries(from, level)
	var jumped uint64
	s := from
	for i, to := range landings {
		var hs [8]hop
		n := g.hops(s, jumped, i == 0 && level == Man, &hs)
		ok = false
		for _, h := range hs[:n] {
			if h.to == to {
				jumped |= h.over
				if h.capture {
					captured |= h.over
				}
				ok = true
				break
			}
		}
		if !ok {
			return 0, false
		}
		s = to
	}
	return captured, true
}

// Text writes m in the page's notation: c3-d4, c3xe5xg7, c3xd4, g7^h6,
// h6^b2, h6-c3;c3xd4.
func (p Position) Text(m Move) string {
	var sb strings.Builder
	p.actionText(&sb, m, m.First)
	if m.Second.Kind != NoAction {
		sb.WriteByte(';')
		p.actionText(&sb, m, m.Second)
	}
	return sb.String()
}

func (p Position) actionText(sb *strings.Builder, m Move, a Action) {
	sb.WriteString(a.From.String())
	switch a.Kind {
	case Shift:
		sb.WriteByte('-')
	case Consume:
		sb.WriteByte('x')
	case Load, Drop:
		sb.WriteByte('^')
	case Jump:
		for _, s := range p.Route(m) {
			sb.WriteByte('x')
			sb.WriteString(s.String())
		}
		return
	}
	sb.WriteString(a.To.String())
}

// mover is the square of the piece that makes m.
func (m Move) mover() Square { return m.First.Mover() }

// Capturers lists the squares of the pieces that have a capturing move.
func (p Position) Capturers() []Square {
	g := gen{p: &p, side: p.turn}
	p.captures(&g)
	return movers(g.moves)
}

func movers(ms []Move) []Square {
	var set uint64
	for _, m := range ms {
		set |= bit(m.mover())
	}
	var out []Square
	for ; set != 0; set &= set - 1 {
		out = append(out, first(set))
	}
	return out
}

// ParseMove finds the legal move of p that text names. It accepts the
// page's notation (case-insensitive, spaces ignored); a jump series may
// also be written as its start and end alone when that names one move.
// Errors are *rules.Error of kind ErrSyntax, ErrIllegal or ErrAmbiguous.
func (p Position) ParseMove(text string) (Move, error) {
	t := strings.ToLower(strings.Join(strings.Fields(text), ""))
	acts, err := parseActions(t)
	if err != nil {
		return Move{}, rules.Errorc(rules.ErrSyntax, rules.CodeNotMove, []string{"Text", clip(text), "Examples", "c3-d4, c3xe5xg7, c3xd4, g7^h6, h6-c3;c3xd4"}, "%q is not a move (write c3-d4, c3xe5xg7, c3xd4, g7^h6 or h6-c3;c3xd4)", clip(text))
	}
	legal := p.Moves(nil)
	// The piece that moves.
	a := acts[0]
	mover := a.squares[0]
	if a.sep == '^' && len(a.squares) == 2 {
		if _, lvl, carried, ok := p.Piece(a.squares[0]); ok && lvl >= UltraKing && carried > 0 {
			mover = a.squares[0]
		} else {
			mover = a.squares[1]
		}
	}
	if len(legal) == 0 {
		return Move{}, rules.Errorc(rules.ErrGameOver, rules.CodeNoLegalMove, []string{"Move", clip(text)}, "%v has no legal move", p.turn)
	}
	side, _, _, ok := p.Piece(a.squares[0])
	switch {
	case !ok:
		return Move{}, rules.Errorc(rules.ErrIllegal, rules.CodeNoPiece, []string{"Move", clip(text), "Square", fmt.Sprint(a.squares[0])}, "there is no piece on %v", a.squares[0])
	case side != p.turn:
		return Move{}, rules.Errorc(rules.ErrIllegal, rules.CodeNotYourPiece, []string{"Move", clip(text), "Square", fmt.Sprint(a.squares[0])}, "the piece on %v is %v's; %v is to move", a.squares[0], side, p.turn)
	}
	_, level, _, _ := p.Piece(mover)
	var match []Move
	for _, m := range legal {
		if p.names(m, acts) {
			match = append(match, m)
		}
	}
	if len(match) == 1 {
		return match[0], nil
	}
	if len(match) > 1 {
		return Move{}, rules.Errorc(rules.ErrAmbiguous, rules.CodeAmbiguous, []string{"Move", clip(text), "Moves", p.list(match, 6)}, "%q names %d moves: %s", clip(text), len(match), p.list(match, 6))
	}
	if caps := p.Capturers(); len(caps) > 0 && !(acts[0].sep == 'x' && hasSquare(caps, mover)) {
		return Move{}, rules.Errorc(rules.ErrIllegal, rules.CodeMustCapture, []string{"Move", clip(text), "Squares", joinSquares(caps)}, "a capture is obligatory: %s can capture", joinSquares(caps))
	}
	var own []Move
	for _, m := range legal {
		if m.mover() == mover {
			own = append(own, m)
		}
	}
	if len(acts) == 1 {
		// A double ultra king's first action alone, when the second is compulsory.
		var cont []Move
		for _, m := range own {
			if m.Second.Kind == Consume && p.namesAction(m, m.First, acts[0]) {
				cont = append(cont, m)
			}
		}
		if len(cont) > 0 {
			return Move{}, rules.Errorc(rules.ErrIllegal, rules.CodeMustConsume, []string{"Move", clip(text), "Moves", p.list(cont, 6)}, "after %q the double ultra king must consume: %s", clip(text), p.list(cont, 6))
		}
	}
	if len(own) == 0 {
		return Move{}, rules.Errorc(rules.ErrIllegal, rules.CodePieceCannotMove, []string{"Move", clip(text), "Square", fmt.Sprint(mover)}, "the %s on %v cannot move now", levelNames[level], mover)
	}
	return Move{}, rules.Errorc(rules.ErrIllegal, rules.CodeNotLegalFrom, []string{"Move", clip(text), "Square", fmt.Sprint(mover), "Moves", p.list(own, 6)}, "%q is not legal (the %s on %v can play %s)", clip(text), levelNames[level], mover, p.list(own, 6))
}

func hasSquare(list []Square, s Square) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// names reports whether the typed actions name m.
func (p Position) names(m Move, acts []typedAction) bool {
	if (m.Second.Kind == NoAction) != (len(acts) == 1) {
		return false
	}
	if !p.namesAction(m, m.First, acts[0]) {
		return false
	}
	if len(acts) == 2 {
		return p.namesAction(m, m.Second, acts[1])
	}
	return true
}

func (p Position) namesAction(m Move, a Action, t typedAction) bool {
	sq := t.squares
	if a.From != sq[0] || a.To != sq[len(sq)-1] {
		return false
	}
	switch a.Kind {
	case Shift:
		return t.sep == '-' && len(sq) == 2
	case Consume:
		return t.sep == 'x' && len(sq) == 2
	case Load, Drop:
		return t.sep == '^' && len(sq) == 2
	case Jump:
		if t.sep != 'x' {
			return false
		}
		if captured, ok := p.walk(sq[0], sq[1:]); ok {
			return captured == m.Captured
		}
		// The start and end alone name the move when no other series
		// between them exists (checked by the caller's ambiguity test).
		return len(sq) == 2
	}
	return false
}

// typedAction is one action as typed: its squares and separator.
type typedAction struct {
	squares []Square
	sep     byte
}

func parseActions(t string) ([]typedAction, error) {
	parts := strings.Split(t, ";")
	if len(parts) > 2 {
		return nil, rules.ErrSyntax
	}
	var out []typedAction
	for _, part := range parts {
		var a typedAction
		for i := 0; ; i += 3 {
			if i+2 > len(part) {
				return nil, rules.ErrSyntax
			}
			s, ok := parseSquare(part[i : i+2])
			if !ok {
				return nil, rules.ErrSyntax
			}
			a.squares = append(a.squares, s)
			if i+2 == len(part) {
				break
			}
			sep := part[i+2]
			if sep == ':' {
				sep = 'x'
			}
			if sep != '-' && sep != 'x' && sep != '^' || (a.sep != 0 && a.sep != sep) {
				return nil, rules.ErrSyntax
			}
			a.sep = sep
		}
		if len(a.squares) < 2 || (a.sep != 'x' && len(a.squares) != 2) || len(a.squares) > 25 {
			return nil, rules.ErrSyntax
		}
		out = append(out, a)
	}
	return out, nil
}

// list writes up to n moves, sorted, for a message.
func (p Position) list(ms []Move, n int) string {
	var texts []string
	for _, m := range ms {
		texts = append(texts, p.Text(m))
	}
	sort.Strings(texts)
	if len(texts) > n {
		return strings.Join(texts[:n], ", ") + ", ..."
	}
	return strings.Join(texts, ", ")
}

func joinSquares(sq []Square) string {
	var parts []string
	for _, s := range sq {
		parts = append(parts, s.String())
	}
	return strings.Join(parts, ", ")
}

// clip shortens user text for a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "..."
	}
	return s
}
