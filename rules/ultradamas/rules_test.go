package ultradamas

import (
	"slices"
	"strings"
	"testing"
)

// Diagrams: r/b for Red/Black, then the level (1 man ... 6 double ultra
// king); "+" marks an ultra king that carries a piece (its level is in the
// FEN). Every expected list was worked out by hand from the rules page.

// ruleCases are hand-made positions with their exact legal moves.
var ruleCases = []struct {
	name string
	fen  string
	want []string
}{
	{
		name: "man captures forward first, then in any direction",
		// The man's first jump goes forward only (c2 behind it is safe); later
		// jumps go any way: c3xc5 must go on over d4 to e3, then backward over e2
		// to e1. c3xe5 stops (nothing left to capture from e5). No steps: a
		// capture is obligatory.
		//	8  .  .  .  .  .  .  .  .
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  .  .  .  .
		//	4  .  .  b1 b1 .  .  .  .
		//	3  .  .  r1 .  .  .  .  .
		//	2  .  .  b1 .  b1 .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:Rc3:Bc4,d4,c2,e2",
		want: []string{"c3xc5xe3xe1", "c3xe5"},
	},
	{
		name: "man steps three ways forward",
		// Men step straight ahead and diagonally forward into empty squares: b7
		// to a8 or b8 (c8 is taken and nothing lies beyond it), h2 to g3 or h3.
		//	8  .  .  b1 .  .  .  .  .
		//	7  .  r1 .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  .  .  .  .
		//	4  .  .  .  .  .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  r1
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:Rb7,h2:Bc8",
		want: []string{"b7-a8", "b7-b8", "h2-g3", "h2-h3"},
	},
	{
		name: "black man moves toward rank 1",
		// Black's forward is down the board: d5 jumps d4 (to d3, then on over e4
		// to f5) or e4 (to f3, where nothing more can be taken).
		//	8  .  .  .  .  .  .  .  .
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  b1 .  .  .  .
		//	4  .  .  .  r1 r1 .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "B:Rd4,e4:Bd5",
		want: []string{"d5xd3xf5", "d5xf3"},
	},
	{
		name: "man promotes only where the move ends",
		// c6xc8 reaches the far rank but must go on over d7 to e6: it stays a
		// man. c6xe8 ends on the far rank: it becomes a king (checked below).
		//	8  .  .  .  .  .  .  .  .
		//	7  .  .  b1 b1 .  .  .  .
		//	6  .  .  r1 .  .  .  .  .
		//	5  .  .  .  .  .  .  .  .
		//	4  .  .  .  .  .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  b1
		//	    a  b  c  d  e  f  g  h
		fen:  "R:Rc6:Bc7,d7,h1",
		want: []string{"c6xc8xe6", "c6xe8"},
	},
	{
		name: "king jumps any way, one piece at a time",
		// A king jumps in all 8 directions but never two pieces at once (d5, d6
		// are safe); d4xf2 must go on over f3 to f4.
		//	8  .  .  .  .  .  .  .  .
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  b1 .  .  .  .
		//	5  .  .  .  b1 .  .  .  .
		//	4  .  .  .  r2 .  .  .  .
		//	3  .  .  b1 .  b1 b1 .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:R2d4:Bd5,d6,c3,e3,f3",
		want: []string{"d4xb2", "d4xf2xf4"},
	},
	{
		name: "king steps in 8 directions",
		// No capture: the king steps to any of its 8 neighbours.
		//	8  .  .  .  .  .  .  .  b1
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  .  .  .  .
		//	4  .  .  .  .  .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  r2 .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:R2b2:Bh8",
		want: []string{"b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c1", "b2-c2", "b2-c3"},
	},
	{
		name: "same piece, end and captures make one move",
		// The king can go round the square e5 either way, capturing the same
		// four pieces and ending on its own start square (which counts as empty
		// during the series): one move, written with the route found first.
		//	8  .  .  .  .  .  .  .  .
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  b1 .  .  .
		//	5  .  .  .  b1 .  b1 .  .
		//	4  .  .  .  r2 b1 .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:R2d4:Bd5,e6,f5,e4",
		want: []string{"d4xd6xf6xf4xd4"},
	},
	{
		name: "triple king: friendly jump then double jump",
		// The triple king jumps its own man b2 (which stays) to c3, from where it
		// must capture: d4 and e5 together, in one double jump to f6. That series
		// captures, so it is obligatory.
		//	8  .  .  .  .  .  .  .  .
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  b1 .  .  .
		//	4  .  .  .  b1 .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  r1 .  .  .  .  .  .
		//	1  r3 .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:R3a1,b2:Bd4,e5",
		want: []string{"a1xc3xf6"},
	},
	{
		name: "triple king friendly series",
		// No capture anywhere. Besides the steps, the triple king may jump its
		// own pieces: over b1 to a1, over d2 to e3, over c2 to c3 and from there on
		// over d2 to e1 (each friendly piece at most once).
		//	8  .  .  .  .  .  .  .  b1
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  .  .  .  .
		//	4  .  .  .  .  .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  r1 r1 .  .  .  .
		//	1  .  r1 r3 .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:R3c1,c2,d2,b1:Bh8",
		want: []string{"b1-a2", "b1-b2", "c1-b2", "c1-d1", "c1xa1", "c1xc3", "c1xc3xe1", "c1xe3", "c2-b3", "c2-c3", "c2-d3", "d2-c3", "d2-d3", "d2-e3"},
	},
	{
		name: "quad king: skip, double and mixed series",
		// Skip over the empty d5 and d6 to d7; double jump over e4 and f4 to g4;
		// standard jump over e3 to f2, then skip over f3 and f4 to f5, then over e4
		// to d3.
		//	8  .  .  .  .  .  .  .  .
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  b1 .  .  .  .
		//	5  .  .  .  .  .  .  .  .
		//	4  .  .  .  r4 b1 b1 .  .
		//	3  .  .  .  .  b1 .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:R4d4:Bd6,e4,f4,e3",
		want: []string{"d4xd7", "d4xf2xf5xd3", "d4xg4"},
	},
	{
		name: "captured pieces stand until the move ends",
		// After a3xc1 (over b2) and c1xa1 (over b1) the quad king stops: b2 is
		// captured but still on the board, so it cannot skip over it to take c3.
		// (Were b2 removed at once, a1 would have to go on to d4.)
		//	8  .  .  .  .  .  .  .  .
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  .  .  .  .
		//	4  .  .  .  .  .  .  .  .
		//	3  r4 .  b1 .  .  .  .  .
		//	2  .  b1 .  .  .  .  .  .
		//	1  .  b1 .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:R4a3:Bb1,b2,c3",
		want: []string{"a3xc1xa1", "a3xc1xc4", "a3xd3"},
	},
	{
		name: "ultra king consumes",
		// The ultra king takes an adjacent enemy by moving onto it; that is a
		// capture, so it is obligatory.
		//	8  .  .  .  .  .  .  .  b1
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  b1 .  b1 .  .  .
		//	4  .  .  .  r5 .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  r1 .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:Ra1,5d4:Bc5,e5,h8",
		want: []string{"d4xc5", "d4xe5"},
	},
	{
		name: "loaded ultra king waits for the capture",
		// The ultra king on d4 carries a man: it can neither move nor capture,
		// and its drop is not allowed while f4 must take e5.
		//	8  .  .  .  .  .  .  .  b1
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  b1 .  .  .
		//	4  .  .  . r5+ .  r1 .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:Rf4,5d4+1:Be5,h8",
		want: []string{"f4xd6"},
	},
	{
		name: "double ultra king consumes twice",
		// After d4xe5 the double ultra king can consume f6, so its second action
		// must do that; a lone d4xe5 is not legal.
		//	8  .  .  .  .  .  .  .  .
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  b1 .  .
		//	5  .  .  .  .  b1 .  .  .
		//	4  .  .  .  r6 .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:R6d4:Be5,f6",
		want: []string{"d4xe5;e5xf6"},
	},
	{
		name: "double ultra king waits when another piece must capture",
		// c3 can capture; the double ultra king cannot consume, and its first
		// action would have to be a capture: only c3xe5 is legal.
		//	8  .  .  .  .  .  .  .  b1
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  .  .  .  .
		//	4  .  .  .  b1 .  .  .  .
		//	3  .  .  r1 .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  r6 .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:Rc3,6a1:Bd4,h8",
		want: []string{"c3xe5"},
	},
	{
		name: "obligation: every capturer listed",
		// Both men can capture (e5 over e6 and then f7, f6 over f7): a1 may not
		// move.
		//	8  .  .  .  .  .  .  .  .
		//	7  .  .  .  .  .  b1 .  .
		//	6  .  .  .  .  b1 r1 .  .
		//	5  .  .  .  .  r1 .  .  .
		//	4  .  .  .  .  .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  r1 .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:Re5,f6,a1:Be6,f7",
		want: []string{"e5xe7xg7", "f6xf8"},
	},
	{
		name: "ultra king teleports and loads",
		// The ultra king teleports to any of the 61 empty squares or loads the
		// adjacent c3 (c3^d4); the man steps to b4 or c4 (d4 is taken).
		//	8  .  .  .  .  .  .  .  b1
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  .  .  .  .
		//	4  .  .  .  r5 .  .  .  .
		//	3  .  .  r1 .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:Rc3,5d4:Bh8",
		want: append(all("d4-", "c3", "d4", "h8"), "c3^d4", "c3-b4", "c3-c4"),
	},
	{
		name: "loaded ultra king drops",
		// A loaded ultra king can only drop its piece on any empty square; it
		// does not consume e5 (and is not obliged to). The man steps.
		//	8  .  .  .  .  .  .  .  b1
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  b1 .  .  .
		//	4  .  .  . r5+ .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  r1 .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:Ra1,5d4+1:Be5,h8",
		want: append(all("d4^", "a1", "d4", "e5", "h8"), "a1-a2", "a1-b2"),
	},
	{
		name: "two ultra kings can merge",
		// Either ultra king may climb onto the other (e5^d4, d4^e5): they merge
		// into a double ultra king. Or either teleports.
		//	8  .  .  .  .  .  .  .  b1
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  r5 .  .  .
		//	4  .  .  .  r5 .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:R5d4,5e5:Bh8",
		want: append(append(all("d4-", "d4", "e5", "h8"), all("e5-", "d4", "e5", "h8")...), "d4^e5", "e5^d4"),
	},
	{
		name: "a loaded ultra king is not climbed onto",
		// d4 carries a man: it only drops, and e5 cannot climb onto it (nor d4
		// onto e5): e5 only teleports.
		//	8  .  .  .  .  .  .  .  b1
		//	7  .  .  .  .  .  .  .  .
		//	6  .  .  .  .  .  .  .  .
		//	5  .  .  .  .  r5 .  .  .
		//	4  .  .  . r5+ .  .  .  .
		//	3  .  .  .  .  .  .  .  .
		//	2  .  .  .  .  .  .  .  .
		//	1  .  .  .  .  .  .  .  .
		//	    a  b  c  d  e  f  g  h
		fen:  "R:R5d4+1,5e5:Bh8",
		want: append(all("d4^", "d4", "e5", "h8"), all("e5-", "d4", "e5", "h8")...),
	},
}

// all returns prefix+s for every square s except the given ones: the
// targets of a teleport or a drop.
func all(prefix string, except ...string) []string {
	var out []string
	for r := '1'; r <= '8'; r++ {
		for f := 'a'; f <= 'h'; f++ {
			s := string([]rune{f, r})
			if !slices.Contains(except, s) {
				out = append(out, prefix+s)
			}
		}
	}
	return out
}

func TestRuleCases(t *testing.T) {
	for _, c := range ruleCases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			got := moveTexts(p)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: moves\n got %d: %s\nwant %d: %s", c.fen, len(got), strings.Join(got, " "), len(want), strings.Join(want, " "))
			}
		})
	}
}

func mustFEN(t *testing.T, fen string) Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// moveTexts lists the legal moves of p in the page's notation, sorted.
func moveTexts(p Position) []string {
	var out []string
	for _, m := range p.Moves(nil) {
		out = append(out, p.Text(m))
	}
	slices.Sort(out)
	return out
}
