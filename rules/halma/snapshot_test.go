package halma

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/rulestest"
)

// snapshotGames are the variants the snapshot tests play.
var snapshotVariants = []Variant{
	{Size: 8, Players: 2, LeaveHome: 30},
	{Size: 10, Players: 2, LeaveHome: 50},
	{Size: 16, Players: 2},
	{Size: 16, Players: 2, LeaveHome: 12},
	{Size: 16, Players: 4},
}

// randomAction is a random move of s, mostly forward (towards the
// target camp, so that games end), or now and then in the four-player
// game a retirement ("retire N"); "" when the game is over.
func randomAction(rng *rand.Rand, s rules.State) string {
	if s.Outcome().Over {
		return ""
	}
	st := s.(*State)
	if st.game.v.Players == 4 && rng.IntN(80) == 0 {
		return fmt.Sprintf("retire %d", s.Turn())
	}
	ms := s.Moves()
	if rng.IntN(3) > 0 {
		seat := s.Turn()
		target := st.pos.Target(seat).Squares()[0]
		best, bestGain := ms[0].Text, -1000
		for _, i := range rng.Perm(len(ms)) {
			m := ms[i]
			if m.Pass {
				continue
			}
			gain := dist(m.From, target) - dist(m.To, target)
			if gain > bestGain {
				best, bestGain = m.Text, gain
			}
		}
		return best
	}
	return ms[rng.IntN(len(ms))].Text
}

func dist(a rules.Square, b Square) int {
	return abs(int(a.File)-b.File()) + abs(int(a.Rank)-b.Rank())
}

// snapshots is the snapshot harness for Halma: random actions by
// randomAction, retirements played as "retire SEAT".
func snapshots() rulestest.Snapshots {
	return rulestest.Snapshots{Pick: randomAction, Apply: applyAction}
}

// applyAction plays a random action: "retire SEAT" or a move.
func applyAction(s rules.State, a string) (rules.State, error) {
	var seat int
	if _, e := fmt.Sscanf(a, "retire %d", &seat); e == nil {
		return s.(rules.Retirer).Retire(seat)
	}
	n, _, err := s.Play(a)
	return n, err
}

// TestSnapshotRandomGames: over seeded random games of each variant, a
// state restored from its snapshot looks the same and plays on the same
// to the end (or 300 plies): camps filled, leave-home losses (the move
// counts are carried), players who left (four players); in a few games
// at every ply.
func TestSnapshotRandomGames(t *testing.T) {
	snaps := snapshots()
	games := 30
	if testing.Short() {
		games = 8
	}
	for _, v := range snapshotVariants {
		g, err := New(v)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("%dx%d players=%d leavehome=%d", v.Size, v.Size, v.Players, v.LeaveHome), func(t *testing.T) {
			ends := map[any]int{}
			for seed := range uint64(games) {
				rng := rand.New(rand.NewPCG(seed, 17))
				every := seed == 0
				at := rng.IntN(150)
				a := snaps.PlayRandom(t, rulestest.RandomGame{
					Seed: seed, Start: g.Start(int(seed)), Rand: rng, Plies: 600, At: at, Every: every,
					OnRand: rand.New(rand.NewPCG(seed, 18)), On: 300,
				})
				if a != nil {
					ends[a.Outcome().Reason]++
				}
			}
			t.Logf("outcomes after a restore: %v", ends)
			if ends[rules.Outcome{}.Reason] == games {
				t.Errorf("no game ended after a restore (%v)", ends)
			}
		})
	}
}

// TestSnapshotLeaveHome: the restored state loses by the leave-home rule
// at the same move as the saved one, where the position alone does not.
func TestSnapshotLeaveHome(t *testing.T) {
	snaps := snapshots()
	g, err := New(Variant{Size: 8, Players: 2, LeaveHome: 30})
	if err != nil {
		t.Fatal(err)
	}
	s := rules.State(g.StartState(0))
	home := g.v.Home(0)
	// seat 0 moves the pieces it has moved out already when it can, so
	// some stay at home; seat 1 plays the first move
	for s.(*State).turns[0] < 29 || s.Turn() != 0 {
		ms := s.Moves()
		x := ms[0].Text
		if s.Turn() == 0 {
			for _, m := range ms {
				if !home.Has(SquareOf(m.From)) && !m.Pass {
					x = m.Text
					break
				}
			}
		}
		s = snaps.Act(t, s, x)
	}
	r := snaps.RoundTrip(t, "move 30", s)
	fresh, err := g.Load(s.FEN())
	if err != nil {
		t.Fatal(err)
	}
	m := s.Moves()[0].Text
	s, r, fresh = snaps.Act(t, s, m), snaps.Act(t, r, m), snaps.Act(t, fresh, m)
	if !s.Outcome().Over || r.Outcome() != s.Outcome() {
		t.Fatalf("restored %+v, saved %+v: want the same leave-home loss", r.Outcome(), s.Outcome())
	}
	if fresh.Outcome().Over {
		t.Fatalf("the position alone lost (%+v): the test proves nothing", fresh.Outcome())
	}
}

// TestRestoreRejects: damaged and foreign snapshots are ErrBadSnapshot.
func TestRestoreRejects(t *testing.T) {
	g16, _ := New(Variant{Size: 16, Players: 2})
	g8, _ := New(Variant{Size: 8, Players: 2, LeaveHome: 30})
	good := g16.StartState(0).Save()
	for name, b := range map[string][]byte{
		"empty":         nil,
		"version 9":     append([]byte{9}, good[1:]...),
		"other variant": g8.StartState(0).Save(),
		"truncated":     good[:len(good)-1],
		"trailing":      append(slices.Clone(good), 0),
		"a square twice": func() []byte {
			b := slices.Clone(good)
			b[len(b)-1] = b[len(b)-2]
			return b
		}(),
	} {
		_, err := g16.Restore(b)
		var re *rules.Error
		if !errors.Is(err, rules.ErrBadSnapshot) || !errors.As(err, &re) {
			t.Errorf("%s: %v, want an ErrBadSnapshot *rules.Error", name, err)
		}
	}
}

// FuzzRestore: no panic on any bytes; either an ErrBadSnapshot error or a
// state whose snapshot restores to the same snapshot and state. Seeds in
// testdata/fuzz/FuzzRestore.
func FuzzRestore(f *testing.F) {
	snaps := snapshots()
	for i, v := range snapshotVariants {
		g, _ := New(v)
		s := rules.State(g.StartState(i))
		rng := rand.New(rand.NewPCG(uint64(i), 5))
		for ply := 0; ply < 90; ply++ {
			if ply%30 == 0 {
				f.Add(uint8(i), s.(rules.Saver).Save())
			}
			x := randomAction(rng, s)
			if x == "" {
				break
			}
			s = snaps.Act(f, s, x)
		}
	}
	f.Fuzz(func(t *testing.T, vi uint8, b []byte) {
		g, _ := New(snapshotVariants[int(vi)%len(snapshotVariants)])
		s, err := g.Restore(b)
		if err != nil {
			var re *rules.Error
			if !errors.Is(err, rules.ErrBadSnapshot) || !errors.As(err, &re) {
				t.Fatalf("%x: %v is not an ErrBadSnapshot *rules.Error", b, err)
			}
			return
		}
		r := snaps.RoundTrip(t, "fuzz", s)
		snaps.PlayOn(t, "fuzz", rand.New(rand.NewPCG(1, 2)), s, r, 10)
	})
}

// playRandom plays n random plies of g from its start (the game does not
// end: random moves go nowhere).
func playRandom(tb testing.TB, g Game, n int, seed uint64) rules.State {
	snaps := snapshots()
	rng := rand.New(rand.NewPCG(seed, 1))
	s := rules.State(g.StartState(0))
	for i := 0; i < n && !s.Outcome().Over; i++ {
		ms := s.Moves()
		s = snaps.Act(tb, s, ms[rng.IntN(len(ms))].Text)
	}
	return s
}

// BenchmarkRetainedPerPly reports the heap a state of a 1000-ply
// 2-player 16x16 game holds per ply of its past (its moves, for History
// and Record).
//
//	go test -run '^$' -bench RetainedPerPly -benchtime 5x ./rules/halma
func BenchmarkRetainedPerPly(b *testing.B) {
	g, _ := New(Variant{Size: 16, Players: 2})
	heap := func() int64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	var total int64
	for b.Loop() {
		before := heap()
		s := playRandom(b, g, 1000, 7)
		total += heap() - before
		runtime.KeepAlive(s)
	}
	b.ReportMetric(float64(total)/float64(b.N)/1000, "B/ply")
}

// BenchmarkSnapshot measures Save and Restore of 2-player 16x16 Halma at
// the start, after 60 plies and after 1000, and reports the snapshot's
// size.
//
//	go test -run '^$' -bench Snapshot -benchtime 20000x ./rules/halma
func BenchmarkSnapshot(b *testing.B) {
	g, _ := New(Variant{Size: 16, Players: 2})
	for _, plies := range []int{0, 60, 1000} {
		s := playRandom(b, g, plies, 7)
		snap := s.(rules.Saver).Save()
		b.Run(fmt.Sprintf("Save/ply=%d", plies), func(b *testing.B) {
			for b.Loop() {
				snap = s.(rules.Saver).Save()
			}
			b.ReportMetric(float64(len(snap)), "bytes")
		})
		b.Run(fmt.Sprintf("Restore/ply=%d", plies), func(b *testing.B) {
			for b.Loop() {
				if _, err := g.Restore(snap); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRestoredRecord: the record of a restored state starts at the
// snapshot's position (its FEN tag) and reads back to the same position
// after the moves and retirements played since.
func TestRestoredRecord(t *testing.T) {
	snaps := snapshots()
	for i, v := range snapshotVariants {
		g, _ := New(v)
		rng := rand.New(rand.NewPCG(uint64(i), 4))
		s := rules.State(g.StartState(1))
		for ply := 0; ply < 30; ply++ {
			if x := randomAction(rng, s); x != "" {
				s = snaps.Act(t, s, x)
			}
		}
		r := snaps.RoundTrip(t, "ply 30", s)
		for ply := 0; ply < 30; ply++ {
			if x := randomAction(rng, r); x != "" {
				r = snaps.Act(t, r, x)
			}
		}
		back, _, err := ReadRecord(r.(rules.Recorder).Record(rules.Meta{}))
		// (the record has no move counts: a leave-home loss after the
		// snapshot is not replayed, so the outcome is compared without it)
		if err != nil || back.FEN() != r.FEN() || (v.LeaveHome == 0 && back.Outcome() != r.Outcome()) {
			t.Errorf("%+v: the record reads back as %v, %v; want %s", v, back, err, r.FEN())
		}
	}
}
