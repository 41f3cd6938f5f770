package ultradamas

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

func TestFormationPhase(t *testing.T) {
	st := Game{}.Start(0)
	f := st.(rules.Former)
	if st.Turn() != -1 || !slices.Equal(f.Pending(), []int{0, 1}) || len(st.Moves()) != 0 {
		t.Fatalf("start: turn %d, pending %v, %d moves; want -1, [0 1], none", st.Turn(), f.Pending(), len(st.Moves()))
	}
	if _, _, err := st.Play("c3-d4"); !errors.Is(err, rules.ErrNotNow) || !strings.Contains(err.Error(), "Red and Black must choose a formation") {
		t.Errorf("move before the formations: %v", err)
	}
	bad := []struct {
		seat    int
		squares string
		kind    error
		msg     string
	}{
		{1, "a6 b6 c6 d6 e6 f6 g6 h6 a7 b7 c7", rules.ErrBadPosition, "a formation has 12 squares, not 11"},
		{1, "a6 b6 c6 d6 e6 f6 g6 h6 a7 b7 c7 d7 e7", rules.ErrBadPosition, "a formation has 12 squares, not 13"},
		{1, "a6 b6 c6 d6 e6 f6 g6 h6 a7 b7 c7 a6", rules.ErrBadPosition, "a6 is given twice"},
		{1, "a5 b6 c6 d6 e6 f6 g6 h6 a7 b7 c7 d7", rules.ErrBadPosition, "a5 is not on Black's first three ranks (6-8)"},
		{0, "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d6", rules.ErrBadPosition, "d6 is not on Red's first three ranks (1-3)"},
		{0, "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 z9", rules.ErrSyntax, `"z9" is not a square`},
		{0, "", rules.ErrSyntax, "a formation is 12 squares"},
		{2, "default", rules.ErrBadOption, "no seat 2"},
	}
	for _, c := range bad {
		if _, err := f.Form(c.seat, c.squares); !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Form(%d, %q) = %v; want %v with %q", c.seat, c.squares, err, c.kind, c.msg)
		}
	}
	st1, err := f.Form(1, "a8 b8 c8 d8 e8 f8 g8 h8 a7, b7, c7, d7")
	if err != nil {
		t.Fatal(err)
	}
	if st1.Turn() != -1 || !slices.Equal(st1.(rules.Former).Pending(), []int{0}) {
		t.Errorf("after Black's formation: turn %d, pending %v", st1.Turn(), st1.(rules.Former).Pending())
	}
	if _, err := st1.(rules.Former).Form(1, "default"); !errors.Is(err, rules.ErrNotNow) {
		t.Errorf("second formation for Black: %v, want ErrNotNow", err)
	}
	st2, err := st1.(rules.Former).Form(0, "default")
	if err != nil {
		t.Fatal(err)
	}
	wantFEN := "R:Ra1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Ba7,b7,c7,d7,a8,b8,c8,d8,e8,f8,g8,h8"
	if st2.Turn() != 0 || st2.FEN() != wantFEN || len(st2.(rules.Former).Pending()) != 0 {
		t.Errorf("both formed: turn %d, FEN %s; want 0, %s", st2.Turn(), st2.FEN(), wantFEN)
	}
	if _, err := st2.(rules.Former).Form(0, "default"); !errors.Is(err, rules.ErrNotNow) {
		t.Errorf("formation after the start: %v, want ErrNotNow", err)
	}
	if st.FEN() != Start().FEN() || st.Turn() != -1 {
		t.Errorf("Form changed its receiver")
	}
	rec := st2.(rules.Recorder).Record(rules.Meta{})
	if !strings.Contains(rec, `[BlackFormation "a7 b7 c7 d7 a8 b8 c8 d8 e8 f8 g8 h8"]`) {
		t.Errorf("record lacks Black's formation:\n%s", rec)
	}
}

func TestView(t *testing.T) {
	st, err := Game{}.Load("R:Re5,f6,a1,5d4+2:Be6,f7,6h1")
	if err != nil {
		t.Fatal(err)
	}
	v := st.View()
	if v.Size != 8 || v.Playable != nil || v.Turn != 0 {
		t.Errorf("view: size %d, playable %v, turn %d", v.Size, v.Playable, v.Turn)
	}
	want := map[string]rules.Piece{}
	for _, p := range []rules.Piece{
		{Square: sq("e5"), Seat: 0, Level: 1}, {Square: sq("f6"), Seat: 0, Level: 1},
		{Square: sq("a1"), Seat: 0, Level: 1}, {Square: sq("d4"), Seat: 0, Level: 5, Carries: 2},
		{Square: sq("e6"), Seat: 1, Level: 1}, {Square: sq("f7"), Seat: 1, Level: 1},
		{Square: sq("h1"), Seat: 1, Level: 6},
	} {
		want[p.Square.String()] = p
	}
	if len(v.Pieces) != len(want) {
		t.Errorf("%d pieces, want %d", len(v.Pieces), len(want))
	}
	for _, p := range v.Pieces {
		if want[p.Square.String()] != p {
			t.Errorf("piece %+v, want %+v", p, want[p.Square.String()])
		}
	}
	// Only the men that must capture are movable (not a1, not the carrier).
	if got := squareNames(v.Movable); got != "e5 f6" {
		t.Errorf("movable %q, want \"e5 f6\"", got)
	}
}

func sq(s string) rules.Square {
	q, _ := parseSquare(s)
	return q.Rules()
}

func squareNames(list []rules.Square) string {
	var out []string
	for _, s := range list {
		out = append(out, s.String())
	}
	return strings.Join(out, " ")
}

func TestOutcome(t *testing.T) {
	play := func(fen string, moves ...string) rules.State {
		t.Helper()
		st, err := Game{}.Load(fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range moves {
			if st, _, err = st.Play(m); err != nil {
				t.Fatalf("%s: %v", m, err)
			}
		}
		return st
	}
	// Kings away from the ranks that would promote them.
	shuffle := []string{"b4-b5", "g5-g4", "b5-b4", "g4-g5"}
	twice := append(slices.Clone(shuffle), shuffle...)
	if o := play("R:R2b4:B2g5", twice[:7]...).Outcome(); o.Over {
		t.Errorf("after 7 plies: %+v, want not over", o)
	}
	st := play("R:R2b4:B2g5", twice...)
	if o := st.Outcome(); !o.Over || o.Winner != -1 || o.Reason != rules.Repetition || st.Turn() != -1 {
		t.Errorf("third repetition: %+v, turn %d", o, st.Turn())
	}
	if _, _, err := st.Play("a1-a2"); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("move after the end: %v", err)
	}
	if o := play("R:R2a1:B2h8:n78", "a1-a2").Outcome(); o.Over {
		t.Errorf("79 plies: %+v, want not over", o)
	}
	if o := play("R:R2a1:B2h8:n79", "a1-a2").Outcome(); !o.Over || o.Winner != -1 || (o.Reason != rules.QuietPlies || o.N != 80) {
		t.Errorf("80 plies: %+v", o)
	}
	if o := play("R:R2a1,b7:B2h8:n79", "b7-b8").Outcome(); o.Over {
		t.Errorf("a promotion on ply 80 resets the count: %+v", o)
	}
	if o := play("B:Ra1:Bh1").Outcome(); !o.Over || o.Winner != 0 || o.Reason != rules.NoMove {
		t.Errorf("no move: %+v", o)
	}
	if o := play("R:R6d4:Be5,f6", "d4xe5;e5xf6").Outcome(); !o.Over || o.Winner != 0 || o.Reason != rules.NoPieces {
		t.Errorf("no pieces: %+v", o)
	}
}

// randomGame plays n random moves from the formations (or fewer if the
// game ends) and returns the state.
func randomGame(t *testing.T, r *rand.Rand, st *State, n int) *State {
	t.Helper()
	for i := 0; i < n && !st.Outcome().Over; i++ {
		ms := st.pos.Moves(nil)
		st = st.PlayMove(ms[r.IntN(len(ms))])
	}
	return st
}

func randomFormation(r *rand.Rand, side Side) uint64 {
	var set uint64
	for n := 0; n < 12; {
		s := Square(r.IntN(24))
		if side == Black {
			s += 40
		}
		if set&bit(s) == 0 {
			set |= bit(s)
			n++
		}
	}
	return set
}

func TestRecordRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	meta := rules.Meta{Event: "test", Date: "2026.11.21", Names: []string{"ann", "bob"}, Result: "*"}
	for i := 0; i < 20; i++ {
		var st *State
		if i%4 == 3 {
			s, err := Game{}.Load(perftPositions[i%len(perftPositions)])
			if err != nil {
				t.Fatal(err)
			}
			st = s.(*State)
		} else {
			st = FromRecord(NewRecord(randomFormation(r, Red), randomFormation(r, Black)))
		}
		st = randomGame(t, r, st, 40+r.IntN(200))
		text := st.Record(meta)
		rec, gotMeta, err := ParseRecord(text)
		if err != nil {
			t.Fatalf("ParseRecord: %v\n%s", err, text)
		}
		orig := st.GameRecord()
		if rec.Start != orig.Start || rec.Formation != orig.Formation || !slices.Equal(rec.Moves, orig.Moves) {
			t.Fatalf("record changed in the round trip:\n%s", text)
		}
		if gotMeta.Event != meta.Event || gotMeta.Date != meta.Date || !slices.Equal(gotMeta.Names, meta.Names) {
			t.Errorf("meta %+v, want %+v", gotMeta, meta)
		}
		if again := FromRecord(rec).Record(meta); again != text {
			t.Fatalf("text changed in the round trip:\n%s\n---\n%s", text, again)
		}
		if FromRecord(rec).Outcome() != st.Outcome() {
			t.Errorf("outcome %+v after import, %+v before", FromRecord(rec).Outcome(), st.Outcome())
		}
	}
	if _, _, err := ParseRecord("[RedFormation \"default\"]\n[BlackFormation \"default\"]\n1. c3-c5"); !errors.Is(err, rules.ErrIllegal) || !strings.Contains(err.Error(), "move 1") {
		t.Errorf("bad move in a record: %v", err)
	}
}

// TestRandomPlayouts plays random games to their end and checks that
// levels never go down, material never grows, every position is valid
// and every game ends.
func TestRandomPlayouts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	games := 300
	if testing.Short() {
		games = 30
	}
	ends := map[rules.Reason]int{}
	kinds := map[Kind]int{}
	for g := 0; g < games; g++ {
		var st *State
		switch g % 3 {
		case 0:
			st = FromRecord(NewRecord(DefaultFormation[Red], DefaultFormation[Black]))
		case 1:
			st = FromRecord(NewRecord(randomFormation(r, Red), randomFormation(r, Black)))
		default:
			st = FromRecord(Record{Start: randomPosition(r)})
		}
		for ply := 0; !st.Outcome().Over; ply++ {
			if ply > 20000 {
				t.Fatalf("game %d does not end: %s", g, st.FEN())
			}
			p := st.pos
			ms := p.Moves(nil)
			m := ms[r.IntN(len(ms))]
			st = st.PlayMove(m)
			q := st.pos
			if err := q.Valid(); err != nil {
				t.Fatalf("%s, %s: %v", p, p.Text(m), err)
			}
			me, them := p.turn, p.turn^1
			if q.Pieces(me) != p.Pieces(me) || q.Pieces(them) > p.Pieces(them) {
				t.Fatalf("%s, %s: pieces %d,%d -> %d,%d", p, p.Text(m), p.Pieces(me), p.Pieces(them), q.Pieces(me), q.Pieces(them))
			}
			if weight(q, me) < weight(p, me) || weight(q, them) > weight(p, them) {
				t.Fatalf("%s, %s: a level went down (%s)", p, p.Text(m), q)
			}
			if (m.Captured != 0) != (q.Pieces(them) < p.Pieces(them)) {
				t.Fatalf("%s, %s: captured %x but pieces %d -> %d", p, p.Text(m), m.Captured, p.Pieces(them), q.Pieces(them))
			}
		}
		ends[st.Outcome().Reason]++
		for _, m := range st.rec.Moves {
			kinds[m.First.Kind]++
			if m.Second.Kind != NoAction {
				kinds[7]++
			}
		}
	}
	t.Logf("endings: %v; moves by kind (1 shift, 2 jump, 3 consume, 4 load, 5 drop, 7 two actions): %v", ends, kinds)
}

// weight is the sum of a side's levels, a double ultra king counting as
// the two ultra kings it is made of and a carried piece with its level.
// A side's own move never lowers it (pieces only climb); the opponent's
// move never raises it.
func weight(p Position, s Side) int {
	w := 0
	for b := p.occ[s]; b != 0; b &= b - 1 {
		_, level, carried, _ := p.Piece(first(b))
		if level == DoubleUltra {
			level = 2 * UltraKing
		}
		w += level + carried
	}
	return w
}

// randomPosition places up to 8 pieces a side of random levels, some
// ultra kings loaded.
func randomPosition(r *rand.Rand) Position {
	for {
		if p := randomPlacement(r); p.Valid() == nil {
			return p
		}
	}
}

func randomPlacement(r *rand.Rand) Position {
	var p Position
	for _, side := range []Side{Red, Black} {
		for n := 1 + r.IntN(8); n > 0; n-- {
			s := Square(r.IntN(64))
			if _, _, _, ok := p.Piece(s); ok {
				continue
			}
			level, carried := 1+r.IntN(6), 0
			if level >= UltraKing && r.IntN(3) == 0 {
				carried = 1 + r.IntN(4)
			}
			p.put(s, side, level, carried)
		}
	}
	p.turn = Side(r.IntN(2))
	return p
}

func TestCount(t *testing.T) {
	p := mustFEN(t, "R:Ra1,b2,3c3,5d4+2,6h1:Bf6,2g7,6e5")
	got := []int{p.Count(Red, 1), p.Count(Red, 3), p.Count(Red, 5), p.Count(Red, 6), p.Carried(Red), p.Pieces(Red), p.Count(Black, 2), p.Pieces(Black)}
	want := []int{2, 1, 1, 1, 1, 7, 1, 4}
	if !slices.Equal(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
}
