package storage

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// fillLadder puts n players with random ratings into the ladder of
// "spanish" for the month, in one transaction, updating some of them twice
// (as a second game would), and returns each player's final rating.
func fillLadder(tb testing.TB, s *Store, n int, seed uint64) map[string]int {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	ratings := map[string]int{}
	for start := 0; start < n; start += 5000 {
		if err := fillSome(s, rng, ratings, start, min(n, start+5000)); err != nil {
			tb.Fatal(err)
		}
	}
	return ratings
}

func fillSome(s *Store, rng *rand.Rand, ratings map[string]int, from, to int) error {
	return s.db.Update(func(tx *bbolt.Tx) error {
		for i := from; i < to; i++ {
			u := sessions.User{ID: fmt.Sprint("u", i), Name: fmt.Sprint("player", i)}
			for range 1 + rng.IntN(2) {
				old, had, err := getStanding(tx, "test", u, "spanish", "2026-11")
				if err != nil {
					return err
				}
				st := old
				st.Rating = 1000 + int(rng.NormFloat64()*150)
				st.Games++
				if err := putStanding(tx, old, had, st, ""); err != nil {
					return err
				}
				ratings[u.ID] = st.Rating
			}
		}
		return nil
	})
}

func TestTopAgreesWithASort(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "bot.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ratings := fillLadder(t, s, 3000, 7)
	type row struct {
		id     string
		rating int
	}
	var all []row
	for id, r := range ratings {
		all = append(all, row{id, r})
	}
	slices.SortFunc(all, func(a, b row) int {
		if a.rating != b.rating {
			return b.rating - a.rating
		}
		return bytes.Compare([]byte(a.id), []byte(b.id))
	})
	for _, who := range []string{all[0].id, all[1500].id, all[2999].id} {
		l, err := s.Top(context.Background(), sessions.TopQuery{Platform: "test", Game: "spanish", Period: "2026-11", Limit: 10, User: who})
		if err != nil {
			t.Fatal(err)
		}
		if l.Players != 3000 || len(l.Rows) != 10 {
			t.Fatalf("%d players, %d rows", l.Players, len(l.Rows))
		}
		for i, r := range l.Rows {
			if r.User.ID != all[i].id || r.Rating != all[i].rating {
				t.Fatalf("row %d: %s %d, want %s %d", i, r.User.ID, r.Rating, all[i].id, all[i].rating)
			}
		}
		want := 1 + slices.IndexFunc(all, func(x row) bool { return x.rating == ratings[who] })
		if l.Me == nil || l.Place != want {
			t.Fatalf("place of %s: %d, want %d", who, l.Place, want)
		}
	}
}

var (
	topOnce sync.Once
	topDir  string
	topErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if topDir != "" {
		os.RemoveAll(topDir)
	}
	os.Exit(code)
}

// BenchmarkTop: the monthly ladder of a game with 100,000 rated players:
// the top 10 and one player's place.
//
//	go test -run '^$' -bench BenchmarkTop -count 3 ./storage/
func BenchmarkTop(b *testing.B) {
	// The benchmark runs several times (b.N grows): the ladder is built
	// once, in a directory removed when the tests end.
	topOnce.Do(func() {
		topDir, topErr = os.MkdirTemp("", "bench-top-")
		if topErr != nil {
			return
		}
		s, err := Open(filepath.Join(topDir, "bot.db"), Options{NoSync: true})
		if err != nil {
			topErr = err
			return
		}
		fillLadder(b, s, 100000, 1)
		topErr = s.Close()
	})
	if topErr != nil {
		b.Fatal(topErr)
	}
	dir := topDir
	s, err := Open(filepath.Join(dir, "bot.db"), Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if fi, err := os.Stat(filepath.Join(dir, "bot.db")); err == nil {
		b.ReportMetric(float64(fi.Size())/1e6, "MB-db")
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		l, err := s.Top(ctx, sessions.TopQuery{Platform: "test", Game: "spanish", Period: "2026-11", Limit: 10,
			User: fmt.Sprint("u", (i*7919)%100000)})
		if err != nil || len(l.Rows) != 10 || l.Players != 100000 || l.Place == 0 {
			b.Fatalf("%v %d %d %d", err, len(l.Rows), l.Players, l.Place)
		}
	}
}
