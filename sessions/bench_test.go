package sessions_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardgamebot/bot/ops"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/bolt"
)

// BenchmarkMove measures moves applied and committed (fsync'ed) per second
// with the bbolt store on disk, with 1 and 64 sessions playing at once,
// in each commit mode of the store, without metrics and with them (the
// Prometheus metrics of package ops, as metrics.listen turns them on).
// Games are of the count game and last 100 moves; the last move of each
// stores the finished game, and the players start a new one.
//
//	go test -run '^$' -bench BenchmarkMove -benchtime 2000x -count 3 ./sessions/
func BenchmarkMove(b *testing.B) {
	modes := []struct {
		name string
		mode bolt.Mode
	}{{"group", bolt.ModeGroup}, {"update", bolt.ModeUpdate}, {"batch", bolt.ModeBatch}}
	for _, n := range []int{1, 64} {
		for _, m := range modes {
			for _, on := range []bool{false, true} {
				b.Run(fmt.Sprintf("sessions=%d/mode=%s/metrics=%s", n, m.name, map[bool]string{false: "off", true: "on"}[on]), func(b *testing.B) {
					var metrics sessions.Metrics
					if on {
						metrics = ops.New(ops.Options{Store: "bbolt"})
					}
					benchMoves(b, n, m.mode, metrics)
				})
			}
		}
	}
}

func benchMoves(b *testing.B, n int, mode bolt.Mode, metrics sessions.Metrics) {
	store, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{Mode: mode})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	s := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }, Metrics: metrics})
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	start := func(k sessions.Key) error {
		if _, err := s.Challenge(ctx, sessions.Request{Key: k, User: alice},
			sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "100"}, Invited: []sessions.User{bob}, Play: p}); err != nil {
			return err
		}
		_, err := s.Accept(ctx, sessions.Request{Key: k, User: bob})
		return err
	}
	keys := make([]sessions.Key, n)
	for i := range keys {
		keys[i] = sessions.Key{Platform: "bench", Channel: fmt.Sprint("c", i)}
		if err := start(keys[i]); err != nil {
			b.Fatal(err)
		}
	}
	var left atomic.Int64
	left.Store(int64(b.N))
	var wg sync.WaitGroup
	b.ResetTimer()
	t0 := time.Now()
	for _, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			players := []sessions.User{alice, bob}
			for m := 0; left.Add(-1) >= 0; m++ {
				ev, err := s.Move(ctx, sessions.Request{Key: k, User: players[m%2]}, "1")
				if err != nil {
					b.Error(err)
					return
				}
				if ev.Ended() {
					m = -1
					if err := start(k); err != nil {
						b.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "moves/s")
}
