package draughts

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/rulestest"
)

// snapshots is the snapshot harness for the draughts games: random actions
// by step, huffs played as "huff SQUARE", the huffable pieces compared
// besides what every game shows.
func snapshots() rulestest.Snapshots {
	return rulestest.Snapshots{Pick: step, Apply: applyAction, Differ: huffableDiffer}
}

// huffableDiffer returns "huffable" when a and b let the player to move
// huff different pieces (or only one of them is a Huffer).
func huffableDiffer(a, b rules.State) string {
	ha, aok := a.(rules.Huffer)
	hb, bok := b.(rules.Huffer)
	if aok != bok || (aok && !reflect.DeepEqual(ha.Huffable(), hb.Huffable())) {
		return "huffable"
	}
	return ""
}

// step plays one random action on s: a huff now and then when one is
// allowed, else a random legal move, mostly cautious (one after which
// nothing can be captured, so that games with kings last until the
// automatic draws). It returns the action's text ("" when the game is
// over).
func step(rng *rand.Rand, s rules.State) string {
	if h, ok := s.(rules.Huffer); ok {
		if hs := h.Huffable(); len(hs) > 0 && rng.IntN(2) == 0 {
			return "huff " + hs[rng.IntN(len(hs))].String()
		}
	}
	if s.Outcome().Over {
		return ""
	}
	return rulestest.CautiousMove(rng, s)
}

// applyAction plays a step: "huff SQUARE" or a move.
func applyAction(s rules.State, action string) (rules.State, error) {
	if sq, ok := strings.CutPrefix(action, "huff "); ok {
		return s.(rules.Huffer).Huff(sq)
	}
	n, _, err := s.Play(action)
	return n, err
}

// endings are start positions with kings (numeric squares, so that they
// suit every variant).
var endings = []string{
	"W:WK1:BK32",
	"W:WK1,K2,K3:BK30",
	"B:WK4:BK29,K30,K31",
	"W:WK1,K2:BK32",
}

func snapshotGames(t testing.TB) []rules.Game {
	var out []rules.Game
	for _, v := range snapshotVariants {
		out = append(out, Def{v})
	}
	return out
}

// TestSnapshotRandomGames: over many seeded random games of each variant,
// a state restored from its snapshot at a random ply looks the same and
// stays the same for the rest of the game; in a few games, at every ply.
// Some of the continuations end by the automatic draws, so the counters
// behind them are carried by the snapshot.
func TestSnapshotRandomGames(t *testing.T) {
	snaps := snapshots()
	games := 200
	if testing.Short() {
		games = 40
	}
	for _, g := range snapshotGames(t) {
		v := g.(Def).V
		name := fmt.Sprintf("%s huff=%v flying=%v", v.ID, v.Huff, v.Flying)
		t.Run(name, func(t *testing.T) {
			draws := map[any]int{}
			for seed := range uint64(games) {
				rng := rand.New(rand.NewPCG(seed, 17))
				every := seed < 3
				at := rng.IntN(120)
				s := g.Start(0)
				if seed%2 == 1 {
					// an ending, where the draws come sooner
					var err error
					if s, err = g.Load(endings[seed/2%uint64(len(endings))]); err != nil {
						t.Fatal(err)
					}
					at = rng.IntN(30)
				}
				a := snaps.PlayRandom(t, rulestest.RandomGame{
					Seed: seed, Start: s, Rand: rng, Plies: math.MaxInt, At: at, Every: every,
					OnRand: rand.New(rand.NewPCG(seed, 18)), On: 400,
				})
				if a == nil {
					continue
				}
				if out := a.Outcome(); out.Over && out.Winner == -1 {
					draws[out.Reason]++
				}
			}
			t.Logf("draws after a restore: %v", draws)
			if v.Draws == SpanishDraws && len(draws) < 2 {
				t.Errorf("random continuations reached the draws %v: want at least two kinds", draws)
			}
		})
	}
}

// TestSnapshotCarriesDrawCounters: a restored state ends by each automatic
// draw exactly when the state it was saved from does, where the position
// alone (Load of its FEN) plays on.
func TestSnapshotCarriesDrawCounters(t *testing.T) {
	snaps := snapshots()
	for _, c := range []struct {
		name string
		fen  string
		// moves to play before the snapshot; then one more ply (the
		// first legal move) draws.
		before []string
		set    func(g *Game)
		last   string // the ply that draws; "" for the first legal move
	}{
		// Two lone kings shuffle: after seven plies the position before
		// the eighth has occurred twice; the eighth makes the third.
		{"threefold repetition", "W:WKd1:BKd7",
			[]string{"d1-e2", "d7-c6", "e2-d1", "c6-d7", "d1-e2", "d7-c6", "e2-d1"}, nil, "c6-d7"},
		{"40 king moves", "W:WKd1,Kb1:BKd7,Kb7", nil, func(g *Game) { g.kingRun = 39 }, ""},
		{"three kings against one", "W:WKh1,Kf1,Kd1:BKa8", nil, func(g *Game) {
			g.counting, g.strongSide, g.strongMoves = true, White, 12
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := Def{Spanish}
			g := NewGame(Spanish, mustFEN(t, Spanish, c.fen))
			if c.set != nil {
				c.set(&g)
			}
			s := StateOf(g)
			for _, m := range c.before {
				s = snaps.Act(t, s, m)
			}
			r := snaps.RoundTrip(t, "before the draw", s)
			fresh, err := d.Load(s.FEN())
			if err != nil {
				t.Fatal(err)
			}
			m := c.last
			if m == "" {
				m = s.Moves()[0].Text
			}
			s, r, fresh = snaps.Act(t, s, m), snaps.Act(t, r, m), snaps.Act(t, fresh, m)
			if !s.Outcome().Over || r.Outcome() != s.Outcome() {
				t.Errorf("after %s: restored %+v, saved %+v; want the same draw", m, r.Outcome(), s.Outcome())
			}
			if fresh.Outcome().Over {
				t.Errorf("the position alone ended the game (%+v): the test proves nothing", fresh.Outcome())
			}
		})
	}
}

// TestSnapshotSizeBounded: kings shuffling for hundreds of moves in a game
// without the repetition rule (dame) keep a snapshot of constant size; in
// Spanish draughts the 40-move rule bounds it.
func TestSnapshotSizeBounded(t *testing.T) {
	snaps := snapshots()
	for _, c := range []struct {
		v   Variant
		max int
	}{{Dame, 32}, {DameShort, 32}, {Damas, 32}, {Spanish, 32 + 3*40}} {
		s, err := Def{c.v}.Load("W:WK1,K2:BK31,K32")
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(2, 2))
		most := 0
		for i := 0; i < 300; i++ {
			a := step(rng, s)
			if a == "" {
				break
			}
			s = snaps.Act(t, s, a)
			most = max(most, len(s.(rules.Saver).Save()))
		}
		if most > c.max {
			t.Errorf("%s: a snapshot of %d bytes, want at most %d", c.v.Name(), most, c.max)
		}
	}
}

// TestValidPosition: a snapshot's position is valid exactly when ParseFEN
// accepts it, over random bitboards.
func TestValidPosition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 20000; i++ {
		white, black := rng.Uint32()&rng.Uint32(), rng.Uint32()&rng.Uint32()
		if i%2 == 0 {
			white &^= black
		}
		p := Position{White: white, Black: black, Kings: (white | black) & rng.Uint32(), ToMove: Color(rng.IntN(2))}
		q, err := Spanish.ParseFEN(Spanish.FEN(p))
		if want := err == nil && q == p; Spanish.validPosition(p) != want {
			t.Fatalf("%s: validPosition %v, ParseFEN %v", Spanish.FEN(p), !want, err)
		}
	}
}

// TestRestoreRejects: damaged and foreign snapshots are ErrBadSnapshot.
func TestRestoreRejects(t *testing.T) {
	good := Def{Spanish}.Start(0).(rules.Saver).Save()
	for name, b := range map[string][]byte{
		"empty":         nil,
		"version 2":     append([]byte{2}, good[1:]...),
		"other variant": Def{Dame}.Start(0).(rules.Saver).Save(),
		"truncated":     good[:len(good)-1],
		"trailing":      append(slices.Clone(good), 0),
		"both sides on a square": func() []byte {
			b := slices.Clone(good)
			b[6] = 1 // Black on square 0, where White stands
			return b
		}(),
	} {
		_, err := Def{Spanish}.Restore(b)
		if !errors.Is(err, rules.ErrBadSnapshot) {
			t.Errorf("%s: %v, want ErrBadSnapshot", name, err)
		}
		checkError(t, name, err)
	}
}

// FuzzRestore: no panic on any bytes; either an ErrBadSnapshot error or
// a state whose snapshot restores to the same snapshot and state. Seeds
// in testdata/fuzz/FuzzRestore.
func FuzzRestore(f *testing.F) {
	snaps := snapshots()
	for i, g := range snapshotGames(f) {
		s := g.Start(0)
		rng := rand.New(rand.NewPCG(uint64(i), 5))
		for ply := 0; ply < 60; ply++ {
			if ply%20 == 0 {
				f.Add(uint8(i), s.(rules.Saver).Save())
			}
			act := step(rng, s)
			if act == "" {
				break
			}
			s = snaps.Act(f, s, act)
		}
	}
	f.Fuzz(func(t *testing.T, vi uint8, b []byte) {
		g := Def{snapshotVariants[int(vi)%len(snapshotVariants)]}
		s, err := g.Restore(b)
		if err != nil {
			if !errors.Is(err, rules.ErrBadSnapshot) {
				t.Fatalf("%x: %v is not ErrBadSnapshot", b, err)
			}
			checkError(t, "restore", err)
			return
		}
		r := snaps.RoundTrip(t, "fuzz", s)
		snaps.PlayOn(t, "fuzz", rand.New(rand.NewPCG(1, 2)), s, r, 20)
	})
}

// BenchmarkSnapshot measures Save and Restore of a middle-game state and
// reports the snapshot's size.
//
//	go test -run '^$' -bench Snapshot -benchtime 20000x ./rules/draughts
func BenchmarkSnapshot(b *testing.B) {
	snaps := snapshots()
	for _, g := range snapshotGames(b) {
		v := g.(Def).V
		s := g.Start(0)
		rng := rand.New(rand.NewPCG(3, 3))
		for ply := 0; ply < 30; ply++ {
			act := step(rng, s)
			if act == "" {
				break
			}
			s = snaps.Act(b, s, act)
		}
		name := fmt.Sprintf("%s-huff=%v-flying=%v", v.ID, v.Huff, v.Flying)
		snap := s.(rules.Saver).Save()
		b.Run("Save/"+name, func(b *testing.B) {
			for b.Loop() {
				snap = s.(rules.Saver).Save()
			}
			b.ReportMetric(float64(len(snap)), "bytes")
		})
		b.Run("Restore/"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := g.(rules.Restorer).Restore(snap); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRestoredRecord: the record of a restored state starts at the
// snapshot's position and reads back to the same position after the moves
// played since.
func TestRestoredRecord(t *testing.T) {
	snaps := snapshots()
	for _, g := range snapshotGames(t) {
		rng := rand.New(rand.NewPCG(4, 4))
		s := g.Start(0)
		for i := 0; i < 20; i++ {
			s = snaps.Act(t, s, step(rng, s))
		}
		r := snaps.RoundTrip(t, "ply 20", s)
		for i := 0; i < 10; i++ {
			if a := step(rng, r); a != "" {
				r = snaps.Act(t, r, a)
			}
		}
		back, _, err := ParsePDN(r.(rules.Recorder).Record(rules.Meta{}))
		if err != nil || StateOf(back).FEN() != r.FEN() {
			t.Errorf("%s: the record of a restored state reads back as %v, %v; want %s", g.Name(), StateOf(back).FEN(), err, r.FEN())
		}
	}
}

// TestRestoredHuff: a snapshot taken between a huff and the huffer's move
// restores a state that plays on the same, and whose record (the huff,
// then the move) reads back.
func TestRestoredHuff(t *testing.T) {
	snaps := snapshots()
	found := 0
	for seed := uint64(0); seed < 40 && found < 5; seed++ {
		rng := rand.New(rand.NewPCG(seed, 8))
		s := Def{DamasHuff}.Start(0)
		for i := 0; i < 200 && !s.Outcome().Over; i++ {
			hs := s.(rules.Huffer).Huffable()
			if len(hs) == 0 {
				if a := step(rng, s); a != "" && a[0] != 'h' {
					s = snaps.Act(t, s, a)
				}
				continue
			}
			h, err := s.(rules.Huffer).Huff(hs[0].String())
			if err != nil {
				t.Fatal(err)
			}
			if h.Outcome().Over {
				break
			}
			r := snaps.RoundTrip(t, "after a huff", h)
			a, r := snaps.PlayOn(t, "after a huff", rand.New(rand.NewPCG(seed, 9)), h, r, 6)
			back, _, err := ParsePDN(r.(rules.Recorder).Record(rules.Meta{}))
			if err != nil || StateOf(back).FEN() != a.FEN() {
				t.Fatalf("seed %d: the record reads back as %v, %v; want %s", seed, StateOf(back).FEN(), err, a.FEN())
			}
			found++
			break
		}
	}
	if found == 0 {
		t.Fatal("no huff in the random games")
	}
}
