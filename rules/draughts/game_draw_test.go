package draughts

import (
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// TestNoMovesAfterAutomaticDraw: once a game has ended by an automatic
// draw, nothing is offered to play, as after a resignation: Moves, the
// State's moves and the picture's movable pieces are empty.
func TestNoMovesAfterAutomaticDraw(t *testing.T) {
	for _, c := range []struct {
		name   string
		v      Variant
		fen    string
		moves  []string
		reason rules.Reason
	}{
		// Spanish, two lone kings shuffling until the third occurrence:
		//   . . . .        d7: Black king
		//    . B . .
		//   ...
		//    . W . .       d1: White king
		{"threefold repetition", Spanish, "W:WKd1:BKd7",
			[]string{"d1-e2", "d7-c6", "e2-d1", "c6-d7", "d1-e2", "d7-c6", "e2-d1", "c6-d7"}, rules.Repetition},
		// Damas, a capture leaves two kings against two:
		//   . . . K        h8, f8: Black kings
		//   ...
		//   K . K .        a1, c1: White kings; a1 takes b2
		{"kings only, reached by a capture", Damas, "W:WKa1,Kc1:BKh8,Kf8,Kb2", []string{"a1xc3"}, rules.FewKings},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := NewGame(c.v, mustFEN(t, c.v, c.fen))
			if len(g.Moves()) == 0 {
				t.Fatal("no moves at the start")
			}
			g = play(t, g, c.moves...)
			if out := g.Outcome(); !out.Over || out.Reason != c.reason {
				t.Fatalf("outcome %+v, want a draw by %s\n%s", out, c.reason, diagram(c.v, g.Position()))
			}
			if ms := g.Moves(); len(ms) != 0 {
				t.Errorf("Moves after the draw: %d moves, want none", len(ms))
			}
			st := State{g: g}
			if ms := st.Moves(); len(ms) != 0 {
				t.Errorf("State.Moves after the draw: %v, want none", ms)
			}
			if v := st.View(); len(v.Movable) != 0 || v.Turn != -1 {
				t.Errorf("View after the draw: turn %d, movable %v; want -1 and none", v.Turn, v.Movable)
			}
		})
	}
}

// TestNoMovesAfterTheLastPieceIsHuffed: a huff that takes the opponent's
// last piece ends the game, and then the huffer has no moves to play.
//
//	 . . . b    h8: Black man
//	...
//	 . b . .    d4: Black man
//	. w . .     c3: White's only man, which could take d4, plays c3-b4;
//	            Black huffs it on b4.
func TestNoMovesAfterTheLastPieceIsHuffed(t *testing.T) {
	v := DamasHuff
	// White's only man c3 could take d4 but plays c3-b4; Black, to move,
	// huffs c3's man (now on b4): White has no piece left.
	g := NewGame(v, mustFEN(t, v, "W:Wc3:Bd4,h8"))
	g = play(t, g, "c3-b4")
	h, err := g.Huff(mustSquare(t, v, "b4"))
	if err != nil {
		t.Fatalf("huffing b4: %v", err)
	}
	if out := h.Outcome(); !out.Over || out.Winner != int(Black) {
		t.Fatalf("outcome after the huff %+v, want Black wins\n%s", out, diagram(v, h.Position()))
	}
	if ms := h.Moves(); len(ms) != 0 {
		t.Errorf("Moves after the last piece was huffed: %d moves, want none", len(ms))
	}
	if ms := (State{g: h}).Moves(); len(ms) != 0 {
		t.Errorf("State.Moves after the last piece was huffed: %v, want none", ms)
	}
}
