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
//	positions since the last capture or promotion before this one
//	(oldest first), which the repetition rule counts.
//
// A position is the side to move, the plies since the last capture or
// promotion (for the 80-ply draw; 0 in the earlier positions), the
// occupied squares (uint64) and one byte per piece in square order: side
// (bit 0), level (bits 1-3), carried level (bits 4-6). The opening
// position takes 36 bytes; each earlier position adds about 34.
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
	for _, k := range keys {
		b = appendPosition(b, k)
	}
	return b
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
	r := &reader{b: snapshot}
	if ver := r.byte(); r.bad || ver != snapshotVersion {
		return bad("unknown version")
	}
	switch phase := r.byte(); {
	case r.bad:
		return bad("too short")
	case phase == 0:
		var f [2]uint64
		f[Red], f[Black] = r.uint64(), r.uint64()
		if r.bad || len(r.b) > 0 {
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
	n := r.uvarint(uint64(pos.ply))
	if !ok || r.bad {
		return bad("impossible position")
	}
	keys := make([]Position, 0, n+1)
	for range n {
		k, ok := r.position()
		if !ok || k.ply != 0 {
			return bad("impossible earlier position")
		}
		keys = append(keys, k)
	}
	if r.bad || len(r.b) > 0 {
		return bad("wrong length")
	}
	s := &State{started: true, rec: Record{Start: pos}, pos: pos, keys: append(keys, pos.Key())}
	s.judge()
	return s, nil
}

// position reads a position written by appendPosition; ok is false when
// it is not a valid position.
func (r *reader) position() (p Position, ok bool) {
	turn, ply := r.byte(), r.byte()
	all := r.uint64()
	if r.bad || turn > 1 || bits.OnesCount64(all) > len(r.b) {
		return p, false
	}
	p.turn, p.ply = Side(turn), ply
	for x := all; x != 0; x &= x - 1 {
		c := r.byte()
		level, carried := int(c>>1&7), int(c>>4&7)
		if c>>7 != 0 || level < Man || level > DoubleUltra || carried > QuadKing {
			return p, false
		}
		p.put(first(x), Side(c&1), level, carried)
	}
	return p, !r.bad && p.Valid() == nil
}

// reader reads a snapshot; the first error sticks.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) byte() byte {
	if len(r.b) < 1 {
		r.bad = true
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) uint64() uint64 {
	if len(r.b) < 8 {
		r.bad = true
		return 0
	}
	x := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return x
}

func (r *reader) uvarint(limit uint64) uint64 {
	x, n := binary.Uvarint(r.b)
	if n <= 0 || x > limit {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return x
}
