package bolt_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// The benchmarks of issue 17 (storage at scale). Every game is a real
// 2-player 16x16 Halma game played through sessions.Service on a bbolt
// file on disk; the moves are legal moves picked at random (with a fixed
// seed) among those that do not end the game, so that any number of
// iterations finds a move. Figures are compared across commits: keep the
// names.
//
//	go test ./storage -run '^$' -bench 'MoveAtPly|ParallelMoves' -benchtime 200x
//	go test ./storage -run '^$' -bench 'Resume/live=1000$' -benchtime 1x

// scaleResetEvery is how many moves BenchmarkMoveAtPly plays on its game
// before it puts the game back to its ply (outside the timer), so that
// the moves measured are played at ply to ply+3 whatever b.N is.
const scaleResetEvery = 4

// scaleGamePlies is how long a game of BenchmarkParallelMoves lasts
// before its players resign and start another.
const scaleGamePlies = 100

// scaleResumePlies is the length of every game of BenchmarkResume.
const scaleResumePlies = 40

// scaleMove is a move and the seat that plays it.
type scaleMove struct {
	seat int
	text string
}

// scaleMoves returns n moves from st, each a legal move picked at random
// (seeded by seed) among those that do not end the game.
func scaleMoves(st rules.State, n int, seed uint64) ([]scaleMove, error) {
	r := rand.New(rand.NewPCG(seed, 17))
	out := make([]scaleMove, 0, n)
	for len(out) < n {
		ms := st.Moves()
		r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		var next rules.State
		for _, m := range ms {
			s, _, err := st.Play(m.Text)
			if err != nil {
				return nil, fmt.Errorf("ply %d: legal move %q: %w", len(out)+1, m.Text, err)
			}
			if !s.Outcome().Over {
				out = append(out, scaleMove{seat: st.Turn(), text: m.Text})
				next = s
				break
			}
		}
		if next == nil {
			return nil, fmt.Errorf("ply %d: every move ends the game", len(out)+1)
		}
		st = next
	}
	return out, nil
}

// scaleService is a Service as the bot runs it, on store, with the first
// seat and the first player fixed so that the moves computed ahead fit.
func scaleService(store sessions.Store) *sessions.Service {
	return sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 }})
}

// scaleUsers returns the two players of game i.
func scaleUsers(i int) []sessions.User {
	return []sessions.User{{ID: fmt.Sprint("a", i), Name: fmt.Sprint("alice", i)}, {ID: fmt.Sprint("b", i), Name: fmt.Sprint("bob", i)}}
}

// scaleStart starts a 2-player 16x16 Halma game at key between users
// (users[0] challenges and plays seat 0) and returns it as it starts.
func scaleStart(ctx context.Context, svc *sessions.Service, key sessions.Key, users []sessions.User) (*sessions.Snapshot, error) {
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	if _, err := svc.Challenge(ctx, sessions.Request{Key: key, User: users[0]},
		sessions.ChallengeSpec{Game: "halma", Options: map[string]string{"size": "16"}, Invited: users[1:], Play: p}); err != nil {
		return nil, err
	}
	ev, err := svc.Accept(ctx, sessions.Request{Key: key, User: users[1]})
	if err != nil {
		return nil, err
	}
	if !ev.Session.Player(0).Is(users[0]) || ev.Session.Turn() != 0 {
		return nil, fmt.Errorf("%s started with seats %v and seat %d to move", key, ev.Session.Record.Seats, ev.Session.Turn())
	}
	return ev.Session, nil
}

// scalePlay plays moves at key through the Service.
func scalePlay(ctx context.Context, svc *sessions.Service, key sessions.Key, users []sessions.User, moves []scaleMove) error {
	for i, m := range moves {
		if _, err := svc.Move(ctx, sessions.Request{Key: key, User: users[m.seat]}, m.text); err != nil {
			return fmt.Errorf("%s move %d %q: %w", key, i+1, m.text, err)
		}
	}
	return nil
}

// BenchmarkMoveAtPly measures one move committed through the Service in a
// game that already has ply plies. The game is built to its ply without
// fsync; then each iteration plays one move as a player does (the user to
// move, alternating), committed and synced. Every scaleResetEvery moves the
// timer stops, the game's ply-ply record is committed back and a new
// Service loads it, so that ply=10 measures moves at plies 10 to 13.
func BenchmarkMoveAtPly(b *testing.B) {
	for _, ply := range []int{10, 1000} {
		b.Run(fmt.Sprintf("ply=%d", ply), func(b *testing.B) { scaleMoveAtPly(b, ply) })
	}
}

func scaleMoveAtPly(b *testing.B, ply int) {
	ctx := b.Context()
	path := filepath.Join(b.TempDir(), "bot.db")
	key := sessions.Key{Platform: "bench", Channel: "ply"}
	users := scaleUsers(0)

	build, err := bolt.Open(path, bolt.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	svc := scaleService(build)
	snap, err := scaleStart(ctx, svc, key, users)
	if err != nil {
		b.Fatal(err)
	}
	moves, err := scaleMoves(snap.State, ply+scaleResetEvery, 1)
	if err != nil {
		b.Fatal(err)
	}
	if err := scalePlay(ctx, svc, key, users, moves[:ply]); err != nil {
		b.Fatal(err)
	}
	svc.Close()
	saved, err := build.Load(ctx, key)
	if err != nil {
		b.Fatal(err)
	}
	if err := build.Close(); err != nil {
		b.Fatal(err)
	}

	store, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	load := func() {
		svc = scaleService(store)
		snap, err := svc.Look(ctx, key)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(snap.Record.Actions); n != ply {
			b.Fatalf("the game has %d plies, want %d", n, ply)
		}
	}
	load()
	tail := moves[ply:]
	b.ResetTimer()
	for i := range b.N {
		if i > 0 && i%scaleResetEvery == 0 {
			b.StopTimer()
			svc.Close()
			if err := store.Commit(ctx, &sessions.Change{Key: key, Live: saved.Clone()}); err != nil {
				b.Fatal(err)
			}
			load()
			b.StartTimer()
		}
		m := tail[i%scaleResetEvery]
		if _, err := svc.Move(ctx, sessions.Request{Key: key, User: users[m.seat]}, m.text); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	svc.Close()
}

// BenchmarkParallelMoves: 64 sessions play at once on one bbolt file on
// disk (default commit mode, synced), each a Halma game between its two
// players, who move in turn; after scaleGamePlies plies a game is resigned
// and a new one started (three commits inside the timer, not counted as
// moves, as BenchmarkMove of package sessions does with its count game).
// It reports moves/s.
func BenchmarkParallelMoves(b *testing.B) {
	const n = 64
	ctx := b.Context()
	store, err := bolt.Open(filepath.Join(b.TempDir(), "bot.db"), bolt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	svc := scaleService(store)
	defer svc.Close()
	keys := make([]sessions.Key, n)
	games := make([][]scaleMove, n)
	for i := range keys {
		keys[i] = sessions.Key{Platform: "bench", Channel: fmt.Sprint("p", i)}
		snap, err := scaleStart(ctx, svc, keys[i], scaleUsers(i))
		if err != nil {
			b.Fatal(err)
		}
		// Every game starts from the same position (Rand is fixed): the
		// moves of game i serve each of its games.
		if games[i], err = scaleMoves(snap.State, scaleGamePlies, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
	var left atomic.Int64
	left.Store(int64(b.N))
	var wg sync.WaitGroup
	b.ResetTimer()
	t0 := time.Now()
	for i, k := range keys {
		wg.Go(func() {
			users, moves := scaleUsers(i), games[i]
			for m := 0; left.Add(-1) >= 0; m++ {
				if m == len(moves) {
					m = 0
					if _, err := svc.Resign(ctx, sessions.Request{Key: k, User: users[0]}); err != nil {
						b.Error(err)
						return
					}
					if _, err := scaleStart(ctx, svc, k, users); err != nil {
						b.Error(err)
						return
					}
				}
				if _, err := svc.Move(ctx, sessions.Request{Key: k, User: users[moves[m].seat]}, moves[m].text); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(t0)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "moves/s")
}

// BenchmarkResume: a Service started over a database of live games of
// scaleResumePlies plies each. ns/op is the time from opening the file to
// the answer of a first command: bolt.Open, sessions.New, Resume, and
// Look (what /board asks) on one session. It reports MB-heap, the heap in
// use after the start (after a GC), and KB/session, the heap each session
// takes once every session has been looked at (so resident), over the heap
// before the start.
//
// The database is built once per size and process, outside the timer: 16
// games are played through a Service, and the others are copies of them
// under other keys and players, committed through Store.Commit without
// fsync. Each iteration starts over a fresh copy of it.
func BenchmarkResume(b *testing.B) {
	dir := b.TempDir()
	built := map[int]string{}
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("live=%d", n), func(b *testing.B) {
			path, ok := built[n]
			if !ok {
				path = filepath.Join(dir, fmt.Sprintf("live%d.db", n))
				t0 := time.Now()
				if err := scaleBuildLive(b.Context(), path, n); err != nil {
					b.Fatal(err)
				}
				b.Logf("built %d live games of %d plies in %v", n, scaleResumePlies, time.Since(t0).Round(time.Millisecond))
				built[n] = path
			}
			b.ResetTimer() // the build is not what is measured
			scaleResume(b, path, n)
		})
	}
}

// scaleLiveKey is the key of game i of a BenchmarkResume database.
func scaleLiveKey(i int) sessions.Key {
	return sessions.Key{Platform: "bench", Channel: fmt.Sprint("c", i)}
}

// scaleBuildLive writes a database of n live Halma games at path.
func scaleBuildLive(ctx context.Context, path string, n int) error {
	const played, writers = 16, 16
	store, err := bolt.Open(path, bolt.Options{NoSync: true})
	if err != nil {
		return err
	}
	defer store.Close()
	svc := scaleService(store)
	defer svc.Close()
	var templates []*sessions.Record
	for i := range min(played, n) {
		users := scaleUsers(i)
		snap, err := scaleStart(ctx, svc, scaleLiveKey(i), users)
		if err != nil {
			return err
		}
		moves, err := scaleMoves(snap.State, scaleResumePlies, uint64(i))
		if err != nil {
			return err
		}
		if err := scalePlay(ctx, svc, scaleLiveKey(i), users, moves); err != nil {
			return err
		}
		rec, err := store.Load(ctx, scaleLiveKey(i))
		if err != nil {
			return err
		}
		templates = append(templates, rec)
	}
	next := atomic.Int64{}
	next.Store(int64(len(templates)))
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				t := templates[i%len(templates)]
				rec := t.Clone()
				users := scaleUsers(i)
				rec.Key, rec.Challenger, rec.Invited, rec.Seats = scaleLiveKey(i), users[0], users[1:], users
				if err := store.Commit(ctx, &sessions.Change{Key: rec.Key, Live: rec}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return store.Close()
}

func scaleResume(b *testing.B, built string, n int) {
	ctx := b.Context()
	for i := range b.N {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), fmt.Sprint("bot", i, ".db"))
		if err := scaleCopyFile(path, built); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()

		store, err := bolt.Open(path, bolt.Options{})
		if err != nil {
			b.Fatal(err)
		}
		// Every session may stay resident, so that KB/session is what a
		// resident session takes (the bot keeps sessions.resident of them).
		svc := sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 }, Resident: n})
		if _, err := svc.Resume(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := svc.Look(ctx, scaleLiveKey(n/2)); err != nil {
			b.Fatal(err)
		}

		b.StopTimer()
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		for j := range n {
			if _, err := svc.Look(ctx, scaleLiveKey(j)); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		var resident runtime.MemStats
		runtime.ReadMemStats(&resident)
		runtime.KeepAlive(svc)
		b.ReportMetric(float64(after.HeapInuse)/(1<<20), "MB-heap")
		b.ReportMetric((float64(resident.HeapInuse)-float64(before.HeapInuse))/float64(n)/(1<<10), "KB/session")
		svc.Close()
		if err := store.Close(); err != nil {
			b.Fatal(err)
		}
		if err := os.Remove(path); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

func scaleCopyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
