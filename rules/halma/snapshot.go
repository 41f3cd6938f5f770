package halma

import (
	"encoding/binary"

	"github.com/boardgamebot/bot/rules"
)

// snapshotVersion is the first byte of every snapshot Save writes.
const snapshotVersion = 1

// maxCount bounds the counters a snapshot may carry (far above any game's).
const maxCount = 1 << 24

var (
	_ rules.Saver    = (*State)(nil)
	_ rules.Restorer = Game{}
)

// Save writes what the rules need to go on (rules.Saver), version 1:
//
//	version, size, players, leave-home (uvarint), the moves each seat has
//	made (uvarints, one per player), the seat to move,
//	the winner's seat + 1 (0 while the game goes on), then per seat the
//	number of its pieces and their squares (one byte each, rank*16+file).
//
// Halma has no draw rule: nothing of the past is needed but the counts of
// moves (for the leave-home rule). A seat without pieces in the
// four-player game has left it. A 2-player 16x16 game takes about 50
// bytes at any ply.
func (s *State) Save() []byte {
	v := s.game.v
	b := make([]byte, 0, 64)
	b = append(b, snapshotVersion, byte(v.Size), byte(v.Players))
	b = binary.AppendUvarint(b, uint64(v.LeaveHome))
	for seat := 0; seat < v.Players; seat++ {
		b = binary.AppendUvarint(b, uint64(s.turns[seat]))
	}
	b = append(b, s.pos.turn, s.pos.won)
	for seat := 0; seat < v.Players; seat++ {
		sq := s.pos.pieces[seat].Squares()
		b = append(b, byte(len(sq)))
		for _, q := range sq {
			b = append(b, byte(q))
		}
	}
	return b
}

// Restore reads a snapshot written by Save (rules.Restorer). The state
// plays on exactly as the saved one; its History and Record start at the
// snapshot's position, as a game loaded from its FEN (First is its seat to
// move; Moved still counts from the start). A snapshot that is
// damaged, of another variant or of an unknown version is a
// rules.ErrBadSnapshot error.
func (g Game) Restore(snapshot []byte) (rules.State, error) {
	s, err := g.RestoreState(snapshot)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// RestoreState is Restore with the concrete type.
func (g Game) RestoreState(snapshot []byte) (*State, error) {
	bad := func(why string) (*State, error) {
		return nil, rules.Errorf(rules.ErrBadSnapshot, "bad halma snapshot: %s", why)
	}
	r := rules.NewSnapshotReader(snapshot)
	if ver := r.Byte(); r.Bad() || ver != snapshotVersion {
		return bad("unknown version")
	}
	v := Variant{Size: int(r.Byte()), Players: int(r.Byte()), LeaveHome: int(r.Uvarint(maxCount))}
	if r.Bad() || v != g.v {
		return bad("not a snapshot of this game")
	}
	s := &State{game: g, out: rules.Outcome{Winner: -1}}
	for seat := 0; seat < v.Players; seat++ {
		s.turns[seat] = int(r.Uvarint(maxCount))
	}
	p := Position{lay: uint8(v.layout()), turn: r.Byte()}
	won := r.Byte()
	var all Board
	for seat := 0; seat < v.Players && !r.Bad(); seat++ {
		n := int(r.Byte())
		if n > r.Len() {
			return bad("too short")
		}
		for range n {
			q := Square(r.Byte())
			if all.Has(q) || !p.OnBoard(q) {
				return bad("a square off the board or taken twice")
			}
			all = all.With(q)
			p.pieces[seat] = p.pieces[seat].With(q)
		}
	}
	switch {
	case r.Bad() || r.Len() > 0:
		return bad("wrong length")
	case int(won) > v.Players:
		return bad("no such winner")
	}
	// The position must be one ParseFEN accepts: at most a camp's pieces
	// a seat; with four players, someone has pieces and the seat to move
	// is one of them. The winner is kept as saved.
	for seat := 0; seat < v.Players; seat++ {
		if p.pieces[seat].Count() > layouts[p.lay].pieces {
			return bad("too many pieces")
		}
	}
	if int(p.turn) >= v.Players || (v.Players > 2 && p.pieces[p.turn].Empty()) {
		return bad("no such seat to move")
	}
	p.won = won
	q := p
	// The record starts at the snapshot, as a game loaded from its FEN.
	s.pos, s.start, s.setup, s.first = q, q, q.FEN(), int(q.turn)
	s.judge()
	return s, nil
}

// judge sets the outcome of a restored state, as the move (or retirement)
// that led to it did: a won position, or (two players) the leave-home
// loss of the seat that moved last, found by replaying its move count
// through after with a pass, which moves no piece.
func (s *State) judge() {
	if s.pos.won != 0 {
		s.out = wonOutcome(s.pos)
		return
	}
	mover := s.pos.previous(int(s.pos.turn))
	if s.game.v.LeaveHome == 0 || s.game.v.Players != 2 || s.turns[mover] == 0 {
		return
	}
	pre := &State{game: s.game, pos: s.pos, turns: s.turns}
	pre.pos.turn = uint8(mover)
	pre.turns[mover]--
	if n := pre.after(Pass); n.pos == s.pos {
		s.out = n.out
	}
}
