package bolt

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
	for _, dir := range []string{topDir, serverDir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
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

var (
	serverOnce    sync.Once
	serverDir     string
	serverErr     error
	serverMembers map[string][]string
)

// fillServers puts n players with random ratings into the all-time
// ladder of "spanish", each on the ladder of community c<i mod
// communities> and, one in four, of a second one at random; one in five
// is also on the ladder of the community "big" (a large server). It
// returns the members of each community.
func fillServers(tb testing.TB, s *Store, n, communities int, seed uint64) map[string][]string {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	members := map[string][]string{}
	for start := 0; start < n; start += 5000 {
		err := s.db.Update(func(tx *bbolt.Tx) error {
			for i := start; i < min(n, start+5000); i++ {
				u := sessions.User{ID: fmt.Sprint("u", i), Name: fmt.Sprint("player", i)}
				in := []string{fmt.Sprint("c", i%communities)}
				if c := fmt.Sprint("c", rng.IntN(communities)); rng.IntN(4) == 0 && c != in[0] {
					in = append(in, c)
				}
				if i%5 == 0 {
					in = append(in, "big")
				}
				rating := 1000 + int(rng.NormFloat64()*150)
				for _, c := range in {
					old, had, err := getStanding(tx, "test", u, "spanish", sessions.AllTime)
					if err != nil {
						return err
					}
					st := old
					st.Rating = rating
					st.Games++
					if err := putStanding(tx, old, had, st, c); err != nil {
						return err
					}
					members[c] = append(members[c], u.ID)
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return members
}

// BenchmarkServerTop: 100,000 rated players on the ladders of 5,000
// communities (a Discord server, a Telegram group; 20,000 of them also
// in one large server): a community's top 10 and the asker's place, for
// a community of the usual size and for the large one.
//
//	go test -run '^$' -bench BenchmarkServerTop -count 3 ./storage/
func BenchmarkServerTop(b *testing.B) {
	serverOnce.Do(func() {
		serverDir, serverErr = os.MkdirTemp("", "bench-servers-")
		if serverErr != nil {
			return
		}
		s, err := Open(filepath.Join(serverDir, "bot.db"), Options{NoSync: true})
		if err != nil {
			serverErr = err
			return
		}
		serverMembers = fillServers(b, s, 100000, 5000, 1)
		serverErr = s.Close()
	})
	if serverErr != nil {
		b.Fatal(serverErr)
	}
	s, err := Open(filepath.Join(serverDir, "bot.db"), Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, c := range []string{"c77", "big"} {
		who := serverMembers[c]
		b.Run("community="+map[bool]string{true: "large", false: "usual"}[c == "big"], func(b *testing.B) {
			i := 0
			for b.Loop() {
				u := who[(i*7919)%len(who)]
				i++
				l, err := s.Top(ctx, sessions.TopQuery{Platform: "test", Community: c, Game: "spanish", Period: sessions.AllTime, Limit: 10, User: u})
				if err != nil || len(l.Rows) != min(10, len(who)) || l.Players != len(who) || l.Place == 0 {
					b.Fatalf("%v %d %d %d", err, len(l.Rows), l.Players, l.Place)
				}
			}
			b.ReportMetric(float64(len(who)), "players")
		})
	}
}

// TestServerTopAgreesWithASort: each community's ladder, filled as the
// benchmark fills them, is its members sorted by rating, and each
// member's place counts those rated higher.
func TestServerTopAgreesWithASort(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "bot.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	members := fillServers(t, s, 3000, 60, 3)
	platform, err := s.Top(context.Background(), sessions.TopQuery{Platform: "test", Game: "spanish", Period: sessions.AllTime})
	if err != nil {
		t.Fatal(err)
	}
	rating := map[string]int{}
	for _, st := range platform.Rows {
		rating[st.User.ID] = st.Rating
	}
	for _, c := range []string{"c0", "c17", "c59", "big"} {
		ids := slices.Clone(members[c])
		slices.SortFunc(ids, func(a, b string) int {
			if rating[a] != rating[b] {
				return rating[b] - rating[a]
			}
			return bytes.Compare([]byte(a), []byte(b))
		})
		for _, who := range []string{ids[0], ids[len(ids)/2], ids[len(ids)-1]} {
			l, err := s.Top(context.Background(), sessions.TopQuery{Platform: "test", Community: c, Game: "spanish", Period: sessions.AllTime, Limit: 10, User: who})
			if err != nil {
				t.Fatal(err)
			}
			if l.Players != len(ids) || len(l.Rows) != min(10, len(ids)) {
				t.Fatalf("%s: %d players, %d rows; want %d", c, l.Players, len(l.Rows), len(ids))
			}
			for i, r := range l.Rows {
				if r.User.ID != ids[i] || r.Rating != rating[ids[i]] {
					t.Fatalf("%s row %d: %s %d, want %s %d", c, i, r.User.ID, r.Rating, ids[i], rating[ids[i]])
				}
			}
			want := 1 + slices.IndexFunc(ids, func(x string) bool { return rating[x] == rating[who] })
			if l.Me == nil || l.Place != want {
				t.Fatalf("%s: place of %s: %d, want %d", c, who, l.Place, want)
			}
		}
	}
}
