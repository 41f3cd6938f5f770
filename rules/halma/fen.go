package halma

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// FEN returns the position in the page's format: board size, number of
// players, the player to move (1 for seat 0), then each seat's squares,
// each list ordered from its own corner (row by row from the corner's edge
// rank, each row from its edge file):
// "8:2:1:a1,b1,c1,d1,a2,b2,c2,a3,b3,a4:h8,g8,f8,e8,h7,g7,f7,h6,g6,h5".
func (p Position) FEN() string {
	l := p.l()
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%d:%d", l.size, l.players, p.turn+1)
	for seat := 0; seat < l.players; seat++ {
		b.WriteByte(':')
		first := true
		for i := 0; i < l.size; i++ {
			for j := 0; j < l.size; j++ {
				s := l.corners[seat].square(l.size, i, j)
				if p.pieces[seat].Has(s) {
					if !first {
						b.WriteByte(',')
					}
					b.WriteString(s.String())
					first = false
				}
			}
		}
	}
	return b.String()
}

// ParseFEN reads a position in the format FEN writes. Squares may be in
// any order and case; a player may have fewer pieces than a camp holds
// (not more). The game counts as won when the seat that moved last (the
// one before the seat to move) meets the win rule. In the four-player game
// a player with no squares (an empty field, "16:4:1:a1,b1::p16:p1") has
// left the game: it may not be the one to move, and when only one player
// has pieces that player has won. Errors are rules.ErrBadPosition errors.
func ParseFEN(fen string) (Position, error) {
	bad := func(format string, args ...any) (Position, error) {
		return Position{}, rules.Errorf(rules.ErrBadPosition, "bad halma position %q: %s", short(fen), fmt.Sprintf(format, args...))
	}
	parts := strings.Split(strings.TrimSpace(fen), ":")
	if len(parts) < 3 {
		return bad("want size:players:to-move:squares of each player")
	}
	size, ok := number(parts[0])
	if !ok || (size != 8 && size != 10 && size != 16) {
		return bad("board size %q is not 8, 10 or 16", short(parts[0]))
	}
	players, ok := number(parts[1])
	if !ok || (players != 2 && players != 4) {
		return bad("number of players %q is not 2 or 4", short(parts[1]))
	}
	lay, ok := findLayout(size, players)
	if !ok {
		return bad("%d players need the 16x16 board", players)
	}
	turn, ok := number(parts[2])
	if !ok || turn < 1 || turn > players {
		return bad("player to move %q is not 1 to %d", short(parts[2]), players)
	}
	if len(parts) != 3+players {
		return bad("want %d lists of squares, found %d", players, len(parts)-3)
	}
	p := Position{lay: uint8(lay), turn: uint8(turn - 1)}
	var all Board
	for seat := 0; seat < players; seat++ {
		list := strings.TrimSpace(parts[3+seat])
		if list == "" {
			continue
		}
		for _, name := range strings.Split(list, ",") {
			q, err := rules.ParseSquare(name, size)
			if err != nil {
				return bad("player %d: %q is not a square of the %dx%d board", seat+1, short(name), size, size)
			}
			s := SquareOf(q)
			if all.Has(s) {
				return bad("%s is listed twice", s)
			}
			all = all.With(s)
			p.pieces[seat] = p.pieces[seat].With(s)
		}
		if n := p.pieces[seat].Count(); n > layouts[lay].pieces {
			return bad("player %d has %d pieces, at most %d", seat+1, n, layouts[lay].pieces)
		}
	}
	if players > 2 {
		if p.Occupied().Empty() {
			return bad("no player has pieces")
		}
		if p.pieces[p.turn].Empty() {
			return bad("player %d is to move but has no pieces (a player without pieces has left the game)", turn)
		}
	}
	last := p.previous(int(p.turn))
	switch {
	case p.hasWon(last):
		p.won = uint8(last + 1)
	case players > 2 && p.alone() >= 0:
		p.won = uint8(p.alone() + 1)
	}
	return p, nil
}

// number reads a small decimal number without sign or spaces.
func number(s string) (int, bool) {
	if len(s) == 0 || len(s) > 3 {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// short cuts long user text for an error message.
func short(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
