package draughts

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// mirror swaps the colours and turns the board half a turn: the same game
// seen from the other side.
func mirror(p Position) Position {
	return Position{White: rotate(p.Black), Black: rotate(p.White), Kings: rotate(p.Kings), ToMove: p.ToMove.Other()}
}

// checkPosition checks what must hold in every position reached in play.
func checkPosition(t *testing.T, v Variant, p Position) {
	t.Helper()
	if p.White&p.Black != 0 || p.Kings&^(p.White|p.Black) != 0 ||
		p.White&^p.Kings&topRank != 0 || p.Black&^p.Kings&lowRank != 0 ||
		bits.OnesCount32(p.White) > 12 || bits.OnesCount32(p.Black) > 12 {
		t.Fatalf("impossible position %s", v.FEN(p))
	}
	ms := v.Moves(p)
	if n := v.Perft(p, 1); n != uint64(len(ms)) {
		t.Fatalf("%s: perft(1) %d but %d moves", v.FEN(p), n, len(ms))
	}
	var sum uint64
	for _, m := range ms {
		sum += v.Perft(v.Apply(p, m), 1)
	}
	if n := v.Perft(p, 2); n != sum {
		t.Fatalf("%s: perft(2) %d but the replies add up to %d", v.FEN(p), n, sum)
	}
	if n := len(v.Moves(mirror(p))); n != len(ms) {
		t.Fatalf("%s: %d moves but %d in the mirrored position", v.FEN(p), len(ms), n)
	}
	them := p.Pieces(p.ToMove.Other())
	capture := false
	for i, m := range ms {
		capture = capture || m.Captured != 0
		if p.Pieces(p.ToMove)&(1<<m.From) == 0 || m.Captured&^them != 0 || m.N == 0 || m.Path[m.N-1] != m.To {
			t.Fatalf("%s: bad move %+v", v.FEN(p), m)
		}
		for _, o := range ms[:i] {
			if Same(o, m) {
				t.Fatalf("%s: %s listed twice", v.FEN(p), v.MoveText(m))
			}
		}
		if !v.Huff && ms[0].Count() != m.Count() {
			t.Fatalf("%s: captures of different sizes %s, %s", v.FEN(p), v.MoveText(ms[0]), v.MoveText(m))
		}
		if back, err := v.ParseMove(p, v.MoveText(m)); err != nil || !Same(back, m) {
			t.Fatalf("%s: %s does not parse back: %v", v.FEN(p), v.MoveText(m), err)
		}
	}
	if capture && !v.Huff && ms[len(ms)-1].Captured == 0 {
		t.Fatalf("%s: plain moves beside captures", v.FEN(p))
	}
	if q, err := v.ParseFEN(v.FEN(p)); err != nil || q != p {
		t.Fatalf("%s does not round-trip", v.FEN(p))
	}
}

func TestRandomPlayouts(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 20
	}
	reasons := map[rules.Reason]bool{rules.NoPieces: true, rules.NoMove: true, rules.Repetition: true,
		rules.KingMoves: true, rules.ThreeKings: true, rules.FewKings: true}
	for vi, v := range fuzzVariants {
		ended := map[rules.Reason]int{}
		for n := 0; n < games; n++ {
			rng := rand.New(rand.NewPCG(uint64(vi), uint64(n)))
			g := NewGame(v, Initial)
			for ply := 0; ply < 3000 && !g.Outcome().Over; ply++ {
				p := g.Position()
				checkPosition(t, v, p)
				if h := g.Huffable(); h != 0 && (rng.IntN(2) == 0 || len(g.Moves()) == 0) {
					f := Square(bits.TrailingZeros32(h))
					var err error
					if g, err = g.Huff(f); err != nil {
						t.Fatal(err)
					}
					if g.Position().Pieces(p.ToMove.Other()) != p.Pieces(p.ToMove.Other())&^(1<<f) {
						t.Fatalf("huff of %s did not remove just that piece", v.Rules(f))
					}
					continue
				}
				ms := g.Moves()
				m := ms[rng.IntN(len(ms))]
				next, err := g.Play(m)
				if err != nil {
					t.Fatalf("%s: %s: %v", v.FEN(p), v.MoveText(m), err)
				}
				if g.Position() != p {
					t.Fatalf("Play changed its receiver")
				}
				q := next.Position()
				for _, c := range []Color{White, Black} {
					if bits.OnesCount32(q.Pieces(c)) > bits.OnesCount32(p.Pieces(c)) || q.Pieces(c)&p.Kings&^q.Kings&^(1<<m.From) != 0 {
						t.Fatalf("%s after %s: material grew or a king was lost", v.FEN(p), v.MoveText(m))
					}
				}
				if bits.OnesCount32(q.Pieces(p.ToMove.Other())) != bits.OnesCount32(p.Pieces(p.ToMove.Other()))-m.Count() {
					t.Fatalf("%s after %s: wrong number of pieces captured", v.FEN(p), v.MoveText(m))
				}
				g = next
			}
			out := g.Outcome()
			if !out.Over || !reasons[out.Reason] {
				t.Fatalf("%s game %d did not end by the rules: %+v after %d plies\n%s", v.ID, n, out, len(g.plies), v.FEN(g.Position()))
			}
			ended[out.Reason]++
		}
		t.Logf("%s %+v: %v", v.ID, v.Options(), ended)
	}
}
