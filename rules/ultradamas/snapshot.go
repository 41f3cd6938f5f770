package ultradamas

import (
	"encoding/binary"
	"math/bits"

	"github.com/boardgamebot/bot/rules"
)

// snapshotVersion is the first byte of every snapshot Save writes.
const snapshotVersion = 1

var (
	_ rules.Saver    = (*State)(nil)
	_ rules.Restorer = Game{}
)

// Save writes what the rules need to go on (rules.Saver), version 1:
//
//	version, then 0 and the formations given so far (two uint64
//	little-endian square sets, 0 for a side still to choose) in the
//	formation phase; or 1, the position, and the count (uvarint) and the
//	positions since the last capture or promotion before this one, which
//	the repetition rule counts, newest first, each as its difference from
//	the position after it.
//
// A position is the side to move, the plies since the last capture or
// promotion (for the 80-ply draw), the occupied squares (uint64) and one
// byte per piece in square order: side (bit 0), level (bits 1-3),
// carried level (bits 4-6). A difference is a byte (the number of squares
// that differ, plus 128 when Black is to move) and per such square, in
// order, the square and its piece byte (0 for empty). The opening position
// takes 37 bytes; each earlier position adds about 5; the 80-ply rule
// bounds them.
func (s *State) Save() []byte {
	if !s.started {
		b := []byte{snapshotVersion, 0}
		b = binary.LittleEndian.AppendUint64(b, s.form[Red])
		return binary.LittleEndian.AppendUint64(b, s.form[Black])
	}
	b := make([]byte, 0, 40)
	b = append(b, snapshotVersion, 1)
	b = appendPosition(b, s.pos)
	keys := s.keys
	if len(keys) > 0 && keys[len(keys)-1] == s.pos.Key() {
		keys = keys[:len(keys)-1]
	}
	b = binary.AppendUvarint(b, uint64(len(keys)))
	next := s.pos.Key()
	for i := len(keys) - 1; i >= 0; i-- {
		b = appendDiff(b, keys[i], next)
		next = keys[i]
	}
	return b
}

// appendDiff writes key k as its difference from next.
func appendDiff(b []byte, k, next Position) []byte {
	var sq []Square
	for x := k.occ[0] | k.occ[1] | next.occ[0] | next.occ[1]; x != 0; x &= x - 1 {
		if q := first(x); pieceByte(k, q) != pieceByte(next, q) {
			sq = append(sq, q)
		}
	}
	b = append(b, byte(len(sq))|byte(k.turn)<<7)
	for _, q := range sq {
		b = append(b, byte(q), pieceByte(k, q))
	}
	return b
}

// pieceByte is the piece on q as a snapshot writes it, 0 for none.
func pieceByte(p Position, q Square) byte {
	side, level, carried, ok := p.Piece(q)
	if !ok {
		return 0
	}
	return byte(side) | byte(level)<<1 | byte(carried)<<4
}

// setPiece puts the piece of byte c (0: none) on q; false when c is no piece.
func setPiece(p *Position, q Square, c byte) bool {
	p.clear(bit(q))
	if c == 0 {
		return true
	}
	level, carried := int(c>>1&7), int(c>>4&7)
	if c>>7 != 0 || level < Man || level > DoubleUltra || carried > QuadKing {
		return false
	}
	p.put(q, Side(c&1), level, carried)
	return true
}

func appendPosition(b []byte, p Position) []byte {
	all := p.occ[0] | p.occ[1]
	b = append(b, byte(p.turn), p.ply)
	b = binary.LittleEndian.AppendUint64(b, all)
	for x := all; x != 0; x &= x - 1 {
		side, level, carried, _ := p.Piece(first(x))
		b = append(b, byte(side)|byte(level)<<1|byte(carried)<<4)
	}
	return b
}

// Restore reads a snapshot written by Save (rules.Restorer). The state
// plays on exactly as the saved one; its Record starts at the snapshot's
// position. A snapshot that is damaged, of another game or of an unknown
// version is a rules.ErrBadSnapshot error.
func (Game) Restore(snapshot []byte) (rules.State, error) {
	bad := func(why string) (rules.State, error) {
		return nil, rules.Errorf(rules.ErrBadSnapshot, "bad ultradamas snapshot: %s", why)
	}
	r := &reader{rules.NewSnapshotReader(snapshot)}
	if ver := r.Byte(); r.Bad() || ver != snapshotVersion {
		return bad("unknown version")
	}
	switch phase := r.Byte(); {
	case r.Bad():
		return bad("too short")
	case phase == 0:
		var f [2]uint64
		f[Red], f[Black] = r.Uint64(), r.Uint64()
		if r.Bad() || r.Len() > 0 {
			return bad("wrong length")
		}
		for side, set := range f {
			if set != 0 && (set&^homeRanks[side] != 0 || bits.OnesCount64(set) != 12) {
				return bad("not a formation")
			}
		}
		if f[Red] != 0 && f[Black] != 0 {
			return bad("a formation phase with both formations given")
		}
		return &State{form: f}, nil
	case phase != 1:
		return bad("unknown phase")
	}
	pos, ok := r.position()
	n := r.Uvarint(uint64(pos.ply))
	if !ok || r.Bad() {
		return bad("impossible position")
	}
	keys := make([]Position, n+1)
	keys[n] = pos.Key()
	for i := int(n) - 1; i >= 0; i-- {
		k, ok := r.diff(keys[i+1])
		if !ok {
			return bad("impossible earlier position")
		}
		keys[i] = k
	}
	if r.Bad() || r.Len() > 0 {
		return bad("wrong length")
	}
	s := &State{started: true, rec: Record{Start: pos}, pos: pos, keys: keys}
	s.judge()
	return s, nil
}

// position reads a position written by appendPosition; ok is false when
// it is not a valid position.
func (r *reader) position() (p Position, ok bool) {
	turn, ply := r.Byte(), r.Byte()
	all := r.Uint64()
	if r.Bad() || turn > 1 || bits.OnesCount64(all) > r.Len() {
		return p, false
	}
	p.turn, p.ply = Side(turn), ply
	for x := all; x != 0; x &= x - 1 {
		if c := r.Byte(); c == 0 || !setPiece(&p, first(x), c) {
			return p, false
		}
	}
	return p, !r.Bad() && p.Valid() == nil
}

// diff reads a position written by appendDiff against next; ok is false
// when it is not a valid position or not written as appendDiff writes.
func (r *reader) diff(next Position) (p Position, ok bool) {
	h := r.Byte()
	n := int(h & 127)
	if r.Bad() || n > 64 || 2*n > r.Len() {
		return p, false
	}
	p = next
	p.turn = Side(h >> 7)
	last := -1
	for range n {
		q, c := Square(r.Byte()), r.Byte()
		if int(q) <= last || q > 63 || c == pieceByte(next, q) || !setPiece(&p, q, c) {
			return p, false
		}
		last = int(q)
	}
	return p, p.Valid() == nil
}

// reader reads a snapshot (rules.SnapshotReader) with the positions
// of this game.
type reader struct{ *rules.SnapshotReader }
