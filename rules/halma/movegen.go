package halma

import "math/bits"

// The move generator floods each piece's jump closure on a mailbox: a
// byte per square of a board padded with two files and ranks of walls on
// every side, so a jump is two loads at fixed offsets with no edge test.
// The landings are gathered in a Board, so the moves come out in the
// order of their squares.

// mbStride is the width of the padded board.
const mbStride = 20

// mbSize is the length of a mailbox array: the padded board's 400
// squares, rounded up to a power of two so that an index masked with
// mbMask needs no bounds check.
const (
	mbSize = 512
	mbMask = mbSize - 1
)

// What a mailbox square holds.
const (
	mbEmpty = iota
	mbPiece
	mbWall
)

// mbOff are the eight directions as mailbox offsets.
var mbOff = [8]int{1, mbStride + 1, mbStride, mbStride - 1, -1, -mbStride - 1, -mbStride, -mbStride + 1}

// mbIndex returns the mailbox index of s.
func mbIndex(s Square) int { return mbIndices[s] }

// mbIndices is the mailbox index of each square.
var mbIndices = func() (t [256]int) {
	for s := range t {
		t[s] = (Square(s).Rank()+2)*mbStride + Square(s).File() + 2
	}
	return t
}()

// mbSquare returns the square of mailbox index i (on the board).
func mbSquare(i int) Square { return mbSquares[i&mbMask] }

// mbSquares is the square of each mailbox index (0 off the board).
var mbSquares = func() (t [mbSize]Square) {
	for i := range t {
		if f, r := i%mbStride-2, i/mbStride-2; f >= 0 && f < 16 && r >= 0 && r < 16 {
			t[i] = SquareAt(f, r)
		}
	}
	return t
}()

// walls returns the empty mailbox of a board size: walls around it.
func walls(size int) [mbSize]uint8 {
	var w [mbSize]uint8
	for i := range w {
		f, r := i%mbStride-2, i/mbStride-2
		if f < 0 || f >= size || r < 0 || r >= size || i >= mbStride*mbStride {
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

// add puts s in b, in place.
func (b *Board) add(s Square) { b[s>>6] |= 1 << (s & 63) }

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
				m.box[mbIndex(Square(w<<6|bits.TrailingZeros64(x)))] = mbPiece
				x &= x - 1
			}
		}
	}
	m.target = &l.boxes[l.target[p.turn]]
}

// flood fills m.queue with the jump closure of the piece on mailbox
// index i, i first, and marks it in m.seen; it returns its length. The
// square i must be empty in m.box.
func (m *mover) flood(i int) int {
	box, tgt := &m.box, m.target
	m.seen[i] = true
	m.queue[0] = int16(i)
	head, tail := 0, 1
	for head < tail {
		c := int(m.queue[head&255])
		head++
		in := tgt[c&mbMask]
		for _, o := range mbOff {
			if box[(c+o)&mbMask] != mbPiece {
				continue
			}
			j := (c + 2*o) & mbMask
			if box[j] == mbEmpty && !m.seen[j] && (!in || tgt[j]) {
				m.seen[j] = true
				m.queue[tail&255] = int16(j)
				tail++
			}
		}
	}
	return tail
}

// unsee clears m.seen of the first n squares of the queue.
func (m *mover) unsee(n int) {
	for k := 0; k < n; k++ {
		m.seen[int(m.queue[k&255])&mbMask] = false
	}
}

// reach returns the squares the piece on s can end its move on: the empty
// neighbours and the jump closure, where s counts as empty and a piece
// that stands in the target camp may not land outside it.
func (m *mover) reach(s Square) Board {
	var reach Board
	i := mbIndex(s)
	box, tgt := &m.box, m.target
	box[i] = mbEmpty
	in := tgt[i]
	for _, o := range mbOff {
		if j := (i + o) & mbMask; box[j] == mbEmpty && (!in || tgt[j]) {
			reach.add(mbSquare(j))
		}
	}
	tail := m.flood(i)
	m.unsee(tail)
	for k := 1; k < tail; k++ {
		reach.add(mbSquare(int(m.queue[k&255])))
	}
	box[i] = mbPiece
	return reach
}

// count returns the number of squares reach(s) returns.
func (m *mover) count(s Square) int {
	i := mbIndex(s)
	box, tgt := &m.box, m.target
	box[i] = mbEmpty
	tail := m.flood(i)
	n := tail - 1
	in := tgt[i]
	for _, o := range mbOff {
		if j := (i + o) & mbMask; box[j] == mbEmpty && !m.seen[j] && (!in || tgt[j]) {
			n++
		}
	}
	m.unsee(tail)
	box[i] = mbPiece
	return n
}
