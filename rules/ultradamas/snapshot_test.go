package ultradamas

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/rulestest"
)

// snapshots is the snapshot harness for Ultradamas: random actions by
// randomAction, formations played as "form SEAT squares", the pending
// formations compared besides what every game shows.
func snapshots() rulestest.Snapshots {
	return rulestest.Snapshots{Pick: randomAction, Apply: applyAction, Differ: pendingDiffer}
}

// pendingDiffer returns "pending formations" when different seats have
// a formation to confirm in a and b.
func pendingDiffer(a, b rules.State) string {
	if !reflect.DeepEqual(a.(rules.Former).Pending(), b.(rules.Former).Pending()) {
		return "pending formations"
	}
	return ""
}

// randomAction is a formation ("form SEAT squares") while one is pending,
// else a random move, mostly one after which nothing can be captured (so
// that games last until the draws); "" when the game is over.
func randomAction(rng *rand.Rand, s rules.State) string {
	if p := s.(rules.Former).Pending(); len(p) > 0 {
		seat := p[rng.IntN(len(p))]
		return fmt.Sprintf("form %d %s", seat, FormatFormation(randomFormation(rng, Side(seat))))
	}
	return rulestest.CautiousMove(rng, s)
}

// applyAction plays a random action: "form SEAT squares" or a move.
func applyAction(s rules.State, a string) (rules.State, error) {
	var seat int
	if _, e := fmt.Sscanf(a, "form %d", &seat); e == nil {
		return s.(rules.Former).Form(seat, a[len("form 0 "):])
	}
	n, _, err := s.Play(a)
	return n, err
}

// TestSnapshotRandomGames: over seeded random games, from the formation
// phase on, a state restored from its snapshot looks the same and plays
// on the same to the end; in a few games at every ply. Some continuations
// end by the 80-ply and repetition draws, so the snapshot carries the
// counter and the positions behind them.
func TestSnapshotRandomGames(t *testing.T) {
	snaps := snapshots()
	games := 150
	if testing.Short() {
		games = 40
	}
	ends := map[any]int{}
	for seed := range uint64(games) {
		rng := rand.New(rand.NewPCG(seed, 17))
		every := seed < 3
		at := rng.IntN(150)
		a := snaps.PlayRandom(t, rulestest.RandomGame{
			Seed: seed, Start: Game{}.Start(0), Rand: rng, Plies: 1000, At: at, Every: every,
			OnRand: rand.New(rand.NewPCG(seed, 18)), On: 1000,
		})
		if a != nil {
			ends[a.Outcome().Reason]++
		}
	}
	t.Logf("outcomes after a restore: %v", ends)
	draws := 0
	for _, d := range []rules.Outcome{
		outcome(Position{occ: [2]uint64{1, 1 << 63}, lvl: [6]uint64{1<<63 | 1}}, 3),
		outcome(Position{occ: [2]uint64{1, 1 << 63}, lvl: [6]uint64{1<<63 | 1}, ply: DrawPlies}, 1),
	} {
		if ends[d.Reason] > 0 {
			draws++
		}
	}
	if draws < 2 {
		t.Errorf("the continuations did not reach both the repetition and the 80-ply draws (%v)", ends)
	}
}

// TestSnapshotCarriesDrawCounters: a restored state draws by repetition
// and by the 80-ply rule exactly when the saved one does, where its
// position alone (Load of its FEN) plays on.
func TestSnapshotCarriesDrawCounters(t *testing.T) {
	snaps := snapshots()
	// two triple kings far apart shuffle (these moves promote them no
	// further, so the positions repeat)
	const fen = "R:R3a1:B3h8"
	shuffle := []string{"a1-b2", "h8-g7", "b2-a1", "g7-h8"}
	t.Run("repetition", func(t *testing.T) {
		s, _ := Game{}.Load(fen)
		for _, m := range append(shuffle, shuffle[:3]...) {
			s = snaps.Act(t, s, m)
		}
		r := snaps.RoundTrip(t, "before the third", s)
		fresh, _ := Game{}.Load(s.FEN())
		s, r, fresh = snaps.Act(t, s, "g7-h8"), snaps.Act(t, r, "g7-h8"), snaps.Act(t, fresh, "g7-h8")
		if !s.Outcome().Over || r.Outcome() != s.Outcome() {
			t.Errorf("restored %+v, saved %+v: want the same draw", r.Outcome(), s.Outcome())
		}
		if fresh.Outcome().Over {
			t.Errorf("the position alone drew (%+v): the test proves nothing", fresh.Outcome())
		}
	})
	t.Run("80 plies", func(t *testing.T) {
		s, _ := Game{}.Load(fen + ":n79")
		r := snaps.RoundTrip(t, "ply 79", s)
		s, r = snaps.Act(t, s, "a1-b2"), snaps.Act(t, r, "a1-b2")
		if !s.Outcome().Over || r.Outcome() != s.Outcome() {
			t.Errorf("restored %+v, saved %+v: want the same draw", r.Outcome(), s.Outcome())
		}
	})
}

// TestRestoreRejects: damaged and foreign snapshots are ErrBadSnapshot.
func TestRestoreRejects(t *testing.T) {
	started, _ := Game{}.Load(Start().FEN())
	good := started.(rules.Saver).Save()
	for name, b := range map[string][]byte{
		"empty":      nil,
		"version 7":  append([]byte{7}, good[1:]...),
		"truncated":  good[:len(good)-1],
		"trailing":   append(append([]byte(nil), good...), 0),
		"level 7":    append(append([]byte(nil), good[:len(good)-2]...), 7<<1, 0),
		"formations": {1, 0, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	} {
		_, err := Game{}.Restore(b)
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
	s := Game{}.Start(0)
	rng := rand.New(rand.NewPCG(1, 5))
	for ply := 0; ply < 120; ply++ {
		if ply%20 == 0 || ply == 1 {
			f.Add(s.(rules.Saver).Save())
		}
		x := randomAction(rng, s)
		if x == "" {
			break
		}
		s = snaps.Act(f, s, x)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Game{}.Restore(b)
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

// quietState returns the state with the most plies since a capture or
// promotion met in a few seeded random games (the most earlier positions
// a snapshot carries).
func quietState(tb testing.TB) rules.State {
	snaps := snapshots()
	var best rules.State
	for seed := uint64(0); seed < 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 17))
		s := Game{}.Start(0)
		for ply := 0; ply < 1000; ply++ {
			x := randomAction(rng, s)
			if x == "" {
				break
			}
			s = snaps.Act(tb, s, x)
			if st := s.(*State); st.started && (best == nil || st.pos.ply > best.(*State).pos.ply) {
				best = s
			}
		}
	}
	return best
}

// BenchmarkSnapshot measures Save and Restore at the start, after 40
// random plies and in the quietest state of a few random games, and
// reports the snapshot's size and the plies since a capture or promotion.
//
//	go test -run '^$' -bench Snapshot -benchtime 20000x ./rules/ultradamas
func BenchmarkSnapshot(b *testing.B) {
	snaps := snapshots()
	states := map[string]rules.State{"quiet": quietState(b)}
	for _, plies := range []int{0, 40} {
		s, _ := Game{}.Load(Start().FEN())
		rng := rand.New(rand.NewPCG(9, 9))
		for i := 0; i < plies && !s.Outcome().Over; i++ {
			ms := s.Moves()
			s = snaps.Act(b, s, ms[rng.IntN(len(ms))].Text)
		}
		states[fmt.Sprintf("ply=%d", plies)] = s
	}
	for _, name := range []string{"ply=0", "ply=40", "quiet"} {
		s := states[name]
		snap := s.(rules.Saver).Save()
		b.Run("Save/"+name, func(b *testing.B) {
			for b.Loop() {
				snap = s.(rules.Saver).Save()
			}
			b.ReportMetric(float64(len(snap)), "bytes")
			b.ReportMetric(float64(s.(*State).pos.ply), "quiet-plies")
		})
		b.Run("Restore/"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := (Game{}).Restore(snap); err != nil {
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
	rng := rand.New(rand.NewPCG(4, 4))
	s := Game{}.Start(0)
	for i := 0; i < 22; i++ {
		s = snaps.Act(t, s, randomAction(rng, s))
	}
	r := snaps.RoundTrip(t, "ply 20", s)
	for i := 0; i < 10; i++ {
		if x := randomAction(rng, r); x != "" {
			r = snaps.Act(t, r, x)
		}
	}
	rec, _, err := ParseRecord(r.(rules.Recorder).Record(rules.Meta{}))
	if err != nil {
		t.Fatal(err)
	}
	if got := FromRecord(rec); got.FEN() != r.FEN() || got.Outcome() != r.Outcome() {
		t.Errorf("the record of a restored state reads back as %s %+v; want %s %+v", got.FEN(), got.Outcome(), r.FEN(), r.Outcome())
	}
}
