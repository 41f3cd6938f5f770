package halma

import (
	"testing"
)

// crowded is a crowded 16x16 four-player middle game (130 moves for
// player 1), reached by a playout where every player heads for the centre:
//
//	16 . . . . . . . . . . . . . . . .
//	15 . . . . 2 . . . . . . . . . . .
//	14 . . . . . . . . . . 3 . . . . .
//	13 . . . 2 . . . . . . 3 3 . . . .
//	12 . 2 . . . 2 2 . . . . 3 3 . . .
//	11 . . . . 2 2 2 2 3 3 3 . . . . .
//	10 . . . . 2 2 . 3 3 3 . . . . . .
//	 9 . . . . . 2 . 4 4 4 3 3 . . . .
//	 8 . . . . . . . 1 2 1 . . . . . .
//	 7 . . . . . 1 1 1 4 4 4 . . . . .
//	 6 . . 1 . 1 . 1 . 4 4 4 4 . . . .
//	 5 . . 1 . 1 1 . . . . . 4 . . . .
//	 4 . . . 1 . . . . . . 4 4 . . . .
//	 3 . . . . . . . . . . . . . . . .
//	 2 . . . . 1 . . . . . . . . . . .
//	 1 . . . . . . . . . . . . . . . .
//	   a b c d e f g h i j k l m n o p
const crowded = "16:4:1:e2,d4,c5,e5,f5,c6,e6,g6,f7,g7,h7,h8,j8:e15,d13,b12,f12,g12,e11,f11,g11,h11,e10,f10,f9,i8:k14,l13,k13,m12,l12,k11,j11,i11,j10,i10,h10,l9,k9:l4,k4,l5,l6,k6,j6,i6,k7,j7,i7,j9,i9,h9"

// TestPerft checks move-tree counts from the four starts and a crowded
// middle game. Every count was derived with slowPerft, the independent
// path-search generator of helpers_test.go (every level listed; the
// deeper ones take it about a minute), and the shallow levels are
// recomputed with it here. Two more checks by hand: the 8x8 start has 24 moves (d1,
// c2, b3, a4, c1, b2 and a3 three each, b1, a2 and a1 one each); in the
// four-player game the camps are too far apart to meet within four plies
// and each start has 32 moves, so the counts are 32^n.
func TestPerft(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		counts []uint64 // depth 1, 2, ...
		slow   int      // depths checked against slowPerft
	}{
		{"8x8", "8:2:1:a1,b1,c1,d1,a2,b2,c2,a3,b3,a4:h8,g8,f8,e8,h7,g7,f7,h6,g6,h5",
			[]uint64{24, 576, 20050, 699312}, 3},
		{"10x10", "10:2:1:a1,b1,c1,d1,e1,a2,b2,c2,d2,a3,b3,c3,a4,b4,a5:j10,i10,h10,g10,f10,j9,i9,h9,g9,j8,i8,h8,j7,i7,j6",
			[]uint64{32, 1024, 46016, 2067884}, 2},
		{"16x16 two players", "16:2:1:a1,b1,c1,d1,e1,a2,b2,c2,d2,e2,a3,b3,c3,d3,a4,b4,c4,a5,b5:p16,o16,n16,m16,l16,p15,o15,n15,m15,l15,p14,o14,n14,m14,p13,o13,n13,p12,o12",
			[]uint64{40, 1600, 85440, 4562496}, 2},
		{"16x16 four players", "16:4:1:a1,b1,c1,d1,a2,b2,c2,d2,a3,b3,c3,a4,b4:a16,b16,c16,d16,a15,b15,c15,d15,a14,b14,c14,a13,b13:p16,o16,n16,m16,p15,o15,n15,m15,p14,o14,n14,p13,o13:p1,o1,n1,m1,p2,o2,n2,m2,p3,o3,n3,p4,o4",
			[]uint64{32, 1024, 32768, 1048576}, 2},
		{"crowded four players", crowded,
			[]uint64{130, 15795, 1978532}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseFEN(tt.fen)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tt.counts {
				depth := i + 1
				if testing.Short() && want > 100000 {
					break
				}
				if got := p.Perft(depth); got != want {
					t.Errorf("perft(%d) = %d, want %d", depth, got, want)
				}
				if depth <= tt.slow {
					if got := slowPerft(t, p, depth); got != want {
						t.Errorf("slow perft(%d) = %d, want %d", depth, got, want)
					}
				}
			}
		})
	}
}

// BenchmarkMoves measures one move list of the crowded four-player middle
// game (ns/op is the time per list).
func BenchmarkMoves(b *testing.B) {
	p, err := ParseFEN(crowded)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]Move, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.AppendMoves(buf[:0])
	}
	if len(buf) != 130 {
		b.Fatalf("%d moves", len(buf))
	}
}

// BenchmarkMovesFresh is BenchmarkMoves with a fresh slice per list.
func BenchmarkMovesFresh(b *testing.B) {
	p, err := ParseFEN(crowded)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = p.Moves()
	}
}
