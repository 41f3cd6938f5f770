package halma

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// playout plays a game from the start with a simple policy (most of the
// time a move that brings a piece closest to its target corner, else any
// move) and calls check before every move.
func playout(t *testing.T, v Variant, seed uint64, plies int, check func(s *State)) *State {
	t.Helper()
	g, err := New(v)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	s := g.StartState(r.IntN(v.Players))
	for i := 0; i < plies && !s.Outcome().Over; i++ {
		check(s)
		p := s.Position()
		moves := p.Moves()
		m := moves[r.IntN(len(moves))]
		if r.IntN(10) < 8 {
			m = bestProgress(p, moves, r)
		}
		next, _, err := s.PlayMove(m.String())
		if err != nil {
			t.Fatalf("ply %d: %v in %s: %v", i, m, p.FEN(), err)
		}
		s = next
	}
	return s
}

// bestProgress picks at random among the moves that gain the most distance
// towards the seat's target corner.
func bestProgress(p Position, moves []Move, r *rand.Rand) Move {
	l := p.l()
	c := l.corners[l.target[p.Turn()]]
	corner := c.square(l.size, 0, 0)
	dist := func(s Square) int {
		return abs(s.File()-corner.File()) + abs(s.Rank()-corner.Rank())
	}
	best, n := Move{}, 0
	bestGain := -1 << 30
	for _, m := range moves {
		gain := 0
		if !m.IsPass() {
			gain = dist(m.From) - dist(m.To)
		}
		switch {
		case gain > bestGain:
			best, bestGain, n = m, gain, 1
		case gain == bestGain:
			n++
			if r.IntN(n) == 0 {
				best = m
			}
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestPlayouts plays games of every configuration and checks at every
// move: piece counts never change, no piece leaves its target camp, the
// FEN round-trips, the move list equals the slow generator's (on the
// smaller boards and every few plies on 16x16), and each move's path
// plays the same move.
func TestPlayouts(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	wins := 0
	for _, v := range []Variant{{Size: 8, Players: 2}, {Size: 10, Players: 2}, {Size: 16, Players: 2}, {Size: 16, Players: 4}} {
		for seed := uint64(0); seed < uint64(games); seed++ {
			var counts [4]int
			ply := 0
			end := playout(t, v, seed, 2000, func(s *State) {
				p := s.Position()
				for seat := 0; seat < v.Players; seat++ {
					n := p.Pieces(seat).Count()
					if ply == 0 {
						counts[seat] = n
					} else if n != counts[seat] {
						t.Fatalf("%v seed %d ply %d: player %d has %d pieces, had %d", v, seed, ply, seat+1, n, counts[seat])
					}
				}
				if q, err := ParseFEN(p.FEN()); err != nil || q != p {
					t.Fatalf("%s does not round-trip: %v", p.FEN(), err)
				}
				moves := p.Moves()
				if v.Size < 16 || ply%7 == 0 {
					if fast, slow := moveTexts(p), slowMoves(p); strings.Join(fast, " ") != strings.Join(slow, " ") {
						t.Fatalf("%s:\nfast %v\nslow %v", p.FEN(), fast, slow)
					}
				}
				target := p.Target(p.Turn())
				for _, m := range moves {
					if target.Has(m.From) && !target.Has(m.To) {
						t.Fatalf("%s: %v leaves the target camp", p.FEN(), m)
					}
				}
				if ply%5 == 0 {
					for _, m := range moves {
						checkPath(t, p, m)
					}
					checkRuleMoves(t, s, moves)
				}
				ply++
			})
			t.Logf("%v seed %d: %d plies, %+v", v, seed, ply, end.Outcome())
			if o := end.Outcome(); o.Over {
				wins++
				if o.Winner < 0 || end.Position().Winner() != o.Winner {
					t.Errorf("%v seed %d: outcome %+v", v, seed, o)
				}
			}
			checkRecord(t, end, rules.Meta{Names: []string{"ann", "bob"}, Result: "*"})
		}
	}
	if wins == 0 {
		t.Error("no playout ended in a win")
	}
}

// checkPath checks the witness path of m independently: a step, or jumps
// of two squares in a line over a piece to an empty square, never landing
// twice on a square; and that its text plays m.
func checkPath(t *testing.T, p Position, m Move) {
	t.Helper()
	path := p.Path(m)
	if m.IsPass() {
		if path != nil {
			t.Fatalf("pass has path %v", path)
		}
		return
	}
	if len(path) < 2 || path[0] != m.From || path[len(path)-1] != m.To {
		t.Fatalf("%s: path %v of %v", p.FEN(), path, m)
	}
	occ := p.Occupied().Without(m.From)
	seen := map[Square]bool{m.From: true}
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		df, dr := b.File()-a.File(), b.Rank()-a.Rank()
		step := abs(df) <= 1 && abs(dr) <= 1
		if step && len(path) == 2 {
			continue
		}
		mid := SquareAt(a.File()+df/2, a.Rank()+dr/2)
		if (abs(df) != 2 && df != 0) || (abs(dr) != 2 && dr != 0) || !occ.Has(mid) || occ.Has(b) || seen[b] {
			t.Fatalf("%s: path %v of %v: %v to %v is no jump", p.FEN(), path, m, a, b)
		}
		seen[b] = true
	}
	var text []string
	for _, s := range path {
		text = append(text, s.String())
	}
	if got, err := p.ParseMove(strings.Join(text, "x")); err != nil || got != m {
		t.Fatalf("%s: path %v plays %v, %v; want %v", p.FEN(), text, got, err, m)
	}
}

// checkRecord writes s's record, reads it back and compares.
func checkRecord(t *testing.T, s *State, meta rules.Meta) {
	t.Helper()
	text := s.Record(meta)
	back, gotMeta, err := ReadRecord(text)
	if err != nil {
		t.Fatalf("record does not read back: %v\n%s", err, text)
	}
	if back.Position() != s.Position() || back.Outcome() != s.Outcome() || back.First() != s.First() {
		t.Fatalf("record reads back to %s %+v, want %s %+v", back.FEN(), back.Outcome(), s.FEN(), s.Outcome())
	}
	if back.Game() != s.Game() || len(back.History()) != len(s.History()) {
		t.Fatalf("record reads back to %v with %d moves, want %v with %d", back.Game(), len(back.History()), s.Game(), len(s.History()))
	}
	if gotMeta.Event != meta.Event || gotMeta.Result != meta.Result || strings.Join(gotMeta.Names, ",") != strings.Join(meta.Names, ",") {
		t.Fatalf("meta %+v, want %+v", gotMeta, meta)
	}
	if again := back.Record(meta); again != text {
		t.Fatalf("record changed on a round trip:\n%s\n---\n%s", text, again)
	}
}

// checkRuleMoves checks State.Moves against the typed moves: the same
// moves, sorted by text, each with the path of Position.Path.
func checkRuleMoves(t *testing.T, s *State, moves []Move) {
	t.Helper()
	p := s.Position()
	rm := s.Moves()
	if len(rm) != len(moves) {
		t.Fatalf("%s: %d moves, %d typed", p.FEN(), len(rm), len(moves))
	}
	for i, m := range rm {
		if i > 0 && rm[i-1].Text >= m.Text {
			t.Fatalf("%s: moves not sorted: %s, %s", p.FEN(), rm[i-1].Text, m.Text)
		}
		tm, err := p.ParseMove(m.Text)
		if err != nil {
			t.Fatal(err)
		}
		want := p.Path(tm)
		if len(want) != len(m.Path) || tm.From.Rules() != m.From || tm.To.Rules() != m.To || tm.IsPass() != m.Pass {
			t.Fatalf("%s: %+v, typed %v path %v", p.FEN(), m, tm, want)
		}
		for k, q := range want {
			if m.Path[k] != q.Rules() {
				t.Fatalf("%s: %+v, typed path %v", p.FEN(), m, want)
			}
		}
	}
}
