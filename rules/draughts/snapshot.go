package draughts

import (
	"encoding/binary"
	"math/bits"

	"github.com/boardgamebot/bot/rules"
)

// snapshotVersion is the first byte of every snapshot Save writes.
const snapshotVersion = 1

// snapshotVariants are the variants a snapshot names by index (byte 1).
var snapshotVariants = [...]Variant{Spanish, Damas, DamasHuff, Dame, DameShort}

// maxCount bounds the counters a snapshot may carry (far above any game's).
const maxCount = 1 << 20

var (
	_ rules.Saver    = State{}
	_ rules.Restorer = Def{}
)

// Save writes what the rules need to go on (rules.Saver), version 1:
//
//	version, variant index, White, Black, Kings (uint32 little-endian),
//	side to move, flags (bit 0: three-kings count running, bit 1: its
//	strong side is Black, bits 2-3: 1 Black resigned, 2 White resigned,
//	3 draw agreed), king-move run and three-kings moves (uvarints), the
//	huffable squares (uvarint), then the
//	count (uvarint) and the positions before this one since the last man
//	move, capture or huff, newest first, each as its difference from the
//	position after it: a byte (the number of squares that differ, plus 128
//	when Black is to move) and a byte per such square, in order: the square
//	(bits 0-4) and what stands on it (bits 5-7: 0 nothing, 1 a White man,
//	2 a Black man, 3 a White king, 4 a Black king). Only Spanish draughts
//	has the repetition rule and these positions; its 40-move rule bounds
//	them.
//
// A position takes 20 to 25 bytes; each repeatable position adds 3 (a
// king's move).
func (s State) Save() []byte {
	g := s.g
	b := make([]byte, 0, 32)
	b = append(b, snapshotVersion, variantIndex(g.v))
	b = appendPosition(b, g.cur)
	flags := byte(0)
	if g.counting {
		flags |= 1
	}
	if g.strongSide == Black {
		flags |= 2
	}
	if g.final.Over {
		switch g.final.Winner {
		case int(White):
			flags |= 1 << 2
		case int(Black):
			flags |= 2 << 2
		default:
			flags |= 3 << 2
		}
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(g.kingRun))
	b = binary.AppendUvarint(b, uint64(g.strongMoves))
	b = binary.AppendUvarint(b, uint64(g.huffable))
	past := g.repeatable()
	b = binary.AppendUvarint(b, uint64(len(past)))
	next := g.cur
	for i := len(past) - 1; i >= 0; i-- {
		p := past[i]
		var fs []byte
		for f := Square(0); f < 32; f++ {
			if c := content(p, f); c != content(next, f) {
				fs = append(fs, byte(f)|c<<5)
			}
		}
		b = append(b, byte(len(fs))|byte(p.ToMove)<<7)
		b = append(b, fs...)
		next = p
	}
	return b
}

// content is what stands on f: 0 nothing, 1 a White man, 2 a Black man,
// 3 a White king, 4 a Black king.
func content(p Position, f Square) byte {
	bit := uint32(1) << f
	c := byte(0)
	switch {
	case p.White&bit != 0:
		c = 1
	case p.Black&bit != 0:
		c = 2
	default:
		return 0
	}
	if p.Kings&bit != 0 {
		c += 2
	}
	return c
}

// setContent puts c (see content) on f.
func setContent(p *Position, f Square, c byte) {
	*p = removePiece(*p, f)
	bit := uint32(1) << f
	switch c {
	case 1, 3:
		p.White |= bit
	case 2, 4:
		p.Black |= bit
	}
	if c >= 3 {
		p.Kings |= bit
	}
}

// repeatable returns the positions before the current one that may still
// occur again, oldest first: those since the last man move, capture or
// huff. A man never moves back and a capture or huff never returns a
// piece, so an earlier position can never recur; these are exactly the
// positions with the current men and number of pieces, at the end of the
// record. Only Spanish draughts has the repetition rule: the others need
// none, so that their snapshots stay small however long kings shuffle.
func (g Game) repeatable() []Position {
	if g.v.Draws != SpanishDraws {
		return nil
	}
	seq := g.history
	if len(seq) > 0 && seq[len(seq)-1] == g.cur {
		seq = seq[:len(seq)-1]
	}
	n := 0
	for i := len(seq) - 1; i >= 0 && sameMen(seq[i], g.cur); i-- {
		n++
	}
	if n < len(seq) {
		return append([]Position(nil), seq[len(seq)-n:]...)
	}
	k := 0
	for i := len(g.past) - 1; i >= 0 && sameMen(g.past[i], g.cur); i-- {
		k++
	}
	out := append([]Position(nil), g.past[len(g.past)-k:]...)
	return append(out, seq...)
}

// sameMen reports whether p and q have the same men and number of pieces.
func sameMen(p, q Position) bool {
	return p.White&^p.Kings == q.White&^q.Kings && p.Black&^p.Kings == q.Black&^q.Kings &&
		bits.OnesCount32(p.White) == bits.OnesCount32(q.White) && bits.OnesCount32(p.Black) == bits.OnesCount32(q.Black)
}

func variantIndex(v Variant) byte {
	for i, w := range snapshotVariants {
		if w == v {
			return byte(i)
		}
	}
	return 255
}

func appendPosition(b []byte, p Position) []byte {
	b = binary.LittleEndian.AppendUint32(b, p.White)
	b = binary.LittleEndian.AppendUint32(b, p.Black)
	b = binary.LittleEndian.AppendUint32(b, p.Kings)
	return append(b, byte(p.ToMove))
}

// Restore reads a snapshot written by Save (rules.Restorer). The state it
// returns plays on exactly as the saved one; its Record starts at the
// snapshot's position. A snapshot that is damaged, of another variant or
// of an unknown version is a rules.ErrBadSnapshot error.
func (d Def) Restore(snapshot []byte) (rules.State, error) {
	g, err := d.V.restore(snapshot)
	if err != nil {
		return nil, err
	}
	return d.wrap(g), nil
}

func badSnapshot(why string) error {
	return rules.Errorf(rules.ErrBadSnapshot, "bad draughts snapshot: %s", why)
}

func (v Variant) restore(snapshot []byte) (Game, error) {
	r := rules.NewSnapshotReader(snapshot)
	if ver := r.Byte(); r.Bad() || ver != snapshotVersion {
		return Game{}, badSnapshot("unknown version")
	}
	if vi := r.Byte(); r.Bad() || int(vi) >= len(snapshotVariants) || snapshotVariants[vi] != v {
		return Game{}, badSnapshot("not a snapshot of " + v.Name())
	}
	cur := Position{White: r.Uint32(), Black: r.Uint32(), Kings: r.Uint32(), ToMove: Color(r.Byte())}
	flags := r.Byte()
	kingRun := r.Uvarint(maxCount)
	strongMoves := r.Uvarint(maxCount)
	huffable := r.Uvarint(1<<32 - 1)
	n := r.Uvarint(maxCount)
	if r.Bad() || n > uint64(r.Len()) {
		return Game{}, badSnapshot("too short")
	}
	if n > 0 && v.Draws != SpanishDraws {
		return Game{}, badSnapshot("earlier positions in a game without the repetition rule")
	}
	if !v.validPosition(cur) {
		return Game{}, badSnapshot("impossible position")
	}
	past := make([]Position, n)
	next := cur
	for i := int(n) - 1; i >= 0; i-- {
		h := r.Byte()
		p := next
		p.ToMove = Color(h >> 7)
		last := -1
		for range h & 127 {
			c := r.Byte()
			f, what := Square(c&31), c>>5
			if r.Bad() || int(f) <= last || what > 4 || what == content(next, f) {
				return Game{}, badSnapshot("impossible earlier position")
			}
			setContent(&p, f, what)
			last = int(f)
		}
		if r.Bad() || !sameMen(p, cur) || !v.validPosition(p) {
			return Game{}, badSnapshot("impossible earlier position")
		}
		past[i], next = p, p
	}
	switch {
	case r.Bad() || r.Len() > 0:
		return Game{}, badSnapshot("wrong length")
	case flags>>4 != 0:
		return Game{}, badSnapshot("unknown flags")
	case huffable&^uint64(cur.Pieces(cur.ToMove.Other())) != 0 || (huffable != 0 && !v.Huff):
		return Game{}, badSnapshot("bad huffing rights")
	}
	g := NewGame(v, cur)
	// A huff made before the snapshot is part of its position: the
	// record starts after it, and reads back.
	g.huffable = uint32(huffable)
	g.kingRun, g.strongMoves = int(kingRun), int(strongMoves)
	g.counting, g.strongSide = flags&1 != 0, Color(flags>>1&1)
	g.past = past
	if final := flags >> 2 & 3; final != 0 {
		if g.Outcome().Over {
			return Game{}, badSnapshot("a game that ended twice")
		}
		switch final {
		case 1:
			g = g.Resign(Black)
		case 2:
			g = g.Resign(White)
		default:
			g = g.AgreeDraw()
		}
	}
	return g, nil
}

// validPosition reports whether p is a position ParseFEN accepts: each
// square holds one piece, kings are pieces, no man stands on its
// promotion rank, at most 12 pieces a side.
func (v Variant) validPosition(p Position) bool {
	return p.ToMove <= Black && p.White&p.Black == 0 && p.Kings&^(p.White|p.Black) == 0 &&
		p.White&^p.Kings&topRank == 0 && p.Black&^p.Kings&lowRank == 0 &&
		bits.OnesCount32(p.White) <= 12 && bits.OnesCount32(p.Black) <= 12
}
