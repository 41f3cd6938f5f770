package halma

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// start4 is the four-player start with player 1 to move.
const start4 = "16:4:1:a1,b1,c1,d1,a2,b2,c2,d2,a3,b3,c3,a4,b4:a16,b16,c16,d16,a15,b15,c15,d15,a14,b14,c14,a13,b13:p16,o16,n16,m16,p15,o15,n15,m15,p14,o14,n14,p13,o13:p1,o1,n1,m1,p2,o2,n2,m2,p3,o3,n3,p4,o4"

// load4 loads a four-player position as a State.
func load4(t *testing.T, fen string) *State {
	t.Helper()
	g, err := New(Variant{Size: 16, Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.LoadState(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// retire retires seat through the rules.Retirer interface, as sessions do.
func retire(t *testing.T, s rules.State, seat int) *State {
	t.Helper()
	r, ok := s.(rules.Retirer)
	if !ok {
		t.Fatalf("%T is not a rules.Retirer", s)
	}
	next, err := r.Retire(seat)
	if err != nil {
		t.Fatalf("retire Player %d: %v", seat+1, err)
	}
	return next.(*State)
}

// play plays moves in order.
func play(t *testing.T, s *State, moves ...string) *State {
	t.Helper()
	for _, mv := range moves {
		next, _, err := s.PlayMove(mv)
		if err != nil {
			t.Fatalf("%s in %s: %v", mv, s.FEN(), err)
		}
		s = next
	}
	return s
}

func TestRetireNotToMove(t *testing.T) {
	// The start, player 1 to move; player 3 (top-right corner) leaves.
	//	16 2 2 2 2 . . . . . . . . 3 3 3 3      16 2 2 2 2 . . . . . . . . . . . .
	//	15 2 2 2 2 . . . . . . . . 3 3 3 3      15 2 2 2 2 . . . . . . . . . . . .
	//	...                               ->    ...
	//	 1 1 1 1 1 . . . . . . . . 4 4 4 4       1 1 1 1 1 . . . . . . . . 4 4 4 4
	s := load4(t, start4)
	r := retire(t, s, 2)
	if s.FEN() != start4 {
		t.Fatalf("Retire changed its receiver: %s", s.FEN())
	}
	want := "16:4:1:a1,b1,c1,d1,a2,b2,c2,d2,a3,b3,c3,a4,b4:a16,b16,c16,d16,a15,b15,c15,d15,a14,b14,c14,a13,b13::p1,o1,n1,m1,p2,o2,n2,m2,p3,o3,n3,p4,o4"
	if r.FEN() != want {
		t.Fatalf("after player 3 left: %s, want %s", r.FEN(), want)
	}
	if r.Turn() != 0 || r.Outcome().Over || !r.Position().Retired(2) || r.Position().Retired(0) {
		t.Fatalf("turn %d, outcome %+v, retired %v", r.Turn(), r.Outcome(), r.Position().Retired(2))
	}
	for _, pc := range r.View().Pieces {
		if pc.Seat == 2 {
			t.Fatalf("player 3's piece on %v is still shown", pc.Square)
		}
	}
	// The turn goes 1, 2, 4, 1: player 3 is skipped.
	var turns []int
	for i := 0; i < 4; i++ {
		turns = append(turns, r.Turn()+1)
		r = play(t, r, r.Moves()[0].Text)
	}
	if got := fmt.Sprint(turns); got != "[1 2 4 1]" {
		t.Fatalf("turn order %s, want [1 2 4 1]", got)
	}
	// Player 3 cannot leave twice.
	_, err := r.Retire(2)
	wantKind(t, err, rules.ErrNotNow)
}

func TestRetireToMove(t *testing.T) {
	// Player 2 (top-left) is to move and leaves: player 3 moves next,
	// then 4, then 1, then 3 again.
	s := load4(t, strings.Replace(start4, "16:4:1:", "16:4:2:", 1))
	r := retire(t, s, 1)
	if r.Turn() != 2 || r.View().Turn != 2 {
		t.Fatalf("after the player to move left: turn %d, want 2 (Player 3)", r.Turn())
	}
	if !strings.HasPrefix(r.FEN(), "16:4:3:") || !strings.Contains(r.FEN(), ",b4::p16") {
		t.Fatalf("FEN %s: want player 3 to move and an empty field for player 2", r.FEN())
	}
	for _, m := range r.Moves() {
		if !strings.HasPrefix(m.From.String(), "m") && !strings.HasPrefix(m.From.String(), "n") &&
			!strings.HasPrefix(m.From.String(), "o") && !strings.HasPrefix(m.From.String(), "p") {
			t.Fatalf("move %s is not player 3's", m.Text)
		}
	}
	var turns []int
	for i := 0; i < 4; i++ {
		turns = append(turns, r.Turn()+1)
		r = play(t, r, r.Moves()[len(r.Moves())-1].Text)
	}
	if got := fmt.Sprint(turns); got != "[3 4 1 3]" {
		t.Fatalf("turn order %s, want [3 4 1 3]", got)
	}
}

func TestLastPlayerLeftWins(t *testing.T) {
	s := load4(t, start4)
	s = play(t, s, "d2-e3", "d15-e14") // players 1 and 2 move; player 3 to move
	s = retire(t, s, 2)                // player 3 leaves: player 4 to move
	if s.Turn() != 3 {
		t.Fatalf("turn %d, want 3", s.Turn())
	}
	s = retire(t, s, 0) // player 1 leaves
	if s.Outcome().Over {
		t.Fatalf("over with two players left: %+v", s.Outcome())
	}
	s = play(t, s, "m2-l3") // player 4, then player 2 to move
	if s.Turn() != 1 {
		t.Fatalf("turn %d, want 1 (Player 2)", s.Turn())
	}
	end := retire(t, s, 3) // player 4 leaves: player 2 has won
	want := rules.Outcome{Over: true, Winner: 1, Reason: rules.OthersLeft}
	if end.Outcome() != want {
		t.Fatalf("outcome %+v, want %+v", end.Outcome(), want)
	}
	if end.Turn() != -1 || len(end.Moves()) != 0 || len(end.View().Movable) != 0 || end.Perft(1) != 0 {
		t.Fatalf("after the win: turn %d, %d moves", end.Turn(), len(end.Moves()))
	}
	_, _, err := end.Play("a16-b17")
	wantKind(t, err, rules.ErrGameOver)
	_, err = end.Retire(1)
	wantKind(t, err, rules.ErrGameOver)
	// The position alone says so too.
	again := load4(t, end.FEN())
	if again.Outcome() != want {
		t.Fatalf("%s loads with outcome %+v, want %+v", end.FEN(), again.Outcome(), want)
	}
	checkRecord(t, end, rules.Meta{Names: []string{"a", "b", "c", "d"}, Result: "seat 2"})
}

func TestRetireErrors(t *testing.T) {
	g2, _ := New(Variant{Size: 8, Players: 2})
	var s2 rules.State = g2.StartState(0)
	r, ok := s2.(rules.Retirer)
	if !ok {
		t.Fatal("a halma State is a rules.Retirer")
	}
	_, err := r.Retire(1)
	wantKind(t, err, rules.ErrNotNow) // two players: resigning ends the game
	s := load4(t, start4)
	for _, seat := range []int{-1, 4} {
		_, err := s.Retire(seat)
		wantKind(t, err, rules.ErrNotNow)
	}
}

func TestWinIntoEmptiedCamp(t *testing.T) {
	// Player 1's target is player 3's home (top-right). Player 3 never
	// left p16. While player 3 plays, o12-o13 fills the camp with player
	// 3's piece and wins; once player 3 has left, p16 is empty and
	// o12-o13 does not win: player 1 must fill the camp alone.
	//	16 . . . . . . . . . . . . 1 1 1 3
	//	15 . . . . . . . . . . . . 1 1 1 1
	//	14 . . . . . . . . . . . . . 1 1 1
	//	13 . . . . . . . . . . . . . . . 1
	//	12 . . . . . . . . . . . 1 . . 1 .
	//	11 . . . . . . . . . . . . . . . .
	//	...
	//	 1 . . . . . . . . . . . . . . . 4    (player 2 on a16)
	//	   a b c d e f g h i j k l m n o p
	const fen = "16:4:1:o16,n16,m16,p15,o15,n15,m15,p14,o14,n14,p13,o12,l12:a16:p16:p1"
	s := load4(t, fen)
	if w := play(t, s, "o12-o13"); w.Outcome() != (rules.Outcome{Over: true, Winner: 0, Reason: rules.CampFilled}) {
		t.Fatalf("with player 3's piece on p16, o12-o13: %+v, want player 1 to win", w.Outcome())
	}
	r := retire(t, s, 2)
	r = play(t, r, "o12-o13")
	if r.Outcome().Over {
		t.Fatalf("player 3 left, p16 is empty: o12-o13 won %+v", r.Outcome())
	}
	if r.Turn() != 1 {
		t.Fatalf("turn %d, want 1 (Player 2)", r.Turn())
	}
	// Player 1 fills p16 itself (here from a position with player 3 gone):
	//	16 . . . . . . . . . . . . 1 1 1 1
	//	15 . . . . . . . . . . . . 1 1 1 1
	//	14 . . . . . . . . . . . . . 1 1 1
	//	13 . . . . . . . . . . . . . . . 1
	//	12 . . . . . . . . . . . . . . 1 .
	w := play(t, load4(t, "16:4:1:p16,o16,n16,m16,p15,o15,n15,m15,p14,o14,n14,p13,o12:a16::p1"), "o12-o13")
	if w.Outcome() != (rules.Outcome{Over: true, Winner: 0, Reason: rules.CampFilled}) {
		t.Fatalf("player 1 filled the emptied camp alone: %+v, want a win", w.Outcome())
	}
	if again := load4(t, w.FEN()); again.Outcome() != w.Outcome() {
		t.Fatalf("%s loads with %+v", w.FEN(), again.Outcome())
	}
}

func TestRetiredFEN(t *testing.T) {
	for _, tt := range []struct {
		fen  string
		turn int
		won  int
	}{
		{"16:4:2:a1,b1:a16::p1,o2", 1, -1},
		{"16:4:4:a1::m13:p1", 3, -1},
		{"16:4:2::c3,d4::", 1, 1},             // only player 2 is left: it has won
		{"16:4:3: b2 ::P16:", 2, -1},          // spaces and case
		{"16:4:1:a1:b16,c16::p1", 0, -1},      // the camp of player 3 is empty
		{"8:2:2::h8", 1, -1},                  // two players: an empty seat just passes
		{"16:4:1:a1:a16:p16:p1,o1,n1", 0, -1}, // nobody has left
	} {
		p, err := ParseFEN(tt.fen)
		if err != nil {
			t.Fatalf("%s: %v", tt.fen, err)
		}
		if p.Turn() != tt.turn || p.Winner() != tt.won {
			t.Errorf("%s: turn %d, winner %d; want %d, %d", tt.fen, p.Turn(), p.Winner(), tt.turn, tt.won)
		}
		if q, err := ParseFEN(p.FEN()); err != nil || q != p {
			t.Errorf("%s prints %s, which reads back as %v, %v", tt.fen, p.FEN(), q.FEN(), err)
		}
	}
	for _, fen := range []string{
		"16:4:3:a1:a16::p1", // player 3 is to move but has left
		"16:4:1::::",        // nobody has pieces
	} {
		_, err := ParseFEN(fen)
		wantKind(t, err, rules.ErrBadPosition)
	}
}

func TestRetireRecord(t *testing.T) {
	s := load4(t, start4)
	s = play(t, s, "d2-e3", "d15-e14", "m15-l14")
	s = retire(t, s, 3) // player 4, to move, leaves in the middle of round 1
	s = play(t, s, "c2-d3", "c15-d14")
	s = retire(t, s, 2) // player 3, to move, leaves
	s = play(t, s, "e3-f4", "e14-f13", "b2-c2")
	const want = `[Game "halma"]
[Size "16"]
[Players "4"]
[LeaveHome "off"]
[First "1"]
[FEN "` + start4 + `"]
[Result "*"]

1. d2-e3 d15-e14 m15-l14
retire 4
2. c2-d3 c15-d14
retire 3
3. e3-f4 e14-f13
4. b2-c2
`
	if got := s.Record(rules.Meta{}); got != want {
		t.Fatalf("record:\n%s\nwant:\n%s", got, want)
	}
	checkRecord(t, s, rules.Meta{Names: []string{"a", "b", "c", "d"}, Result: "*"})
	back, _, err := ReadRecord(want)
	if err != nil || back.FEN() != s.FEN() || back.Turn() != 1 {
		t.Fatalf("read back: %v, %s turn %d", err, back.FEN(), back.Turn())
	}
	// The record goes on to the end when the third player leaves.
	end := retire(t, back, 0)
	if o := end.Outcome(); !o.Over || o.Winner != 1 {
		t.Fatalf("outcome %+v", o)
	}
	if text := end.Record(rules.Meta{}); !strings.HasSuffix(text, "4. b2-c2\nretire 1\n") {
		t.Fatalf("record ends:\n%s", text)
	}
	checkRecord(t, end, rules.Meta{Result: "seat 2"})
}

func TestReadRecordRetireErrors(t *testing.T) {
	four := "[Size \"16\"]\n[Players \"4\"]\n"
	for _, tt := range []struct {
		text string
		kind error
	}{
		{four + "1. d2-e3\nretire\n", rules.ErrSyntax},
		{four + "1. d2-e3\nretire x\n", rules.ErrSyntax},
		{four + "retire 5\n", rules.ErrSyntax},
		{four + "retire 0\n", rules.ErrSyntax},
		{four + "retire 2\nretire 2\n", rules.ErrNotNow},
		{four + "retire 2\nretire 3\nretire 4\n1. a4-a5\n", rules.ErrGameOver},
		{four + "retire 2\nretire 3\nretire 4\nretire 1\n", rules.ErrGameOver},
		{"[Size \"8\"]\nretire 2\n", rules.ErrNotNow},
	} {
		_, _, err := ReadRecord(tt.text)
		wantKind(t, err, tt.kind)
	}
}

func TestPerftWithRetiredSeat(t *testing.T) {
	// The crowded middle game with player 4 (bottom-right) gone: player 1
	// loses the jumps over player 4's pieces. Checked against slowPerft,
	// the independent generator; player 1, 2, 3 move in turn.
	p, err := ParseFEN(crowded)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Retire(3)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(moveTexts(r), " ") != strings.Join(slowMoves(r), " ") {
		t.Fatalf("moves %v\nslow %v", moveTexts(r), slowMoves(r))
	}
	// Nothing to jump over where player 4's piece stood:
	//	3 . . . .        3 . . . .
	//	2 . . 4 .   ->   2 . . . .
	//	1 . . 1 .        1 . . 1 .    (and player 2 on a16)
	small, err := ParseFEN("16:4:1:c1:a16::c2")
	if err != nil {
		t.Fatal(err)
	}
	gone, err := small.Retire(3)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(moveTexts(gone), " "); strings.Contains(got, "c1-c3") || !strings.Contains(strings.Join(moveTexts(small), " "), "c1-c3") {
		t.Errorf("moves with player 4 gone: %s", got)
	}
	for depth := 1; depth <= 2; depth++ {
		if got, want := r.Perft(depth), slowPerft(t, r, depth); got != want {
			t.Errorf("perft(%d) = %d, slow %d", depth, got, want)
		}
	}
	seen := map[int]bool{}
	q := r
	for i := 0; i < 6; i++ {
		seen[q.Turn()] = true
		q = q.Play(q.Moves()[0])
	}
	if seen[3] || len(seen) != 3 {
		t.Errorf("seats to move over six plies: %v, want 0, 1, 2", seen)
	}
}

// TestPlayoutsWithRetirements plays four-player games in which players
// leave at random moments and checks at every step: the seat to move
// has pieces, the others' pieces never change in number, the FEN and the
// record round-trip, and the game ends with a camp filled or one player left.
func TestPlayoutsWithRetirements(t *testing.T) {
	g, _ := New(Variant{Size: 16, Players: 4})
	ends := map[rules.Reason]int{}
	for seed := uint64(0); seed < 8; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := g.StartState(rng.IntN(4))
		for ply := 0; ply < 3000 && !s.Outcome().Over; ply++ {
			p := s.Position()
			if p.Retired(p.Turn()) || p.Pieces(p.Turn()).Empty() {
				t.Fatalf("seed %d ply %d: player %d to move has left: %s", seed, ply, p.Turn()+1, p.FEN())
			}
			if q, err := ParseFEN(p.FEN()); err != nil || q != p {
				t.Fatalf("%s does not round-trip: %v", p.FEN(), err)
			}
			if rng.IntN(400) == 0 {
				seat := rng.IntN(4)
				next, err := s.RetireSeat(seat)
				if p.Retired(seat) {
					wantKind(t, err, rules.ErrNotNow)
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				s = next
				continue
			}
			moves := p.Moves()
			m := moves[rng.IntN(len(moves))]
			if rng.IntN(10) < 8 {
				m = bestProgress(p, moves, rng)
			}
			next, _, err := s.PlayMove(m.String())
			if err != nil {
				t.Fatal(err)
			}
			for seat := 0; seat < 4; seat++ {
				if a, b := p.Pieces(seat).Count(), next.Position().Pieces(seat).Count(); a != b {
					t.Fatalf("a move changed player %d's pieces from %d to %d", seat+1, a, b)
				}
			}
			s = next
		}
		o := s.Outcome()
		ends[o.Reason]++
		if o.Over && o.Reason == rules.OthersLeft {
			p := s.Position()
			for seat := 0; seat < 4; seat++ {
				if (seat == o.Winner) == p.Retired(seat) {
					t.Fatalf("seed %d: winner %d, but player %d retired: %v", seed, o.Winner+1, seat+1, p.Retired(seat))
				}
			}
		}
		checkRecord(t, s, rules.Meta{Result: "*"})
	}
	t.Logf("ends: %v", ends)
	if ends[rules.CampFilled] == 0 || ends[rules.OthersLeft] == 0 {
		t.Errorf("ends %v: want games won both ways", ends)
	}
}
