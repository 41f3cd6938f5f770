package draughts

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// Each case is a hand-made position with the exact list of legal moves
// that the rules page gives, one case per rule. Boards are drawn with
// White at the bottom: w/b men, W/B kings, . an empty playing square.
var moveCases = []struct {
	name    string
	v       Variant
	fen     string
	board   string
	want    []string
	comment string
}{
	{
		name: "quantity: the series taking two beats the one taking one",
		v:    Dame, fen: "W:Wc1,g3:Bd2,f4,h8",
		board: `
		 . . . b
		. . . .
		 . . . .
		. . . .
		 . . b .
		. . . w
		 . b . .
		. w . .`,
		want: []string{"c1xe3xg5"},
	},
	{
		name: "quality (spanish): of two single captures, the one taking a king",
		v:    Spanish, fen: "W:Wd3:Bc4,Ke4",
		board: `
		. . . .
		 . . . .
		. . . .
		 . . . .
		. b B .
		 . w . .
		. . . .
		 . . . .`,
		want: []string{"d3xf5"},
	},
	{
		name: "quality (dame): the single capture taking a king",
		v:    Dame, fen: "W:We3:Bd4,Kf4",
		board: `
		 . . . .
		. . . .
		 . . . .
		. . . .
		 . b B .
		. . w .
		 . . . .
		. . . .`,
		want: []string{"e3xg5"},
	},
	{
		name: "no quality in damas: both single captures",
		v:    Damas, fen: "W:We3:Bd4,Kf4",
		want: []string{"e3xc5", "e3xg5"},
	},
	{
		name: "quantity before quality: two men beat one king",
		v:    Dame, fen: "W:We3:Bd4,b6,Kf4",
		board: `
		 . . . .
		. . . .
		 b . . .
		. . . .
		 . b B .
		. . w .
		 . . . .
		. . . .`,
		want: []string{"e3xc5xa7"},
	},
	{
		name: "flying king lands anywhere beyond and goes on from f6",
		v:    Dame, fen: "W:WKa1:Bd4,g5",
		board: `
		 . . . .
		. . . .
		 . . . .
		. . . b
		 . b . .
		. . . .
		 . . . .
		W . . .`,
		want: []string{"a1xf6xh4"},
	},
	{
		name: "damas king lands just beyond the captured piece",
		v:    Damas, fen: "W:WKa1:Bd4,g5",
		want: []string{"a1xe5"},
	},
	{
		name: "short king (dame flying=no) cannot capture from afar and steps one square",
		v:    DameShort, fen: "W:WKa1:Bd4,g5",
		want: []string{"a1-b2"},
	},
	{
		name: "flying king: every landing beyond, both diagonals",
		v:    Dame, fen: "W:WKd4:Be5,b6",
		board: `
		 . . . .
		. . . .
		 b . . .
		. . b .
		 . W . .
		. . . .
		 . . . .
		. . . .`,
		want: []string{"d4xa7", "d4xf6", "d4xg7", "d4xh8"},
	},
	{
		name: "short king captures only the adjacent piece",
		v:    DameShort, fen: "W:WKd4:Be5,b6",
		want: []string{"d4xf6"},
	},
	{
		name: "flying king plain moves",
		v:    Dame, fen: "W:WKd4:Bh8",
		want: []string{"d4-a1", "d4-a7", "d4-b2", "d4-b6", "d4-c3", "d4-c5", "d4-e3", "d4-e5", "d4-f2", "d4-f6", "d4-g1", "d4-g7"},
	},
	{
		name: "short king plain moves",
		v:    DameShort, fen: "W:WKd4:Bh8",
		want: []string{"d4-c3", "d4-c5", "d4-e3", "d4-e5"},
	},
	{
		name: "no piece jumped twice: the round trip ends on the start square, one move",
		v:    DameShort, fen: "W:WKc1:Bd2,f4,f6,d6,b4,b2",
		board: `
		 . . . .
		. . . .
		 . b b .
		. . . .
		 b . b .
		. . . .
		 b b . .
		. W . .`,
		// Both directions round the ring are one move (same start, end and
		// captured set); d2 cannot be taken again from c1.
		want:    []string{"c1xe3xg5xe7xc5xa3xc1"},
		comment: "or its reverse witness",
	},
	{
		name: "captured pieces block until the move ends: d2 cannot be taken over c3",
		v:    Dame, fen: "W:WKa1:Bc3,f4,f2,d2",
		board: `
		 . . . .
		. . . .
		 . . . .
		. . . .
		 . . b .
		. b . .
		 . b b .
		W . . .`,
		want: []string{"a1xe5xg3xe1"},
	},
	{
		name: "blocking in damas: landing d4 then g1",
		v:    Damas, fen: "W:WKa1:Bc3,f4,f2,d2",
		want: []string{"a1xd4xg1"},
	},
	{
		name: "the start square is empty during the series: the king passes over c3",
		v:    Dame, fen: "W:WKc3:Bd4,d6,b6,d2",
		board: `
		 . . . .
		. . . .
		 b b . .
		. . . .
		 . b . .
		. W . .
		 . b . .
		. . . .`,
		want: []string{"c3xe5xc7xa5xe1"},
	},
	{
		name: "promotion only at the end: the man stops on d8 and does not take e7",
		v:    Dame, fen: "W:Wb6:Bc7,e7",
		board: `
		 . . . .
		. b b .
		 w . . .
		. . . .
		 . . . .
		. . . .
		 . . . .
		. . . .`,
		want: []string{"b6xd8"},
	},
	{
		name: "men capture forward only",
		v:    Dame, fen: "W:Wd4:Bc3,e5",
		want: []string{"d4xf6"},
	},
	{
		name: "black men capture towards rank 1",
		v:    Spanish, fen: "B:Wc4,f5:Bd5,g6",
		board: `
		. . . .
		 . . . .
		. . . b
		 . b w .
		. w . .
		 . . . .
		. . . .
		 . . . .`,
		want: []string{"d5xb3", "g6xe4"},
	},
	{
		name: "two series with the same ends taking different pieces are two moves",
		v:    Dame, fen: "W:Wc3:Bd4,b4,d6,b6",
		board: `
		 . . . .
		. . . .
		 b b . .
		. . . .
		 b b . .
		. w . .
		 . . . .
		. . . .`,
		want: []string{"c3xa5xc7", "c3xe5xc7"},
	},
	{
		name: "huffing: capture not forced, every move and every series is legal",
		v:    DamasHuff, fen: "W:Wc1,g3:Bd2,f4,h8",
		want: []string{"c1-b2", "c1xe3xg5", "g3-h4", "g3xe5"},
	},
	{
		name: "spanish start",
		v:    Spanish, fen: "W:W1-12:B21-32",
		want: []string{"b3-a4", "b3-c4", "d3-c4", "d3-e4", "f3-e4", "f3-g4", "h3-g4"},
	},
	{
		name: "dame start",
		v:    Dame, fen: "W:W1-12:B21-32",
		want: []string{"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"},
	},
}

func TestMoves(t *testing.T) {
	for _, c := range moveCases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.v, c.fen)
			if c.board != "" {
				want := strings.ReplaceAll(strings.TrimSpace(strings.ReplaceAll(c.board, "\t", "")), " ", "")
				got := strings.ReplaceAll(diagram(c.v, p), " ", "")
				if got != want {
					t.Fatalf("the FEN does not draw the board of the comment:\n%s", diagram(c.v, p))
				}
			}
			got := moveTexts(c.v, p)
			if c.comment != "" && len(got) == 1 && len(c.want) == 1 {
				// One move with several witness routes: compare as a move.
				a, err1 := c.v.ParseMove(p, got[0])
				b, err2 := c.v.ParseMove(p, c.want[0])
				if err1 != nil || err2 != nil || !Same(a, b) {
					t.Fatalf("moves %v, want %v (%s)", got, c.want, c.comment)
				}
				return
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("moves %v, want %v\n%s", got, c.want, diagram(c.v, p))
			}
		})
	}
}

func TestRoundTripIsOneMove(t *testing.T) {
	// The ring of the "no piece jumped twice" case, walked both ways.
	v := DameShort
	p := mustFEN(t, v, "W:WKc1:Bd2,f4,f6,d6,b4,b2")
	a, err := v.ParseMove(p, "c1xe3xg5xe7xc5xa3xc1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := v.ParseMove(p, "c1xa3xc5xe7xg5xe3xc1")
	if err != nil {
		t.Fatal(err)
	}
	if !Same(a, b) || a.Count() != 6 {
		t.Fatalf("the two routes give %v and %v", a, b)
	}
	q := v.Apply(p, a)
	if want := "B:WKc1:B"; v.FEN(q) != want {
		t.Fatalf("after the ring: %s, want %s", v.FEN(q), want)
	}
}

func TestPromotion(t *testing.T) {
	for _, c := range []struct {
		v         Variant
		fen, move string
		want      string
	}{
		{Dame, "W:Wb6:Bc7,e7", "b6xd8", "B:WKd8:Be7"},
		{Spanish, "W:Wb7:Bg2", "b7-a8", "B:WKa8:Bg2"},
		{Spanish, "B:Wb7:Bg2", "g2-h1", "W:Wb7:BKh1"},
		{Dame, "W:Wc5:Bh8", "c5-d6", "B:Wd6:Bh8"},
	} {
		p := mustFEN(t, c.v, c.fen)
		m, err := c.v.ParseMove(p, c.move)
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.move, err)
		}
		if got := c.v.FEN(c.v.Apply(p, m)); got != c.want {
			t.Errorf("%s after %s: %s, want %s", c.fen, c.move, got, c.want)
		}
	}
}

// play plays the moves (any notation) on a new game record.
func play(t *testing.T, g Game, moves ...string) Game {
	t.Helper()
	for _, s := range moves {
		m, err := g.v.ParseMove(g.Position(), s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if g, err = g.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return g
}

func TestThreefoldRepetition(t *testing.T) {
	// Spanish, two lone kings shuffling:
	//   . . . .        d7: Black king
	//    . B . .
	//   ...
	//    . W . .       d1: White king
	g := NewGame(Spanish, mustFEN(t, Spanish, "W:WKd1:BKd7"))
	cycle := []string{"d1-e2", "d7-c6", "e2-d1", "c6-d7"}
	g = play(t, g, cycle...)
	g = play(t, g, cycle[:3]...)
	if out := g.Outcome(); out.Over || g.Repetitions() != 2 {
		t.Fatalf("after 7 plies: %+v, repetitions %d", out, g.Repetitions())
	}
	g = play(t, g, cycle[3])
	if out := g.Outcome(); !out.Over || out.Winner != -1 || out.Reason != rules.Repetition {
		t.Fatalf("third occurrence: %+v", out)
	}
	if _, err := g.Play(g.v.Moves(g.Position())[0]); !errors.Is(err, rules.ErrGameOver) {
		t.Fatalf("a move after the end: %v", err)
	}
	// Dame has no automatic draws.
	d := NewGame(Dame, mustFEN(t, Dame, "W:WKc1:BKc7"))
	d = play(t, d, "c1-d2", "c7-d6", "d2-c1", "d6-c7", "c1-d2", "c7-d6", "d2-c1", "d6-c7", "c1-d2", "c7-d6", "d2-c1", "d6-c7")
	if out := d.Outcome(); out.Over {
		t.Fatalf("dame after repetitions: %+v", out)
	}
}

func TestFortyKingMoves(t *testing.T) {
	// White's king circles c2-d3-e2-d1 (4 moves), Black's b7-c8-d7-e6-d5-c6
	// (6 moves): no two kings ever share a diagonal with room to capture,
	// and no position occurs a third time within 40 plies (lcm 12 rounds).
	//   . . . .
	//    B . . .    b7
	//   . . . .
	//   ...
	//    . W . .    c2
	g := NewGame(Spanish, mustFEN(t, Spanish, "W:WKc2:BKb7"))
	w := []string{"c2", "d3", "e2", "d1"}
	b := []string{"b7", "c8", "d7", "e6", "d5", "c6"}
	for i := 0; i < 20; i++ {
		g = play(t, g, w[i%4]+"-"+w[(i+1)%4])
		if i == 19 {
			if out := g.Outcome(); out.Over {
				t.Fatalf("after 39 king moves: %+v", out)
			}
		}
		g = play(t, g, b[i%6]+"-"+b[(i+1)%6])
	}
	if out := g.Outcome(); !out.Over || out.Winner != -1 || out.Reason != rules.KingMoves {
		t.Fatalf("after 40 king moves: %+v", out)
	}
	// A man's move starts the count again (the man on b1 goes to a2,
	// out of reach on the edge).
	g = NewGame(Spanish, mustFEN(t, Spanish, "W:WKc2,b1:BKb7"))
	wi := 0
	for i := 0; i < 20; i++ {
		if i == 10 {
			g = play(t, g, "b1-a2")
		} else {
			g = play(t, g, w[wi%4]+"-"+w[(wi+1)%4])
			wi++
		}
		g = play(t, g, b[i%6]+"-"+b[(i+1)%6])
	}
	if out := g.Outcome(); out.Over {
		t.Fatalf("40 plies with a man's move among them: %+v", out)
	}
}

func TestThreeKingsAgainstOne(t *testing.T) {
	// Spanish: White kings h1 (on the long diagonal h1-a8), a4 and e2
	// against a lone Black king on e6. White's e2 king circles
	// e2-f3-g2-f1 (4 moves), Black's e6-f7-g8-h7-g6-f5 (6 moves); no king
	// ever stands on a diagonal of an enemy king, and no position occurs a
	// third time (lcm 12 rounds).
	//   . . . .
	//    . . . .
	//   . . B .     e6
	//    . . . .
	//   W . . .     a4
	//    . . . .
	//   . . W .     e2
	//    . . . W    h1
	g := NewGame(Spanish, mustFEN(t, Spanish, "W:WKe2,Ka4,Kh1:BKe6"))
	w := []string{"e2", "f3", "g2", "f1"}
	b := []string{"e6", "f7", "g8", "h7", "g6", "f5"}
	for i := 0; i < 13; i++ {
		if out := g.Outcome(); out.Over {
			t.Fatalf("over after %d White moves: %+v", i, out)
		}
		g = play(t, g, w[i%4]+"-"+w[(i+1)%4])
		if i < 12 {
			g = play(t, g, b[i%6]+"-"+b[(i+1)%6])
		}
	}
	if out := g.Outcome(); !out.Over || out.Winner != -1 || out.Reason != rules.ThreeKings {
		t.Fatalf("after 13 White moves: %+v\n%s", out, diagram(g.v, g.Position()))
	}
	// The same moves with a man instead of the a4 king: no count, no draw.
	g = NewGame(Spanish, mustFEN(t, Spanish, "W:WKe2,a4,Kh1:BKe6"))
	for i := 0; i < 13; i++ {
		g = play(t, g, w[i%4]+"-"+w[(i+1)%4], b[i%6]+"-"+b[(i+1)%6])
	}
	if out := g.Outcome(); out.Over {
		t.Fatalf("two kings and a man: %+v", out)
	}
}

func TestDamasDraw(t *testing.T) {
	for _, c := range []struct {
		fen  string
		draw bool
	}{
		{"W:WKa1,Kc1:BKh8,Kf8", true},
		{"W:WKa1:BKh8", true},
		{"W:WKa1,Kc1,Ke1:BKh8,Kf8,Kd8", false}, // three each is not "very reduced"
		{"W:WKa1,Kc1:BKh8", false},             // not equal
		{"W:WKa1,c1:BKh8,Kf8", false},          // not all kings
	} {
		g := NewGame(Damas, mustFEN(t, Damas, c.fen))
		if out := g.Outcome(); out.Over != c.draw || (c.draw && (out.Winner != -1 || out.Reason != rules.FewKings)) {
			t.Errorf("%s: %+v, want draw %v", c.fen, out, c.draw)
		}
		if out := NewGame(Dame, mustFEN(t, Dame, c.fen)).Outcome(); out.Over {
			t.Errorf("dame %s: %+v, dame has no automatic draw", c.fen, out)
		}
	}
	// Reached by a capture: a1xd4 leaves two kings against two.
	g := play(t, NewGame(Damas, mustFEN(t, Damas, "W:WKa1,Kg1:BKc3,Kh8,Kf8")), "a1xd4")
	if out := g.Outcome(); !out.Over || out.Winner != -1 {
		t.Fatalf("after a1xd4: %+v", out)
	}
}

func TestLoss(t *testing.T) {
	for _, c := range []struct {
		v      Variant
		fen    string
		winner int
		reason rules.Reason
	}{
		{Spanish, "W:Wb1:B", 0, rules.NoPieces},
		{Spanish, "B:Wb1:B", 0, rules.NoPieces},
		{Spanish, "W:W:Bb7", 1, rules.NoPieces},
		// White's man on a8... cannot: a man on b7 blocked by c8 and a8.
		{Spanish, "W:Wb7:Ba8,c8", 1, rules.NoMove},
		{Dame, "B:Wa1,b2:Ba3? ", -2, ""},
	} {
		p, err := c.v.ParseFEN(c.fen)
		if c.winner == -2 {
			if err == nil {
				t.Errorf("%s parsed", c.fen)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out := NewGame(c.v, p).Outcome()
		if !out.Over || out.Winner != c.winner || out.Reason != c.reason {
			t.Errorf("%s: %+v, want winner %d by %s", c.fen, out, c.winner, c.reason)
		}
	}
	g := NewGame(Spanish, Initial).Resign(White)
	if out := g.Outcome(); !out.Over || out.Winner != 1 {
		t.Fatalf("resigned: %+v", out)
	}
	if out := NewGame(Spanish, Initial).AgreeDraw().Outcome(); !out.Over || out.Winner != -1 {
		t.Fatalf("agreed draw: %+v", out)
	}
}

func TestHuffing(t *testing.T) {
	// damas huff=yes. White's c3 could take d4; White plays a3-b4 instead.
	//   . . . .
	//   ...
	//    . b . .    d4: Black man, b8... h8 a Black man far away
	//   w . w .     a3, c3: White men
	v := DamasHuff
	g := NewGame(v, mustFEN(t, v, "W:Wa3,c3:Bd4,h8"))
	if got := moveTexts(v, g.Position()); !slices.Equal(got, []string{"a3-b4", "c3-b4", "c3xe5"}) {
		t.Fatalf("moves %v", got)
	}
	g = play(t, g, "a3-b4")
	if got := g.Huffable(); got != 1<<mustSquare(t, v, "c3") {
		t.Fatalf("huffable %b, want c3", got)
	}
	if _, err := g.Huff(mustSquare(t, v, "b4")); !errors.Is(err, rules.ErrNotNow) {
		t.Fatalf("huffing b4: %v", err)
	}
	h, err := g.Huff(mustSquare(t, v, "c3"))
	if err != nil {
		t.Fatal(err)
	}
	if got := v.FEN(h.Position()); got != "B:Wb4:Bd4,h8" {
		t.Fatalf("after the huff: %s", got)
	}
	if _, err := h.Huff(mustSquare(t, v, "b4")); !errors.Is(err, rules.ErrNotNow) {
		t.Fatalf("second huff: %v", err)
	}
	h = play(t, h, "h8-g7")
	if len(h.plies) != 2 || h.plies[1].Huffed != mustSquare(t, v, "c3") {
		t.Fatalf("the huff is not recorded: %+v", h.plies)
	}
	// The right lapses when Black moves without huffing; Black's d4 could
	// have taken c3, so now White may huff d4.
	g = play(t, g, "h8-g7")
	if got := g.Huffable(); got != 1<<mustSquare(t, v, "d4") {
		t.Fatalf("huffable %b after Black's move, want d4", got)
	}
	// The piece that could have captured moved away: huff it where it stands.
	g = play(t, NewGame(v, mustFEN(t, v, "W:Wa3,c3:Bd4,h8")), "c3-b4")
	if got := g.Huffable(); got != 1<<mustSquare(t, v, "b4") {
		t.Fatalf("huffable %b, want b4", got)
	}
	// A capture of fewer pieces than the most available gives the right too.
	g = play(t, NewGame(v, mustFEN(t, v, "W:Wc1,g3:Bd2,f4,h8")), "g3xe5")
	if got := g.Huffable(); got != 1<<mustSquare(t, v, "c1") {
		t.Fatalf("huffable %b, want c1", got)
	}
	// The maximal capture gives no right.
	g = play(t, NewGame(v, mustFEN(t, v, "W:Wc1,g3:Bd2,f4,h8")), "c1xe3xg5")
	if g.Huffable() != 0 {
		t.Fatalf("huffable after the maximal capture")
	}
	// Without huffing the capture is forced.
	if got := moveTexts(Damas, mustFEN(t, Damas, "W:Wa3,c3:Bd4,h8")); !slices.Equal(got, []string{"c3xe5"}) {
		t.Fatalf("damas huff=no: %v", got)
	}
}

func mustSquare(t *testing.T, v Variant, s string) Square {
	t.Helper()
	f, err := v.parseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestAppendMoves(t *testing.T) {
	p := mustFEN(t, Spanish, "B:Wc4,f5:Bd5,g6")
	buf := make([]Move, 1, 8)
	buf = Spanish.AppendMoves(buf, p)
	want := Spanish.Moves(p)
	if len(buf) != 1+len(want) || buf[0] != (Move{}) {
		t.Fatalf("AppendMoves gave %d moves after the first", len(buf)-1)
	}
	for i, m := range want {
		if buf[1+i] != m {
			t.Fatalf("move %d: %s, want %s", i, Spanish.MoveText(buf[1+i]), Spanish.MoveText(m))
		}
	}
}
