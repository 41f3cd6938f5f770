package halma

import (
	"testing"
)

// TestCamps checks every camp square by square against the page's table
// ("camp rows from the corner", each row from the corner's edge file) and
// the seats' corners: two players in a1's corner and the opposite one;
// four players a1, top-left, top-right, bottom-right.
func TestCamps(t *testing.T) {
	tests := []struct {
		name          string
		size, players int
		pieces        int
		camps         []string // per seat, in turn order
	}{
		{"16x16 two players", 16, 2, 19, []string{
			"a1 b1 c1 d1 e1  a2 b2 c2 d2 e2  a3 b3 c3 d3  a4 b4 c4  a5 b5",
			"p16 o16 n16 m16 l16  p15 o15 n15 m15 l15  p14 o14 n14 m14  p13 o13 n13  p12 o12",
		}},
		{"16x16 four players", 16, 4, 13, []string{
			"a1 b1 c1 d1  a2 b2 c2 d2  a3 b3 c3  a4 b4",
			"a16 b16 c16 d16  a15 b15 c15 d15  a14 b14 c14  a13 b13",
			"p16 o16 n16 m16  p15 o15 n15 m15  p14 o14 n14  p13 o13",
			"p1 o1 n1 m1  p2 o2 n2 m2  p3 o3 n3  p4 o4",
		}},
		{"10x10", 10, 2, 15, []string{
			"a1 b1 c1 d1 e1  a2 b2 c2 d2  a3 b3 c3  a4 b4  a5",
			"j10 i10 h10 g10 f10  j9 i9 h9 g9  j8 i8 h8  j7 i7  j6",
		}},
		{"8x8", 8, 2, 10, []string{
			"a1 b1 c1 d1  a2 b2 c2  a3 b3  a4",
			"h8 g8 f8 e8  h7 g7 f7  h6 g6  h5",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(Variant{Size: tt.size, Players: tt.players})
			if err != nil {
				t.Fatal(err)
			}
			s := g.StartState(0)
			view := s.View()
			if len(view.Camps) != tt.players || len(g.Seats()) != tt.players {
				t.Fatalf("%d camps and %d seats, want %d", len(view.Camps), len(g.Seats()), tt.players)
			}
			p := s.Position()
			for seat, list := range tt.camps {
				want := squares(t, list)
				if want.Count() != tt.pieces {
					t.Fatalf("test table: seat %d lists %d squares", seat, want.Count())
				}
				if got := p.Home(seat); got != want {
					t.Errorf("seat %d camp: got %s\nwant %s", seat+1, names(got), names(want))
				}
				var fromView Board
				for _, q := range view.Camps[seat] {
					fromView = fromView.With(SquareOf(q))
				}
				if fromView != want {
					t.Errorf("seat %d: View.Camps gives %s", seat+1, names(fromView))
				}
				if got := p.Pieces(seat); got != want {
					t.Errorf("seat %d starts on %s, want its full camp", seat+1, names(got))
				}
				opposite := tt.camps[(seat+tt.players/2)%tt.players]
				if got := p.Target(seat); got != squares(t, opposite) {
					t.Errorf("seat %d target: got %s, want %s", seat+1, names(got), opposite)
				}
			}
		})
	}
}

// TestPageExampleFEN: the page's FEN example is the 8x8 start, player 1 to move.
func TestPageExampleFEN(t *testing.T) {
	const page = "8:2:1:a1,b1,c1,d1,a2,b2,c2,a3,b3,a4:h8,g8,f8,e8,h7,g7,f7,h6,g6,h5"
	if got := (Variant{Size: 8, Players: 2}).Start(0).FEN(); got != page {
		t.Errorf("8x8 start is %s\nthe page writes %s", got, page)
	}
}
