package halma

import (
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// The hand-made positions below are drawn rank by rank from the top; 1 is
// seat 0 (a1's corner), 2 seat 1, and so on; '.' is an empty square. On
// 8x8 player 1's target camp is e8 f8 g8 h8 f7 g7 h7 g6 h6 h5.

// moveListCases are hand-made positions with every move of the player
// to move, for TestMoveLists.
var moveListCases = []struct {
	name    string
	players int
	board   string
	want    string // every move, space-separated
}{
	{
		// b2 jumps round the ring c2, d3, c4, b3: b2-d2-d4-b4 would come
		// back to b2, which a series never lands on; d4 is reached both ways.
		name:    "loop of jumps",
		players: 2,
		board: `
				8 . . . . . . . .
				7 . . . . . . . .
				6 . . . . . . . .
				5 . . . . . . . .
				4 . . 2 . . . . .
				3 . 2 . 2 . . . .
				2 . 1 2 . . . . .
				1 . . . . . . . .
				  a b c d e f g h`,
		want: "b2-a1 b2-a2 b2-a3 b2-b1 b2-c1 b2-c3 b2-b4 b2-d2 b2-d4",
	},
	{
		// A step out of the target camp: f7 may step only to camp squares.
		name:    "target camp: no step out",
		players: 2,
		board: `
				8 . . . . . . . .
				7 . . . . . 1 . .
				6 . . . . . . . .
				5 . . . . . . . .
				4 . . . . . . . .
				3 . . . . . . . .
				2 . . . . . . . .
				1 2 . . . . . . .
				  a b c d e f g h`,
		want: "f7-e8 f7-f8 f7-g8 f7-g7 f7-g6",
	},
	{
		// A jump out of the target camp: g6 over f5 to e4 is not allowed,
		// g6 over g7 to g8 stays inside and is.
		name:    "target camp: no jump out",
		players: 2,
		board: `
				8 . . . . . . . .
				7 . . . . . . 2 .
				6 . . . . . . 1 .
				5 . . . . . 2 . .
				4 . . . . . . . .
				3 . . . . . . . .
				2 . . . . . . . .
				1 . . . . . . . .
				  a b c d e f g h`,
		want: "g6-f7 g6-g8 g6-h5 g6-h6 g6-h7",
	},
	{
		// A series that enters the target camp may not leave it: d6 over e7
		// lands on f8 (camp); over e8 on to d8 would leave it.
		name:    "target camp: a series enters and would leave",
		players: 2,
		board: `
				8 . . . . 2 . . .
				7 . . . . 2 . . .
				6 . . . 1 . . . .
				5 . . . . . . . .
				4 . . . . . . . .
				3 . . . . . . . .
				2 . . . . . . . .
				1 . . . . . . . .
				  a b c d e f g h`,
		want: "d6-c5 d6-c6 d6-c7 d6-d5 d6-d7 d6-e5 d6-e6 d6-f8",
	},
	{
		// h5 is in its target camp: g4, h4 and g5 are outside; g6 and h6
		// are taken, and the jumps over them land on f7 and h7, taken too.
		name:    "no move: a pass",
		players: 2,
		board: `
				8 . . . . . . . .
				7 . . . . . 2 . 2
				6 . . . . . . 2 2
				5 . . . . . . . 1
				4 . . . . . . . .
				3 . . . . . . . .
				2 . . . . . . . .
				1 . . . . . . . .
				  a b c d e f g h`,
		want: "pass",
	},
	{
		// A long chain up the c file (c1-c3-c5-c7-c9-c11-c13) with two
		// branches over d10 to e11 and e9.
		name:    "long chain",
		players: 2,
		board: `
				16 . . . . . . . . . . . . . . . .
				15 . . . . . . . . . . . . . . . .
				14 . . . . . . . . . . . . . . . .
				13 . . . . . . . . . . . . . . . .
				12 . . 2 . . . . . . . . . . . . .
				11 . . . . . . . . . . . . . . . .
				10 . . 2 2 . . . . . . . . . . . .
				 9 . . . . . . . . . . . . . . . .
				 8 . . 2 . . . . . . . . . . . . .
				 7 . . . . . . . . . . . . . . . .
				 6 . . 2 . . . . . . . . . . . . .
				 5 . . . . . . . . . . . . . . . .
				 4 . . 2 . . . . . . . . . . . . .
				 3 . . . . . . . . . . . . . . . .
				 2 . . 2 . . . . . . . . . . . . .
				 1 . . 1 . . . . . . . . . . . . .
				   a b c d e f g h i j k l m n o p`,
		want: "c1-b1 c1-b2 c1-d1 c1-d2 c1-c3 c1-c5 c1-c7 c1-c9 c1-c11 c1-c13 c1-e9 c1-e11",
	},
}

func TestMoveLists(t *testing.T) {
	for _, tt := range moveListCases {
		t.Run(tt.name, func(t *testing.T) {
			p := diagram(t, tt.players, 1, tt.board)
			want := strings.Fields(tt.want)
			sortStrings(want)
			if got := moveTexts(p); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("moves:\n got %s\nwant %s", strings.Join(got, " "), strings.Join(want, " "))
			}
			if got := slowMoves(p); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("slow generator:\n got %s\nwant %s", strings.Join(got, " "), strings.Join(want, " "))
			}
		})
	}
}

func TestPaths(t *testing.T) {
	// The long chain again, smaller: c1 over c2, c4, c6 and d6.
	//	8 . . . . . . . .
	//	7 . . . . . . . .
	//	6 . . 2 2 . . . .
	//	5 . . . . . . . .
	//	4 . . 2 . . . . .
	//	3 . . . . . . . .
	//	2 . . 2 . . . . .
	//	1 . . 1 . . . . .
	//	  a b c d e f g h
	p, err := ParseFEN("8:2:1:c1:c2,c4,c6,d6")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text string
		path string // the witness path of the move played, or the error kind
		err  error
	}{
		{"c1-c7", "c1 c3 c5 c7", nil},
		{"c1-c3-c5-c7", "c1 c3 c5 c7", nil},
		{"C1xC3xC5", "c1 c3 c5", nil},
		{"c1:c3", "c1 c3", nil},
		{"c1-e7", "c1 c3 c5 e7", nil},
		{"c1-d2", "c1 d2", nil},
		{"c1-c3-c5-c7-c5", "", rules.ErrIllegal}, // lands on c5 twice
		{"c1-c3-c5-c3", "", rules.ErrIllegal},    // back to c3
		{"c1-c3-c1", "", rules.ErrIllegal},       // back to the start
		{"c1-d2-d3", "", rules.ErrIllegal},       // steps are not a series
		{"c1-c3-e5", "", rules.ErrIllegal},       // over the empty d4
		{"c1-c4", "", rules.ErrIllegal},          // unreachable
		{"c2-c3", "", rules.ErrIllegal},          // not player 1's piece
		{"d4-d5", "", rules.ErrIllegal},          // no piece
		{"c1-c9", "", rules.ErrSyntax},           // off the 8x8 board
		{"c1--c3", "", rules.ErrSyntax},          // two separators
		{"c1", "", rules.ErrSyntax},              // one square
		{"", "", rules.ErrSyntax},                // nothing
		{"pass", "", rules.ErrIllegal},           // not when there is a move
		{"c1-c1", "", rules.ErrIllegal},          // not a move
		{"c1 c3", "", rules.ErrSyntax},           // no separator
		{"c1-c3-c5-c7-e5", "c1 c3 c5 c7 e5", nil},
		{"c1-c3-c5-c7-e6", "", rules.ErrIllegal}, // c7 to e6 is not a jump
		{"c1-c3-c5-e7-c5", "", rules.ErrIllegal}, // c5 twice
	}
	g, _ := New(Variant{Size: 8, Players: 2})
	st, err := g.LoadState(p.FEN())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			next, m, err := st.PlayMove(tt.text)
			if tt.err != nil {
				wantKind(t, err, tt.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, q := range m.Path {
				got = append(got, q.String())
			}
			if strings.Join(got, " ") != tt.path {
				t.Errorf("path %v, want %s", got, tt.path)
			}
			if m.Text != m.Path[0].String()+"-"+m.Path[len(m.Path)-1].String() {
				t.Errorf("text %q does not name the path's ends", m.Text)
			}
			if st.Position().At(SquareOf(m.From)) != 0 || next.Position().At(SquareOf(m.To)) != 0 {
				t.Errorf("the piece did not go from %s to %s", m.From, m.To)
			}
		})
	}
}

// TestRejectsSeriesLeavingCamp: the full path of a series that enters the
// target camp and would leave it is refused with the reason.
//
//	8 . . . . 2 . . .
//	7 . . . . 2 . . .
//	6 . . . 1 . . . .
//	  a b c d e f g h
func TestRejectsSeriesLeavingCamp(t *testing.T) {
	p, err := ParseFEN("8:2:1:d6:e7,e8")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.ParseMove("d6-f8-d8")
	wantKind(t, err, rules.ErrIllegal)
	if !strings.Contains(err.Error(), "leaves the target camp") {
		t.Errorf("error %q does not say why", err)
	}
}

func TestPass(t *testing.T) {
	// Player 1's only piece, h5, is in its target camp with no way to move
	// inside it (the position of "no move: a pass").
	g, _ := New(Variant{Size: 8, Players: 2})
	s, err := g.LoadState("8:2:1:h5:g6,h6,f7,h7")
	if err != nil {
		t.Fatal(err)
	}
	ms := s.Moves()
	if len(ms) != 1 || !ms[0].Pass || ms[0].Text != "pass" || ms[0].From != ms[0].To {
		t.Fatalf("moves %+v, want one pass", ms)
	}
	if v := s.View(); len(v.Movable) != 0 {
		t.Errorf("movable %v, want none", v.Movable)
	}
	if _, _, err := s.Play("h5-g5"); err == nil {
		t.Fatal("h5-g5 leaves the target camp but was accepted")
	}
	next, m, err := s.Play("pass")
	if err != nil || !m.Pass {
		t.Fatalf("pass: %v %+v", err, m)
	}
	if next.Turn() != 1 || next.FEN() != "8:2:2:h5:h7,f7,h6,g6" {
		t.Errorf("after the pass: turn %d, %s", next.Turn(), next.FEN())
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
