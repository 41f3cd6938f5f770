package halma

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// This file keeps the move generator as it was before issue 16 (the
// per-square queue flood of Position.AppendMoves and the list-then-play
// Perft), as the reference the fast generator is compared with on random
// positions of every configuration, and as the "before" of BenchmarkPerft
// (BenchmarkPerftOld, in the same run).

// oldAppendMoves is the old Position.AppendMoves.
func (p Position) oldAppendMoves(dst []Move) []Move {
	if p.won != 0 {
		return dst
	}
	n := len(dst)
	l := p.l()
	occ := p.Occupied()
	target := l.home[l.target[p.turn]]
	var queue [256]Square
	mine := p.pieces[p.turn]
	for w, x := range mine {
		for x != 0 {
			s := Square(w<<6 | bits.TrailingZeros64(x))
			x &= x - 1
			reach := l.g.oldReach(occ.Without(s), target, s, &queue)
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

// oldReach is the old geometry.reach.
func (g *geometry) oldReach(occ, target Board, s Square, queue *[256]Square) Board {
	var reach Board
	in := target.Has(s)
	for k := 0; k < int(g.nsteps[s]); k++ {
		n := g.steps[s][k]
		if !occ.Has(n) && (!in || target.Has(n)) {
			reach = reach.With(n)
		}
	}
	seen := Board{}.With(s)
	queue[0] = s
	head, tail := 0, 1
	for head < tail {
		c := queue[head]
		head++
		in := target.Has(c)
		js := &g.jumps[c]
		for k := 0; k < int(g.njumps[c]); k++ {
			j := js[k]
			if occ.Has(j.over) && !occ.Has(j.land) && !seen.Has(j.land) && (!in || target.Has(j.land)) {
				seen = seen.With(j.land)
				queue[tail] = j.land
				tail++
			}
		}
	}
	return reach.Or(seen.Without(s))
}

// oldPlay is the old Position.Play.
func (p Position) oldPlay(m Move) Position {
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

// oldPerft is the old Position.Perft.
func (p Position) oldPerft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	return p.oldPerftRec(depth, bufs)
}

func (p Position) oldPerftRec(depth int, bufs [][]Move) uint64 {
	moves := p.oldAppendMoves(bufs[depth-1][:0])
	bufs[depth-1] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for i := range moves {
		n += p.oldPlay(bufs[depth-1][i]).oldPerftRec(depth-1, bufs)
	}
	return n
}

// variants are the four configurations.
var variants = []struct {
	name string
	v    Variant
}{
	{"8x8", Variant{Size: 8, Players: 2}},
	{"10x10", Variant{Size: 10, Players: 2}},
	{"16x16x2", Variant{Size: 16, Players: 2}},
	{"16x16x4", Variant{Size: 16, Players: 4}},
}

// randomPosition scatters each seat's pieces (a camp's worth, or fewer)
// over the whole board, some of them in the camps, with a random seat to
// move; in the four-player game a seat may have left (no pieces).
func randomPosition(v Variant, r *rand.Rand) Position {
	p := v.Start(r.IntN(v.Players))
	l := p.l()
	var occ Board
	for seat := 0; seat < l.players; seat++ {
		p.pieces[seat] = Board{}
		if l.players == 4 && seat != int(p.turn) && r.IntN(6) == 0 {
			continue
		}
		n := 1 + r.IntN(l.pieces)
		for i := 0; i < n; i++ {
			var s Square
			for {
				if r.IntN(3) == 0 {
					camp := l.home[r.IntN(l.players)].Squares()
					s = camp[r.IntN(len(camp))]
				} else {
					s = SquareAt(r.IntN(l.size), r.IntN(l.size))
				}
				if !occ.Has(s) {
					break
				}
			}
			occ = occ.With(s)
			p.pieces[seat] = p.pieces[seat].With(s)
		}
	}
	if p.pieces[p.turn].Empty() {
		p.pieces[p.turn] = p.pieces[p.turn].With(SquareAt(l.size/2, l.size/2))
	}
	return p
}

// randomPositions returns random positions of v: scattered ones and
// positions of random playouts from the start.
func randomPositions(v Variant, seed uint64, n int) []Position {
	r := rand.New(rand.NewPCG(seed, 7))
	var out []Position
	for len(out) < n/2 {
		out = append(out, randomPosition(v, r))
	}
	for len(out) < n {
		p := v.Start(r.IntN(v.Players))
		for i := r.IntN(120); i > 0 && p.Winner() < 0; i-- {
			moves := p.Moves()
			m := moves[r.IntN(len(moves))]
			if r.IntN(10) < 7 {
				m = bestProgress(p, moves, r)
			}
			p = p.Play(m)
		}
		out = append(out, p)
	}
	return out
}

// TestGeneratorMatchesOld compares the move generator with the old one on
// random positions of each configuration: the same moves (as texts), the
// same positions after each of them, and the same perft counts at small
// depths, counted by Perft and by PerftCounts.
func TestGeneratorMatchesOld(t *testing.T) {
	n, depth := 400, 3
	if testing.Short() {
		n, depth = 100, 2
	}
	for i, c := range variants {
		t.Run(c.name, func(t *testing.T) {
			for k, p := range randomPositions(c.v, uint64(i+1), n) {
				got, want := moveTexts(p), p.oldMoveTexts()
				if !slices.Equal(got, want) {
					t.Fatalf("%s: moves\n%v\nold\n%v", p.FEN(), got, want)
				}
				for _, m := range p.Moves() {
					if got, want := p.Play(m), p.oldPlay(m); got != want {
						t.Fatalf("%s: %v gives %s, old %s", p.FEN(), m, got.FEN(), want.FEN())
					}
				}
				d := 2
				if k%8 == 0 {
					d = depth
				}
				counts, err := p.PerftCounts(context.Background(), d)
				if err != nil {
					t.Fatal(err)
				}
				for dd := 0; dd <= d; dd++ {
					want := p.oldPerft(dd)
					if counts[dd] != want {
						t.Fatalf("%s: PerftCounts[%d] = %d, old perft %d", p.FEN(), dd, counts[dd], want)
					}
					if got := p.Perft(dd); got != want {
						t.Fatalf("%s: perft(%d) = %d, old %d", p.FEN(), dd, got, want)
					}
				}
			}
		})
	}
}

// oldMoveTexts returns the texts of the old generator's moves, sorted.
func (p Position) oldMoveTexts() []string {
	var out []string
	for _, m := range p.oldAppendMoves(nil) {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}

// perftBenches are the positions and depths of BenchmarkPerft: each
// start, and the crowded four-player middle game.
var perftBenches = []struct {
	name  string
	fen   string
	depth int
}{
	{"8x8", "8:2:1:a1,b1,c1,d1,a2,b2,c2,a3,b3,a4:h8,g8,f8,e8,h7,g7,f7,h6,g6,h5", 4},
	{"10x10", "10:2:1:a1,b1,c1,d1,e1,a2,b2,c2,d2,a3,b3,c3,a4,b4,a5:j10,i10,h10,g10,f10,j9,i9,h9,g9,j8,i8,h8,j7,i7,j6", 4},
	{"16x16x2", "16:2:1:a1,b1,c1,d1,e1,a2,b2,c2,d2,e2,a3,b3,c3,d3,a4,b4,c4,a5,b5:p16,o16,n16,m16,l16,p15,o15,n15,m15,l15,p14,o14,n14,m14,p13,o13,n13,p12,o12", 4},
	{"16x16x4", "16:4:1:a1,b1,c1,d1,a2,b2,c2,d2,a3,b3,c3,a4,b4:a16,b16,c16,d16,a15,b15,c15,d15,a14,b14,c14,a13,b13:p16,o16,n16,m16,p15,o15,n15,m15,p14,o14,n14,p13,o13:p1,o1,n1,m1,p2,o2,n2,m2,p3,o3,n3,p4,o4", 4},
	{"crowded", crowded, 3},
}

// BenchmarkPerft counts each configuration's tree (Mnodes/s: leaves per
// second).
func BenchmarkPerft(b *testing.B) {
	for _, c := range perftBenches {
		p, err := ParseFEN(c.fen)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			var n uint64
			for b.Loop() {
				n += p.Perft(c.depth)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
}

// BenchmarkPerftOld is BenchmarkPerft with the old generator: the before
// of the before/after table, in the same run.
func BenchmarkPerftOld(b *testing.B) {
	for _, c := range perftBenches {
		p, err := ParseFEN(c.fen)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			var n uint64
			for b.Loop() {
				n += p.oldPerft(c.depth)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
}

// BenchmarkMovesOld is BenchmarkMoves with the old generator.
func BenchmarkMovesOld(b *testing.B) {
	p, err := ParseFEN(crowded)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]Move, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.oldAppendMoves(buf[:0])
	}
	if len(buf) != 130 {
		b.Fatalf("%d moves", len(buf))
	}
}
