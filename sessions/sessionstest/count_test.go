package sessionstest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

var snapshotOptions = []map[string]string{
	{},
	{"target": "30", "form": "yes", "huff": "yes"},
	{"players": "4", "retire": "yes", "form": "yes"},
}

func sameState(t *testing.T, what string, a, b rules.State) {
	t.Helper()
	if a.FEN() != b.FEN() || a.Turn() != b.Turn() || a.Outcome() != b.Outcome() ||
		!reflect.DeepEqual(a.Moves(), b.Moves()) || !reflect.DeepEqual(a.View(), b.View()) ||
		!reflect.DeepEqual(a.(rules.Former).Pending(), b.(rules.Former).Pending()) ||
		!reflect.DeepEqual(a.(rules.Huffer).Huffable(), b.(rules.Huffer).Huffable()) {
		t.Fatalf("%s: %s %+v, restored %s %+v", what, a.FEN(), a.Outcome(), b.FEN(), b.Outcome())
	}
	if _, ok := b.(rules.Retirer); ok != isRetirer(a) {
		t.Fatalf("%s: retiring differs", what)
	}
}

func isRetirer(s rules.State) bool { _, ok := s.(rules.Retirer); return ok }

// randomAct plays one random action on s (form, huff, retire or a move);
// ok is false when the game is over.
func randomAct(t testing.TB, rng *rand.Rand, s rules.State) (rules.State, string, bool) {
	var err error
	var what string
	switch {
	case s.Outcome().Over:
		return s, "", false
	case len(s.(rules.Former).Pending()) > 0:
		seat := s.(rules.Former).Pending()[0]
		what = fmt.Sprintf("form %d", seat)
		s, err = s.(rules.Former).Form(seat, "default")
	case len(s.(rules.Huffer).Huffable()) > 0 && rng.IntN(3) == 0:
		what = "huff"
		s, err = s.(rules.Huffer).Huff("a1")
	case isRetirer(s) && rng.IntN(10) == 0:
		what = fmt.Sprintf("retire %d", s.Turn())
		s, err = s.(rules.Retirer).Retire(s.Turn())
	default:
		what = fmt.Sprint(1 + rng.IntN(2))
		s, _, err = s.Play(what)
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return s, what, true
}

func roundTrip(t *testing.T, what string, s rules.State) rules.State {
	t.Helper()
	snap := s.(rules.Saver).Save()
	r, err := s.Game().(rules.Restorer).Restore(snap)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if again := r.(rules.Saver).Save(); !bytes.Equal(again, snap) {
		t.Fatalf("%s: Save(Restore(%x)) = %x", what, snap, again)
	}
	sameState(t, what, s, r)
	return r
}

// TestCountSnapshot: at every ply of seeded random games of each set of
// options, the restored state looks the same, and plays on the same (with
// the same random actions) to the end.
func TestCountSnapshot(t *testing.T) {
	for _, opts := range snapshotOptions {
		g, err := Games("count", opts)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(20) {
			rng := rand.New(rand.NewPCG(seed, 1))
			s := g.Start(int(seed))
			for ply := 0; ; ply++ {
				what := fmt.Sprintf("%v seed %d ply %d", opts, seed, ply)
				a, b := s, roundTrip(t, what, s)
				r2 := rand.New(rand.NewPCG(seed, uint64(ply)))
				r3 := rand.New(rand.NewPCG(seed, uint64(ply)))
				for ok := true; ok; {
					var x string
					a, x, ok = randomAct(t, r2, a)
					b, _, _ = randomAct(t, r3, b)
					sameState(t, what+" then "+x, a, b)
				}
				var ok bool
				if s, _, ok = randomAct(t, rng, s); !ok {
					break
				}
			}
		}
	}
}

// FuzzRestore: no panic; an ErrBadSnapshot error or a state that
// round-trips. Seeds in testdata/fuzz/FuzzRestore.
func FuzzRestore(f *testing.F) {
	for i, opts := range snapshotOptions {
		g, _ := Games("count", opts)
		s := g.Start(0)
		rng := rand.New(rand.NewPCG(uint64(i), 1))
		for ok := true; ok; s, _, ok = randomAct(f, rng, s) {
			f.Add(uint8(i), s.(rules.Saver).Save())
		}
	}
	f.Fuzz(func(t *testing.T, gi uint8, b []byte) {
		g, _ := Games("count", snapshotOptions[int(gi)%len(snapshotOptions)])
		s, err := g.(rules.Restorer).Restore(b)
		if err != nil {
			var re *rules.Error
			if !errors.Is(err, rules.ErrBadSnapshot) || !errors.As(err, &re) {
				t.Fatalf("%x: %v", b, err)
			}
			return
		}
		roundTrip(t, "fuzz", s)
	})
}

// BenchmarkCountSnapshot measures Save and Restore.
func BenchmarkCountSnapshot(b *testing.B) {
	g, _ := Games("count", map[string]string{"target": "1000"})
	s, _, _ := g.Start(0).Play("2")
	snap := s.(rules.Saver).Save()
	b.Run("Save", func(b *testing.B) {
		for b.Loop() {
			snap = s.(rules.Saver).Save()
		}
		b.ReportMetric(float64(len(snap)), "bytes")
	})
	b.Run("Restore", func(b *testing.B) {
		for b.Loop() {
			if _, err := g.(rules.Restorer).Restore(snap); err != nil {
				b.Fatal(err)
			}
		}
	})
}
