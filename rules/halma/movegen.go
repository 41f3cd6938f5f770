package halma

import "math/bits"

// The move generator floods each piece's jump closure on a mailbox: a
// byte per square of a board padded with two files and ranks of walls on
// every side, so a jump is two loads at fixed offsets with no edge test.
// The landings are gathered in a Board, so the moves come out in the
// order of their squares.

// mbStride is the width of the padded board.
const mbStride = 20

// mbSize is the number of squares of the padded board.
const mbSize = mbStride * mbStride

// What a mailbox square holds.
const (
	mbEmpty = iota
	mbPiece
	mbWall
)

// mbOff are the eight directions as mailbox offsets.
var mbOff = [8]int{1, mbStride + 1, mbStride, mbStride - 1, -1, -mbStride - 1, -mbStride, -mbStride + 1}

// mbIndex returns the mailbox index of s.
func mbIndex(s Sq) int { return (s.Rank()+2)*mbStride + s.File() + 2 }

// mbSq returns the square of mailbox index i (on the board).
func mbSq(i int) Sq { return SqAt(i%mbStride-2, i/mbStride-2) }

// walls returns the empty mailbox of a board size: walls around it.
func walls(size int) [mbSize]uint8 {
	var w [mbSize]uint8
	for i := range w {
		f, r := i%mbStride-2, i/mbStride-2
		if f < 0 || f >= size || r < 0 || r >= size {
			w[i] = mbWall
		}
	}
	return w
}

// campBox returns the squares of b as a mailbox mask.
func campBox(b Board) [mbSize]bool {
	var c [mbSize]bool
	for _, s := range b.Squares() {
		c[mbIndex(s)] = true
	}
	return c
}

// mover generates the moves of one position.
type mover struct {
	box    [mbSize]uint8
	seen   [mbSize]bool
	queue  [256]int16
	target *[mbSize]bool
}

// setup fills m with position p.
func (m *mover) setup(p *Position) {
	l := p.l()
	m.box = l.g.walls
	for seat := 0; seat < l.players; seat++ {
		for w, x := range p.pieces[seat] {
			for x != 0 {
				m.box[mbIndex(Sq(w<<6|bits.TrailingZeros64(x)))] = mbPiece
				x &= x - 1
			}
		}
	}
	m.target = &l.boxes[l.target[p.turn]]
}

// reach returns the squares the piece on s can end its move on: the empty
// neighbours and the jump closure, where s counts as empty and a piece
// that stands in the target camp may not land outside it.
func (m *mover) reach(s Sq) Board {
	var reach Board
	i := mbIndex(s)
	box, tgt := &m.box, m.target
	box[i] = mbEmpty
	in := tgt[i]
	for _, o := range mbOff {
		if j := i + o; box[j] == mbEmpty && (!in || tgt[j]) {
			reach = reach.With(mbSq(j))
		}
	}
	m.seen[i] = true
	m.queue[0] = int16(i)
	head, tail := 0, 1
	for head < tail {
		c := int(m.queue[head])
		head++
		in := tgt[c]
		for _, o := range mbOff {
			if box[c+o] != mbPiece {
				continue
			}
			j := c + 2*o
			if box[j] == mbEmpty && !m.seen[j] && (!in || tgt[j]) {
				m.seen[j] = true
				m.queue[tail] = int16(j)
				tail++
			}
		}
	}
	for k := 0; k < tail; k++ {
		m.seen[m.queue[k]] = false
	}
	for k := 1; k < tail; k++ {
		reach = reach.With(mbSq(int(m.queue[k])))
	}
	box[i] = mbPiece
	return reach
}
