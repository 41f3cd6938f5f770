package halma

import (
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

func TestWinWithOwnersPieceLeftInCamp(t *testing.T) {
	// Player 2 never took h8 out of its home; player 1 fills the rest of
	// the camp with g4-h5 and wins.
	//	8 . . . . 1 1 1 2
	//	7 . . . . . 1 1 1
	//	6 . . . . . . 1 1
	//	5 . . . . . . . .
	//	4 . . . . . . 1 .
	//	3 . . . . . . . .
	//	2 . . . . . . . .
	//	1 2 . . . . . . .
	//	  a b c d e f g h
	const fen = "8:2:1:e8,f8,g8,f7,g7,h7,g6,h6,g4:h8,a1"
	g, _ := New(Variant{Size: 8, Players: 2})
	s, err := g.LoadState(fen)
	if err != nil {
		t.Fatal(err)
	}
	if s.Outcome().Over {
		t.Fatal("over before the move")
	}
	other, _, err := s.PlayMove("g4-g3")
	if err != nil || other.Outcome().Over {
		t.Fatalf("g4-g3: %v, outcome %+v", err, other.Outcome())
	}
	won, _, err := s.PlayMove("g4-h5")
	if err != nil {
		t.Fatal(err)
	}
	want := rules.Outcome{Over: true, Winner: 0, Reason: rules.CampFilled}
	if got := won.Outcome(); got != want {
		t.Fatalf("outcome %+v, want %+v", got, want)
	}
	if won.Turn() != -1 || len(won.Moves()) != 0 || len(won.View().Movable) != 0 {
		t.Errorf("after the win: turn %d, moves %v", won.Turn(), won.Moves())
	}
	_, _, err = won.Play("a1-b2")
	wantKind(t, err, rules.ErrGameOver)
	if won.Perft(1) != 0 {
		t.Errorf("perft(1) of a won position = %d, want 0", won.Perft(1))
	}
	// The position alone says so too: Load sees that the last mover has won.
	again, err := g.LoadState(won.FEN())
	if err != nil || again.Outcome() != want {
		t.Errorf("loaded %s: %v %+v", won.FEN(), err, again.Outcome())
	}
}

func TestWinOnlyAtTheEndOfOwnMove(t *testing.T) {
	// Player 2 steps h4-h5 back into its home and so fills player 1's
	// target camp; player 1 wins only once it has moved itself.
	//	8 . . . . 1 1 1 2
	//	7 . . . . . 1 1 1
	//	6 . . . . . . 1 1
	//	5 . . . . . . . .
	//	4 . . . . . . . 2
	//	3 . . 1 . . . . .
	//	  a b c d e f g h
	g, _ := New(Variant{Size: 8, Players: 2})
	s, err := g.LoadState("8:2:2:e8,f8,g8,f7,g7,h7,g6,h6,c3:h8,h4")
	if err != nil {
		t.Fatal(err)
	}
	s, _, err = s.PlayMove("h4-h5")
	if err != nil {
		t.Fatal(err)
	}
	if s.Outcome().Over {
		t.Fatalf("over after player 2's move: %+v", s.Outcome())
	}
	s, _, err = s.PlayMove("c3-c4")
	if err != nil {
		t.Fatal(err)
	}
	if o := s.Outcome(); !o.Over || o.Winner != 0 {
		t.Fatalf("after player 1's move: %+v, want player 1 to win", o)
	}
}

func TestFourPlayerWin(t *testing.T) {
	// Player 1 (a1's corner) fills its target camp, player 3's home, with
	// n12-o13. p13 holds X: player 2's piece passing through does not count
	// (no win); a piece of player 3, the camp's owner, does.
	const board = `
		16 . . . . . . . . . . . . 1 1 1 1
		15 . . . . . . . . . . . . 1 1 1 1
		14 . . . . . . . . . . . . . 1 1 1
		13 . . . . . . . . . . . . . . . X
		12 . . . . . . . . . . . . . 1 . .
		11 . . . . . . . . . . . . . . . .
		10 . . . . . . . . . . . . . . . .
		 9 . . . . . . . . . . . . . . . .
		 8 . . . . . . . . . . . . . . . .
		 7 . . . . . . . . . . . . . . . .
		 6 . . . . . . . . . . . . . . . .
		 5 . . . . . . . . . . . . . . . .
		 4 . . . . . . . . . . . . . . . .
		 3 . . . . . . . . . . . . . . . .
		 2 . . . . . . . . . . . . . . . .
		 1 . . . . . . . . . . . . . . . .
		   a b c d e f g h i j k l m n o p`
	for _, tt := range []struct {
		x   string
		win bool
	}{{"2", false}, {"3", true}} {
		p := diagram(t, 4, 1, strings.Replace(board, "X", tt.x, 1))
		g, _ := New(Variant{Size: 16, Players: 4})
		s, err := g.LoadState(p.FEN())
		if err != nil {
			t.Fatal(err)
		}
		s, _, err = s.PlayMove("n12-o13")
		if err != nil {
			t.Fatal(err)
		}
		if o := s.Outcome(); o.Over != tt.win || (tt.win && o.Winner != 0) {
			t.Errorf("p13 held by player %s: outcome %+v, want a win: %v", tt.x, o, tt.win)
		}
	}
}

func TestLeaveHome(t *testing.T) {
	t.Run("loses after the Nth move", func(t *testing.T) {
		g, _ := New(Variant{Size: 8, Players: 2, LeaveHome: 2})
		s := g.StartState(0)
		for i, mv := range []string{"d1-e2", "e8-d7", "c2-d3"} {
			if s.Outcome().Over {
				t.Fatalf("over before move %d: %+v", i+1, s.Outcome())
			}
			var err error
			if s, _, err = s.PlayMove(mv); err != nil {
				t.Fatal(err)
			}
		}
		o := s.Outcome()
		if !o.Over || o.Winner != 1 || o.Reason != rules.LeftHome || o.N != 2 {
			t.Fatalf("after player 1's second move with pieces at home: %+v, want player 2 to win", o)
		}
	})
	t.Run("left in time", func(t *testing.T) {
		//	5 . . . . 1 . . .
		//	1 . . . 1 . . . .   (and player 2 on h8)
		g, _ := New(Variant{Size: 8, Players: 2, LeaveHome: 1})
		s, err := g.LoadState("8:2:1:d1,e5:h8")
		if err != nil {
			t.Fatal(err)
		}
		out, _, _ := s.PlayMove("d1-e2")
		stay, _, _ := s.PlayMove("e5-e6")
		if out.Outcome().Over {
			t.Errorf("d1-e2 empties the home camp, yet %+v", out.Outcome())
		}
		if o := stay.Outcome(); !o.Over || o.Winner != 1 {
			t.Errorf("e5-e6 leaves d1 at home after move 1, yet %+v", o)
		}
	})
	t.Run("off", func(t *testing.T) {
		g, _ := New(Variant{Size: 8, Players: 2})
		s, err := g.LoadState("8:2:1:d1,e5:h8")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 40; i++ {
			s, _, err = s.PlayMove(s.Moves()[0].Text)
			if err != nil || s.Outcome().Over {
				t.Fatalf("move %d: %v %+v", i+1, err, s.Outcome())
			}
		}
	})
}
