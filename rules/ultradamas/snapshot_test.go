package ultradamas

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// sameState fails the test when a and b differ in anything a player sees.
func sameState(t *testing.T, what string, a, b rules.State) {
	t.Helper()
	if a.FEN() != b.FEN() || a.Turn() != b.Turn() || a.Outcome() != b.Outcome() {
		t.Fatalf("%s: %s turn %d %+v, restored %s turn %d %+v", what, a.FEN(), a.Turn(), a.Outcome(), b.FEN(), b.Turn(), b.Outcome())
	}
	if !reflect.DeepEqual(a.Moves(), b.Moves()) {
		t.Fatalf("%s: moves differ", what)
	}
	if !reflect.DeepEqual(a.View(), b.View()) {
		t.Fatalf("%s: views differ", what)
	}
	if !reflect.DeepEqual(a.(rules.Former).Pending(), b.(rules.Former).Pending()) {
		t.Fatalf("%s: pending formations differ", what)
	}
}

// randomAction is a formation ("form SEAT squares") while one is pending,
// else a random move, mostly one after which nothing can be captured (so
// that games last until the draws); "" when the game is over.
func randomAction(rng *rand.Rand, s rules.State) string {
	if p := s.(rules.Former).Pending(); len(p) > 0 {
		seat := p[rng.IntN(len(p))]
		return fmt.Sprintf("form %d %s", seat, FormatFormation(randomFormation(rng, Side(seat))))
	}
	ms := s.Moves()
	if len(ms) == 0 {
		return ""
	}
	if rng.IntN(4) > 0 {
		var safe []string
		for _, m := range ms {
			n, _, err := s.Play(m.Text)
			if err == nil && !capturable(n) {
				safe = append(safe, m.Text)
			}
		}
		if len(safe) > 0 {
			return safe[rng.IntN(len(safe))]
		}
	}
	return ms[rng.IntN(len(ms))].Text
}

func capturable(s rules.State) bool {
	for _, m := range s.Moves() {
		if len(m.Captured) > 0 {
			return true
		}
	}
	return false
}

func act(t testing.TB, s rules.State, a string) rules.State {
	t.Helper()
	var seat int
	var err error
	if _, e := fmt.Sscanf(a, "form %d", &seat); e == nil {
		s, err = s.(rules.Former).Form(seat, a[len("form 0 "):])
	} else {
		s, _, err = s.Play(a)
	}
	if err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	return s
}

func roundTrip(t *testing.T, what string, s rules.State) rules.State {
	t.Helper()
	snap := s.(rules.Saver).Save()
	r, err := Game{}.Restore(snap)
	if err != nil {
		t.Fatalf("%s: Restore(Save()): %v", what, err)
	}
	if again := r.(rules.Saver).Save(); !bytes.Equal(again, snap) {
		t.Fatalf("%s: Save(Restore(%x)) = %x", what, snap, again)
	}
	sameState(t, what, s, r)
	return r
}

func playOn(t *testing.T, what string, rng *rand.Rand, a, b rules.State, n int) (rules.State, rules.State) {
	t.Helper()
	for i := 0; i < n; i++ {
		x := randomAction(rng, a)
		if x == "" {
			break
		}
		a, b = act(t, a, x), act(t, b, x)
		sameState(t, fmt.Sprintf("%s, %d plies on (%s)", what, i+1, x), a, b)
	}
	return a, b
}

// TestSnapshotRandomGames: over seeded random games, from the formation
// phase on, a state restored from its snapshot looks the same and plays
// on the same to the end; in a few games at every ply. Some continuations
// end by the 80-ply and repetition draws, so the snapshot carries the
// counter and the positions behind them.
func TestSnapshotRandomGames(t *testing.T) {
	games := 150
	if testing.Short() {
		games = 40
	}
	ends := map[any]int{}
	for seed := range uint64(games) {
		rng := rand.New(rand.NewPCG(seed, 17))
		every := seed < 3
		at := rng.IntN(150)
		s := Game{}.Start(0)
		for ply := 0; ply < 1000; ply++ {
			what := fmt.Sprintf("seed %d ply %d", seed, ply)
			if every || ply == at {
				r := roundTrip(t, what, s)
				if ply == at {
					a, _ := playOn(t, what, rand.New(rand.NewPCG(seed, 18)), s, r, 1000)
					ends[a.Outcome().Reason]++
				}
			}
			x := randomAction(rng, s)
			if x == "" {
				break
			}
			s = act(t, s, x)
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
	// two triple kings far apart shuffle (these moves promote them no
	// further, so the positions repeat)
	const fen = "R:R3a1:B3h8"
	shuffle := []string{"a1-b2", "h8-g7", "b2-a1", "g7-h8"}
	t.Run("repetition", func(t *testing.T) {
		s, _ := Game{}.Load(fen)
		for _, m := range append(shuffle, shuffle[:3]...) {
			s = act(t, s, m)
		}
		r := roundTrip(t, "before the third", s)
		fresh, _ := Game{}.Load(s.FEN())
		s, r, fresh = act(t, s, "g7-h8"), act(t, r, "g7-h8"), act(t, fresh, "g7-h8")
		if !s.Outcome().Over || r.Outcome() != s.Outcome() {
			t.Errorf("restored %+v, saved %+v: want the same draw", r.Outcome(), s.Outcome())
		}
		if fresh.Outcome().Over {
			t.Errorf("the position alone drew (%+v): the test proves nothing", fresh.Outcome())
		}
	})
	t.Run("80 plies", func(t *testing.T) {
		s, _ := Game{}.Load(fen + ":n79")
		r := roundTrip(t, "ply 79", s)
		s, r = act(t, s, "a1-b2"), act(t, r, "a1-b2")
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
		s = act(f, s, x)
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
		r := roundTrip(t, "fuzz", s)
		playOn(t, "fuzz", rand.New(rand.NewPCG(1, 2)), s, r, 10)
	})
}

// quietState returns the state with the most plies since a capture or
// promotion met in a few seeded random games (the most earlier positions
// a snapshot carries).
func quietState(tb testing.TB) rules.State {
	var best rules.State
	for seed := uint64(0); seed < 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 17))
		s := Game{}.Start(0)
		for ply := 0; ply < 1000; ply++ {
			x := randomAction(rng, s)
			if x == "" {
				break
			}
			s = act(tb, s, x)
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
	states := map[string]rules.State{"quiet": quietState(b)}
	for _, plies := range []int{0, 40} {
		s, _ := Game{}.Load(Start().FEN())
		rng := rand.New(rand.NewPCG(9, 9))
		for i := 0; i < plies && !s.Outcome().Over; i++ {
			ms := s.Moves()
			s = act(b, s, ms[rng.IntN(len(ms))].Text)
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
	rng := rand.New(rand.NewPCG(4, 4))
	s := Game{}.Start(0)
	for i := 0; i < 22; i++ {
		s = act(t, s, randomAction(rng, s))
	}
	r := roundTrip(t, "ply 20", s)
	for i := 0; i < 10; i++ {
		if x := randomAction(rng, r); x != "" {
			r = act(t, r, x)
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
