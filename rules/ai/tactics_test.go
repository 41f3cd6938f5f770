package ai

import (
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/halma"
)

// Two-move shots: the side to move gives a man away, the capture is
// forced, and the reply takes two pieces. Each position is drawn from
// White's (Red's) side, rank 8 at the top; w/b are men, '.' an empty
// playing square, ' ' a square not played on.
var shots = []struct {
	name, id string
	opts     map[string]string
	fen      string
	want     string // the first move of the shot
	reply    string // the forced capture
	shot     string // the double capture
}{
	{
		// Spanish, light squares:
		//   8  b . . .
		//   7 . . . .
		//   6  . . . .
		//   5 . b . b     d5, h5
		//   4  . . . .
		//   3 . . w .     f3
		//   2  . . . w    g2
		//   1 . . . w     h1
		//     a b c d e f g h
		// f3-g4! h5xf3 (forced; h1 stops the capture going on over g2),
		// g2xe4xc6 takes f3 and d5. f3-e4 only trades one for one.
		name: "spanish", id: "spanish", fen: "W:Wf3,g2,h1:Bh5,d5,a8",
		want: "f3-g4", reply: "h5xf3", shot: "g2xe4xc6",
	},
	{
		// Damas, dark squares (the mirror image of the Spanish shot):
		//   8 . . . b     h8
		//   7  . . . .
		//   6 . . . .
		//   5  b . b .    a5, e5
		//   4 . . . .
		//   3  . w . .    c3
		//   2 . w . .     b2
		//   1  w . . .    a1
		//     a b c d e f g h
		// c3-b4! a5xc3, b2xd4xf6.
		name: "damas", id: "damas", fen: "W:Wc3,b2,a1:Ba5,e5,h8",
		want: "c3-b4", reply: "a5xc3", shot: "b2xd4xf6",
	},
	{
		// Dame, dark squares:
		//   8 . . . b     h8
		//   7  . . . .
		//   6 . . . .
		//   5  . . b b    e5, g5
		//   4 . . . .
		//   3  . . w w    e3, g3
		//   2 . w . .     d2
		//   1  w . . .    c1
		//     a b c d e f g h
		// e3-f4! g5xe3 (e5xg3 is blocked by g3; c1 stops the capture going
		// on over d2), d2xf4xd6 takes e3 and e5. e3-d4? loses two to e5xc3xe1.
		name: "dame", id: "dame", fen: "W:Wc1,d2,e3,g3:Bg5,e5,h8",
		want: "e3-f4", reply: "g5xe3", shot: "d2xf4xd6",
	},
	{
		// Ultradamas, every square (R red man, B black man):
		//   8 B . . . . . . .   a8
		//   7 . . . . . . . .
		//   6 . . . . B . B .   e6, g6
		//   5 . . . . . . . .
		//   4 . . . . R . . .   e4
		//   3 . . . R . . . .   d3
		//   2 . . R . . . . .   c2
		//   1 R . . . . . . .   a1
		//     a b c d e f g h
		// e4-e5! e6xe4 (the only capture; c2 stops it going on over d3),
		// d3xf5xh7: the man's first jump is forward, the next one any way.
		name: "ultradamas", id: "ultradamas", fen: "R:Ra1,c2,d3,e4:Be6,g6,a8",
		want: "e4-e5", reply: "e6xe4", shot: "d3xf5xh7",
	},
}

func TestShots(t *testing.T) {
	p := New(Config{TableMB: 4})
	for _, c := range shots {
		t.Run(c.name, func(t *testing.T) {
			s := load(t, c.id, c.opts, c.fen)
			for _, lv := range []int{3, 4, 5} {
				o := Options{Level: lv, Seed: 7, Depth: 8}
				if got := choose(t, p, s, o); got.Text != c.want {
					t.Errorf("level %d plays %s, want the shot %s", lv, got.Text, c.want)
				}
			}
			// The shot works as drawn: the reply is forced, then the
			// double capture is on and the computer plays it.
			s = play(t, s, c.want)
			if ms := s.Moves(); len(ms) != 1 || ms[0].Text != c.reply {
				t.Fatalf("after %s the moves are %v, want only %s", c.want, texts(ms), c.reply)
			}
			s = play(t, s, c.reply)
			got := choose(t, p, s, Options{Level: 4, Depth: 4})
			if got.Text != c.shot || len(got.Captured) != 2 {
				t.Errorf("after %s %s the computer plays %s (captures %v), want %s taking two", c.want, c.reply, got.Text, got.Captured, c.shot)
			}
		})
	}
}

func texts(ms []rules.Move) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Text)
	}
	return out
}

// fewestMoves counts the moves seat needs to win from p when the others
// do not move: a breadth-first search over its own moves, independent of
// the computer's search.
func fewestMoves(p halma.Position, seat, limit int) int {
	type node struct {
		p halma.Position
		n int
	}
	seen := map[halma.Position]bool{p: true}
	queue := []node{{p, 0}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur.n >= limit {
			continue
		}
		for _, m := range cur.p.Moves() {
			next := cur.p.Play(m)
			if next.Winner() == seat {
				return cur.n + 1
			}
			// Hand the turn back to seat without moving anyone else.
			q, err := halma.ParseFEN(withTurn(next.FEN(), seat))
			if err != nil || seen[q] {
				continue
			}
			seen[q] = true
			queue = append(queue, node{q, cur.n + 1})
		}
	}
	return -1
}

// withTurn rewrites a Halma FEN so that seat is to move.
func withTurn(fen string, seat int) string {
	// size:players:turn:...
	i := 0
	for n := 0; n < 2; i++ {
		if fen[i] == ':' {
			n++
		}
	}
	j := i
	for fen[j] != ':' {
		j++
	}
	return fen[:i] + string(rune('1'+seat)) + fen[j:]
}

// TestHalmaEndgame: the computer fills its camp in the fewest moves.
//
//	8 . . . . . 1 1 .    the camp of player 1 (rows 4, 3, 2, 1 from h8)
//	7 . . . . 1 1 1 1    holds eight of its pieces; e8 and h8 are empty;
//	6 . . . . . . 1 1    e7 and c5 must come in, the pieces inside
//	5 . . 1 . . . . 1    making room by steps and jumps
//	4 . . . . . . . .
//	3 . . . . . . . .
//	2 2 . . . . . . .    player 2's last pieces sit in its own target camp
//	1 2 2 . . . . . .
//	  a b c d e f g h
func TestHalmaEndgame(t *testing.T) {
	opts := map[string]string{"size": "8", "leavehome": "off"}
	const fen = "8:2:1:g8,f8,f7,g7,h7,g6,h6,h5,c5,e7:a1,b1,a2"
	s := load(t, "halma", opts, fen)
	pos, err := halma.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	want := fewestMoves(pos, 0, 6)
	if want < 2 {
		t.Fatalf("the endgame is too easy: %d moves", want)
	}
	t.Logf("player 1 needs %d moves", want)
	p := New(Config{TableMB: 4})
	for _, lv := range []int{4, 5} {
		cur := s
		moves := 0
		for !cur.Outcome().Over && moves < 3*want {
			if cur.Turn() == 0 {
				m := choose(t, p, cur, Options{Level: lv, Seed: 3, Depth: 2*want + 1})
				cur = play(t, cur, m.Text)
				moves++
			} else {
				cur = play(t, cur, cur.Moves()[0].Text) // player 2 shuffles at home
			}
		}
		if out := cur.Outcome(); !out.Over || out.Winner != 0 || moves != want {
			t.Errorf("level %d: %v after %d moves of its own, want a win in %d", lv, out, moves, want)
		}
	}
}
