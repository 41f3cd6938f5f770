package halma

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// Variant is one configuration of the game: the board, the number of
// players and the leave-home rule.
type Variant struct {
	// Size is the number of files and ranks: 8, 10 or 16.
	Size int
	// Players is 2, or 4 on the 16x16 board.
	Players int
	// LeaveHome is N for the leave-home rule (a player that still has a
	// piece in its home camp after its Nth move loses), 0 for off. Only the
	// two-player games have it.
	LeaveHome int
}

// DefaultLeaveHome is the page's default of the leave-home rule for a
// board size: 30 on 8x8, 50 on 10x10, off (0) on 16x16.
func DefaultLeaveHome(size int) int {
	switch size {
	case 8:
		return 30
	case 10:
		return 50
	}
	return 0
}

// Check returns a rules.ErrBadOption error when v is not one of the
// page's configurations.
func (v Variant) Check() error {
	if v.Size != 8 && v.Size != 10 && v.Size != 16 {
		return rules.Errorc(rules.ErrBadOption, rules.CodeBadValue, []string{"Key", "size", "Value", strconv.Itoa(v.Size), "Choices", "8, 10, 16"}, "halma size=%d is not allowed (choose 8, 10 or 16)", v.Size)
	}
	if v.Players != 2 && v.Players != 4 {
		return rules.Errorc(rules.ErrBadOption, rules.CodeBadValue, []string{"Key", "players", "Value", strconv.Itoa(v.Players), "Choices", "2, 4"}, "halma players=%d is not allowed (choose 2 or 4)", v.Players)
	}
	if v.Players == 4 && v.Size != 16 {
		return rules.Errorc(rules.ErrBadOption, rules.CodeFourNeedSixteen, nil, "halma with 4 players needs size=16")
	}
	if v.LeaveHome < 0 {
		return rules.Errorc(rules.ErrBadOption, rules.CodeBadLeaveHome, []string{"Value", strconv.Itoa(v.LeaveHome)}, "halma leavehome=%d is not allowed (a number of moves, or off)", v.LeaveHome)
	}
	if v.LeaveHome > 0 && v.Players == 4 {
		return rules.Errorc(rules.ErrBadOption, rules.CodeLeaveHomeTwo, nil, "the leave-home rule is for two players only (use leavehome=off)")
	}
	return nil
}

func (v Variant) layout() int {
	i, ok := findLayout(v.Size, v.Players)
	if !ok {
		return lay16x2
	}
	return i
}

// Home returns the home camp of seat in variant v (v must pass Check).
func (v Variant) Home(seat int) Board { return layouts[v.layout()].home[seat&3] }

// Start returns the initial position, every camp full of its owner's
// pieces, with seat first to move (taken modulo the number of players).
// v must pass Check.
func (v Variant) Start(first int) Position {
	l := v.layout()
	p := Position{lay: uint8(l)}
	players := layouts[l].players
	for seat := 0; seat < players; seat++ {
		p.pieces[seat] = layouts[l].home[seat]
	}
	first %= players
	if first < 0 {
		first += players
	}
	p.turn = uint8(first)
	return p
}

// Position is a Halma position: where every seat's pieces stand, the seat
// to move and whether the game has been won. It is a comparable value.
//
// In the four-player game a seat without pieces has left the game (Halma
// has no captures, so nothing else empties a seat): the turn order skips
// it, and its empty camp must be filled by the player whose target it is
// alone. See Retire.
type Position struct {
	pieces [4]Board
	lay    uint8 // index into layouts
	turn   uint8 // the seat to move
	won    uint8 // the winner's seat + 1; 0 while the game goes on
}

func (p *Position) l() *layout { return layouts[p.lay] }

// Size is the number of files and ranks of the board.
func (p Position) Size() int { return p.l().size }

// Players is the number of players.
func (p Position) Players() int { return p.l().players }

// Turn is the seat to move next (also after the game has been won: the
// seat after the winner that still plays).
func (p Position) Turn() int { return int(p.turn) }

// Retired reports whether seat has left the game: a seat without pieces
// in the four-player game. In a two-player game no one retires.
func (p Position) Retired(seat int) bool {
	return p.l().players > 2 && seat >= 0 && seat < p.l().players && p.pieces[seat].Empty()
}

// next returns the seat that moves after seat: the next one in turn
// order, skipping (with four players) the seats that have left; seat
// itself when no other is left.
func (p *Position) next(seat int) int {
	n := p.l().players
	if n == 2 {
		return 1 - seat
	}
	for i := 1; i < n; i++ {
		if s := (seat + i) % n; !p.pieces[s].Empty() {
			return s
		}
	}
	return seat
}

// previous returns the seat that moved before seat: the previous one in
// turn order, skipping (with four players) the seats that have left.
func (p *Position) previous(seat int) int {
	n := p.l().players
	if n == 2 {
		return 1 - seat
	}
	for i := 1; i < n; i++ {
		if s := (seat + n - i) % n; !p.pieces[s].Empty() {
			return s
		}
	}
	return seat
}

// alone returns the only seat that still has pieces, or -1 when more than
// one has (or none).
func (p *Position) alone() int {
	seat := -1
	for s := 0; s < p.l().players; s++ {
		if !p.pieces[s].Empty() {
			if seat >= 0 {
				return -1
			}
			seat = s
		}
	}
	return seat
}

// Retire returns the position after seat has left a four-player game
// (it resigned or abandoned): its pieces leave the board, so they block no
// camp and the player whose target is its camp must fill that camp alone;
// the turn order skips it; when it was to move, the next seat with pieces
// moves; when only one seat with pieces is left, that seat has won.
// Errors: rules.ErrNotNow in a two-player game, for a seat that is not in
// the game or has left already; rules.ErrGameOver once the game is won.
func (p Position) Retire(seat int) (Position, error) {
	n := p.Players()
	switch {
	case n == 2:
		return p, rules.Errorc(rules.ErrNotNow, rules.CodeCannotLeave, nil, "in a two-player game a player cannot leave and let the other play on: resigning ends the game")
	case seat < 0 || seat >= n:
		return p, rules.Errorc(rules.ErrNotNow, rules.CodeNoPlayer, []string{"N", strconv.Itoa(seat + 1)}, "there is no Player %d in this game", seat+1)
	case p.won != 0:
		return p, rules.Errorc(rules.ErrGameOver, rules.CodeGameOver, nil, "the game is over: Player %d has won", p.won)
	case p.pieces[seat].Empty():
		return p, rules.Errorc(rules.ErrNotNow, rules.CodeAlreadyLeft, []string{"N", strconv.Itoa(seat + 1)}, "Player %d has left the game already", seat+1)
	}
	p.pieces[seat] = Board{}
	if int(p.turn) == seat {
		p.turn = uint8(p.next(seat))
	}
	if w := p.alone(); w >= 0 {
		p.won = uint8(w + 1)
		p.turn = uint8(w)
	}
	return p, nil
}

// Winner is the seat that has won, or -1.
func (p Position) Winner() int { return int(p.won) - 1 }

// Pieces returns the squares of seat's pieces.
func (p Position) Pieces(seat int) Board { return p.pieces[seat&3] }

// Occupied returns the squares of every piece.
func (p Position) Occupied() Board {
	return p.pieces[0].Or(p.pieces[1]).Or(p.pieces[2]).Or(p.pieces[3])
}

// At returns the seat of the piece on s, or -1 for an empty square.
func (p Position) At(s Square) int {
	for seat := 0; seat < 4; seat++ {
		if p.pieces[seat].Has(s) {
			return seat
		}
	}
	return -1
}

// Home returns seat's home camp.
func (p Position) Home(seat int) Board { return p.l().home[seat&3] }

// Target returns seat's target camp: the home camp diagonally opposite.
func (p Position) Target(seat int) Board { return p.l().home[p.l().target[seat&3]] }

// OnBoard reports whether s is a square of this board.
func (p Position) OnBoard(s Square) bool { return p.l().g.board.Has(s) }

// Move is a move: its start and end square. All jump series from one
// square to another are the same move. A pass has From == To.
type Move struct{ From, To Square }

// Pass is the move of a player that has no other.
var Pass = Move{}

// IsPass reports whether m is a pass.
func (m Move) IsPass() bool { return m.From == m.To }

// String returns the move's canonical text: "a1-e5", or "pass".
func (m Move) String() string {
	if m.IsPass() {
		return "pass"
	}
	return m.From.String() + "-" + m.To.String()
}

// Moves returns the legal moves of the seat to move: for each piece, every
// square it can reach by a step or a jump series; a single Pass when there
// is none; nothing when the game has been won.
func (p Position) Moves() []Move { return p.AppendMoves(nil) }

// AppendMoves appends the legal moves to dst and returns it.
func (p Position) AppendMoves(dst []Move) []Move {
	if p.won != 0 {
		return dst
	}
	n := len(dst)
	var m mover
	m.setup(&p)
	mine := p.pieces[p.turn]
	for w, x := range mine {
		for x != 0 {
			s := Square(w<<6 | bits.TrailingZeros64(x))
			x &= x - 1
			reach := m.reach(s)
			for w2, y := range reach {
				for y != 0 {
					dst = append(dst, Move{s, Square(w2<<6 | bits.TrailingZeros64(y))})
					y &= y - 1
				}
			}
		}
	}
	if len(dst) == n {
		dst = append(dst, Pass)
	}
	return dst
}

// Play returns the position after m, which must be one of p.Moves(): the
// piece moves, the win rule is checked for the mover, and the turn passes
// to the next seat (that has not left the game).
func (p Position) Play(m Move) Position {
	mover := int(p.turn)
	if !m.IsPass() {
		p.pieces[mover] = p.pieces[mover].Without(m.From).With(m.To)
	}
	if p.hasWon(mover) {
		p.won = uint8(mover + 1)
	}
	p.turn = uint8(p.next(mover))
	return p
}

// hasWon reports whether seat's target camp is full, with only seat's
// pieces and those of the camp's owner in it, and at least one of seat's.
func (p *Position) hasWon(seat int) bool {
	l := p.l()
	owner := l.target[seat]
	target := l.home[owner]
	mine := p.pieces[seat].And(target)
	if mine.Empty() {
		return false
	}
	return mine.Or(p.pieces[owner].And(target)) == target
}

// Path returns a shortest way to play m: the squares the piece stands on,
// From first and To last (a step, or a jump series landing on each square
// once). It returns nil if m is not a move of the seat to move.
func (p Position) Path(m Move) []Square {
	if m.IsPass() || !p.pieces[p.turn].Has(m.From) || p.won != 0 {
		return nil
	}
	t := p.tree(m.From)
	return t.path(m.To)
}

// jumpTree is a breadth-first tree of the jump series of one piece, with
// the steps it can make.
type jumpTree struct {
	from   Square
	steps  Board       // the squares a step reaches
	jumps  Board       // the squares a series reaches
	parent [256]Square // the square a series comes from, for each of jumps
}

// tree builds the jump tree of the piece on from.
func (p Position) tree(from Square) *jumpTree {
	l := p.l()
	g := l.g
	occ := p.Occupied().Without(from)
	target := l.home[l.target[p.turn]]
	t := &jumpTree{from: from}
	in := target.Has(from)
	for k := 0; k < int(g.nsteps[from]); k++ {
		n := g.steps[from][k]
		if !occ.Has(n) && (!in || target.Has(n)) {
			t.steps = t.steps.With(n)
		}
	}
	var queue [256]Square
	seen := Board{}.With(from)
	queue[0] = from
	head, tail := 0, 1
	for head < tail {
		c := queue[head]
		head++
		in := target.Has(c)
		for k := 0; k < int(g.njumps[c]); k++ {
			j := g.jumps[c][k]
			if occ.Has(j.over) && !occ.Has(j.land) && !seen.Has(j.land) && (!in || target.Has(j.land)) {
				seen = seen.With(j.land)
				t.parent[j.land] = c
				queue[tail] = j.land
				tail++
			}
		}
	}
	t.jumps = seen.Without(from)
	return t
}

// path returns a shortest path to to, or nil.
func (t *jumpTree) path(to Square) []Square {
	if t.steps.Has(to) {
		return []Square{t.from, to}
	}
	if !t.jumps.Has(to) {
		return nil
	}
	n := 1
	for s := to; s != t.from; s = t.parent[s] {
		n++
	}
	path := make([]Square, n)
	for s, i := to, n-1; i >= 0; s, i = t.parent[s], i-1 {
		path[i] = s
	}
	return path
}

// String draws the position, rank 1 at the bottom: one digit per seat
// (1 for seat 0), '.' for an empty square.
func (p Position) String() string {
	var b strings.Builder
	size := p.Size()
	for r := size - 1; r >= 0; r-- {
		for f := 0; f < size; f++ {
			c := byte('.')
			if seat := p.At(SquareAt(f, r)); seat >= 0 {
				c = byte('1' + seat)
			}
			if f > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
