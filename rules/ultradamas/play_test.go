package ultradamas

import (
	"errors"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// TestApply plays one move and checks the position it leaves: promotions
// (one level, only where the move ends), loads, drops, merges, consumes,
// the ply counter and the removal of captured pieces. The less usual
// positions:
//
// Merge, R:R5d4,5e5:Bh8: e5^d4 (e5 climbs onto d4) leaves one double
// ultra king on d4 (level 6), a promotion, so the ply count restarts.
//
//	8  .  .  .  .  .  .  .  b1
//	5  .  .  .  .  r5 .  .  .
//	4  .  .  .  r5 .  .  .  .
//	    a  b  c  d  e  f  g  h      (empty ranks left out)
//
// Promotion by drop, R:Ra1,5d4+1:Be5,h8: the carried man dropped on a8
// (Red's far rank) becomes a king; dropped on c3 it stays a man.
//
//	8  .  .  .  .  .  .  .  b1
//	5  .  .  .  .  b1 .  .  .
//	4  .  .  .  r5+ .  .  .  .      (carries a man)
//	1  r1 .  .  .  .  .  .  .
//	    a  b  c  d  e  f  g  h
//
// R:R5d4+4:Bh8: a carried quad king dropped on a1 (Red's first rank)
// becomes an ultra king.
//
// B:R5d4+2:Be5: Black's man jumps the loaded ultra king (e5xc3); the king
// it carries is captured with it and Red has nothing left.
//
//	5  .  .  .  .  b1 .  .  .
//	4  .  .  .  r5+ .  .  .  .      (carries a king)
//	    a  b  c  d  e  f  g  h
//
// R:Rc3,6d4:Bh8: the double ultra king loads c3 and drops it on h1 in one
// turn (c3^d4;d4^h1), or teleports and comes back (d4-a1;a1-d4).
//
//	8  .  .  .  .  .  .  .  b1
//	4  .  .  .  r6 .  .  .  .
//	3  .  .  r1 .  .  .  .  .
//	    a  b  c  d  e  f  g  h
func TestApply(t *testing.T) {
	cases := []struct {
		name, fen, move, want string
	}{
		{"man promotes on the far rank", "R:Rb7,h2:Bc8", "b7-b8", "B:Rh2,2b8:Bc8"},
		{"a step counts a ply", "R:Rb7,h2:Bc8", "h2-h3", "B:Rh3,b7:Bc8:n1"},
		{"man passing the far rank stays a man", "R:Rc6:Bc7,d7,h1", "c6xc8xe6", "B:Re6:Bh1"},
		{"man ending on the far rank is crowned", "R:Rc6:Bc7,d7,h1", "c6xe8", "B:R2e8:Bh1,c7"},
		{"king to its own first rank: triple king", "R:R2b2:Bh8", "b2-b1", "B:R3b1:Bh8"},
		{"king on the far rank stays a king", "R:R2b7:Bh1", "b7-b8", "B:R2b8:Bh1:n1"},
		{"triple king to the far rank: quad king", "R:R3b7:Bh1", "b7-b8", "B:R4b8:Bh1"},
		{"quad king to its own first rank: ultra king", "R:R4b2:Bh8", "b2-b1", "B:R5b1:Bh8"},
		{"black quad king promotes on rank 8", "B:Ra1:B4b7", "b7-b8", "R:Ra1:B5b8"},
		{"ultra king teleports without promotion", "R:R5b2:Bh8", "b2-b1", "B:R5b1:Bh8:n1"},
		{"double jump removes both", "R:R3a1,b2:Bd4,e5", "a1xc3xf6", "B:Rb2,3f6:B"},
		{"load", "R:Rc3,5d4:Bh8", "c3^d4", "B:R5d4+1:Bh8:n1"},
		{"drop promotes a man on the far rank", "R:Ra1,5d4+1:Be5,h8", "d4^a8", "B:Ra1,5d4,2a8:Be5,h8"},
		{"drop elsewhere", "R:Ra1,5d4+1:Be5,h8", "d4^c3", "B:Ra1,c3,5d4:Be5,h8:n1"},
		{"drop of a quad king on the first rank", "R:R5d4+4:Bh8", "d4^a1", "B:R5a1,5d4:Bh8"},
		{"merge into a double ultra king", "R:R5d4,5e5:Bh8", "e5^d4", "B:R6d4:Bh8"},
		{"consume", "R:Ra1,5d4:Bc5,e5,h8", "d4xe5", "B:Ra1,5e5:Bc5,h8"},
		{"a captured carrier takes its load along", "B:R5d4+2:Be5", "e5xc3", "R:R:Bc3"},
		{"double ultra king consumes twice", "R:R6d4:Be5,f6", "d4xe5;e5xf6", "B:R6f6:B"},
		{"double ultra king loads and drops", "R:Rc3,6d4:Bh8", "c3^d4;d4^h1", "B:Rh1,6d4:Bh8:n1"},
		{"double ultra king undoes its teleport", "R:Rc3,6d4:Bh8", "d4-a1;a1-d4", "B:Rc3,6d4:Bh8:n1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			m, err := p.ParseMove(c.move)
			if err != nil {
				t.Fatalf("%s: ParseMove(%q): %v", c.fen, c.move, err)
			}
			q := p.Apply(m)
			if got := q.FEN(); got != c.want {
				t.Errorf("%s after %s:\n got %s\nwant %s", c.fen, c.move, got, c.want)
			}
			if err := q.Valid(); err != nil {
				t.Errorf("%s after %s: invalid position: %v", c.fen, c.move, err)
			}
		})
	}
}

// TestDoubleUltraKingCount counts a double ultra king's moves by hand:
//
//	//	8  .  .  .  .  .  .  .  b1
//	//	7  .  .  .  .  .  .  .  .
//	//	6  .  .  .  .  .  .  .  .
//	//	5  .  .  .  .  .  .  .  .
//	//	4  .  .  .  r6 .  .  .  .
//	//	3  .  .  .  .  .  .  .  .
//	//	2  .  .  .  .  .  .  .  .
//	//	1  .  .  .  .  .  .  .  .
//	//	    a  b  c  d  e  f  g  h
//
// The first action teleports to one of 62 empty squares. On g7, g8 or h7
// the double ultra king can then consume h8, so it must: 3 moves. On any
// other of the 59 squares it may stop (1) or teleport again to one of the
// 62 empty squares (d4 is empty now): 59 * 63 = 3717. Total 3720.
//
// With a black man on e5 (capture obligatory) every move starts with
// d4xe5, which may stand alone or be followed by one of 62 teleports: 63.
func TestDoubleUltraKingCount(t *testing.T) {
	for fen, want := range map[string]int{"R:R6d4:Bh8": 3720, "R:R6d4:Be5,h8": 63} {
		p := mustFEN(t, fen)
		if got := len(p.Moves(nil)); got != want {
			t.Errorf("%s: %d moves, want %d", fen, got, want)
		}
	}
	p := mustFEN(t, "R:R6d4:Bh8")
	for _, ok := range []string{"d4-g7;g7xh8", "d4-a1", "d4-a1;a1-d4", "d4-a1;a1-h1"} {
		if _, err := p.ParseMove(ok); err != nil {
			t.Errorf("%s: %s should be legal: %v", p, ok, err)
		}
	}
	_, err := p.ParseMove("d4-g7")
	if !errors.Is(err, rules.ErrIllegal) || !strings.Contains(err.Error(), "must consume: d4-g7;g7xh8") {
		t.Errorf("d4-g7 alone: got %v, want the compulsory consume named", err)
	}
	q := mustFEN(t, "R:R6d4,5e5:Bh8")
	for _, bad := range []string{"e5^d4", "d4^e5"} {
		if _, err := q.ParseMove(bad); !errors.Is(err, rules.ErrIllegal) {
			t.Errorf("%s: %s: got %v, want illegal (no climbing onto or with a double ultra king)", q, bad, err)
		}
	}
}

// TestPageNotation parses every example of the rules page's notation
// section in a position where it is legal, and writes it back the same.
func TestPageNotation(t *testing.T) {
	cases := []struct{ fen, move string }{
		{Start().FEN(), "c3-d4"},
		{"R:Rc3:Bd4,f6", "c3xe5xg7"},
		{"R:R5c3:Bd4", "c3xd4"},
		{"R:Rg7,5h6:Ba1", "g7^h6"},
		{"R:R5h6+1:Ba1", "h6^b2"},
		{"R:R6h6:Bd4", "h6-c3;c3xd4"},
		{"R:R5h6:Bd4", "h6-b2"},
	}
	for _, c := range cases {
		p := mustFEN(t, c.fen)
		m, err := p.ParseMove(c.move)
		if err != nil {
			t.Errorf("%s: ParseMove(%q): %v", c.fen, c.move, err)
			continue
		}
		if got := p.Text(m); got != c.move {
			t.Errorf("%s: Text(ParseMove(%q)) = %q", c.fen, c.move, got)
		}
	}
}

// TestParseForms: case, spaces, another route of the same move, and the
// start-and-end shorthand of a series.
func TestParseForms(t *testing.T) {
	p := mustFEN(t, "R:R4d4:Bd6,e4,f4,e3") // the quad king case of ruleCases
	want, err := p.ParseMove("d4xf2xf5xd3")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"D4XF2XF5XD3", " d4x f2xf5 xd3 ", "d4xd3", "d4:f2:f5:d3"} {
		if m, err := p.ParseMove(in); err != nil || m != want {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", in, p.Text(m), err, p.Text(want))
		}
	}
	loop := mustFEN(t, "R:R2d4:Bd5,e6,f5,e4")
	a, err1 := loop.ParseMove("d4xd6xf6xf4xd4")
	b, err2 := loop.ParseMove("d4xf4xf6xd6xd4")
	if err1 != nil || err2 != nil || a != b {
		t.Errorf("the two routes round e5: %v, %v, same move: %v", err1, err2, a == b)
	}
}

// TestParseErrors checks the kind and the one-line message of bad moves.
func TestParseErrors(t *testing.T) {
	start := Start().FEN()
	cases := []struct {
		fen, move string
		kind      error
		msg       string
	}{
		{start, "zz", rules.ErrSyntax, "is not a move"},
		{start, "c3-", rules.ErrSyntax, "is not a move"},
		{start, "c3-d4;", rules.ErrSyntax, "is not a move"},
		{start, "c3-d4-e5", rules.ErrSyntax, "is not a move"},
		{start, "c3xd4-e5", rules.ErrSyntax, "is not a move"},
		{start, "i3-d4", rules.ErrSyntax, "is not a move"},
		{start, "e4-e5", rules.ErrIllegal, "there is no piece on e4"},
		{start, "b6-b5", rules.ErrIllegal, "the piece on b6 is Black's; Red is to move"},
		{start, "c3-c5", rules.ErrIllegal, `"c3-c5" is not legal (the man on c3 can play c3-b4, c3-c4, c3-d4)`},
		{start, "a1-b2", rules.ErrIllegal, `"a1-b2" is not legal (the man on a1 can play a1-a2)`},
		{"R:Re5,f6,a1:Be6,f7", "a1-a2", rules.ErrIllegal, "a capture is obligatory: e5, f6 can capture"},
		{"R:Re5,f6,a1:Be6,f7", "e5-d6", rules.ErrIllegal, "a capture is obligatory: e5, f6 can capture"},
		{"R:Re5,f6,a1:Be6,f7", "e5xe7", rules.ErrIllegal, `"e5xe7" is not legal (the man on e5 can play e5xe7xg7)`},
		{"R:R4d4:Bd6,e4,f4,e3", "d4xf2", rules.ErrIllegal, `"d4xf2" is not legal`},
		{"R:Rc3,6a1:Bd4,h8", "a1-b1", rules.ErrIllegal, "a capture is obligatory: c3 can capture"},
		{"B:Ra1:Bh1", "h1-g1", rules.ErrGameOver, "Black has no legal move"},
	}
	for _, c := range cases {
		p := mustFEN(t, c.fen)
		_, err := p.ParseMove(c.move)
		if !errors.Is(err, c.kind) || err == nil || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: ParseMove(%q) = %v; want %v with %q", c.fen, c.move, err, c.kind, c.msg)
		}
	}
}

// TestErrorsEchoTyped: every error quotes the player's text as typed, so
// an error is one line even when the text has a line break (found by
// FuzzMove), and a FEN or formation is not echoed upper- or lower-cased.
//
//	8 . . . . . . . .
//	7 . . . . . . . .
//	6 . . . . . . . r     R:Rh6:Ba1, Red to move
//	5 . . . . . . . .
//	4 . . . . . . . .
//	3 . . . . . . . .
//	2 . . . . . . . .
//	1 b . . . . . . .
//	  a b c d e f g h
func TestErrorsEchoTyped(t *testing.T) {
	p := mustFEN(t, "R:Rh6:Ba1")
	_, err := p.ParseMove("h\n6xa1")
	if want := `rules: "h\n6xa1" is not legal (the man on h6 can play `; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("ParseMove(%q) = %v; want prefix %s", "h\n6xa1", err, want)
	}
	q := mustFEN(t, "R:R6d4:Bh8")
	if _, err := q.ParseMove("d4-\ng7"); err == nil || !strings.Contains(err.Error(), `after "d4-\ng7" the double ultra king must consume`) {
		t.Errorf("ParseMove(d4-\\ng7) = %v; want the text quoted", err)
	}
	for _, c := range []struct{ fen, msg string }{
		{"R:R7a1", `rules: "7a1" is not a piece`},
		{"R:Rc3+2", `rules: "c3+2": only ultra kings carry pieces`},
		{"R:Ra1:Bh8:n999", `rules: "n999" is not a ply count`},
		{"x:Ra1", `rules: "x" is not a side to move`},
		{"R:qa1", `rules: "qa1" does not start with R or B`},
	} {
		if _, err := ParseFEN(c.fen); err == nil || !strings.HasPrefix(err.Error(), c.msg) {
			t.Errorf("ParseFEN(%q) = %v; want prefix %s", c.fen, err, c.msg)
		}
	}
	if _, err := ParseFormation(Red, "A1 C1 E1 G1 B2 D2 F2 H2 A3 C3 E3 Z9"); err == nil || !strings.HasPrefix(err.Error(), `rules: "Z9" is not a square`) {
		t.Errorf("ParseFormation with Z9 = %v; want Z9 echoed as typed", err)
	}
	if _, err := ParseFormation(Red, "DEFAULT"); err != nil {
		t.Errorf("ParseFormation(DEFAULT) = %v; want the default formation", err)
	}
}
