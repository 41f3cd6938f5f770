package etcdstore_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// BenchmarkMove measures moves applied and committed per second, and
// each move's latency, with 64 sessions playing at once, through the
// etcd store (one member on loopback, and a cluster of three, with
// fsync) beside the bbolt store
// (group commit, fsync). Games are of the count game and last 100 moves;
// the last move of each stores the finished game, and the players start
// a new one.
//
//	go test -run '^$' -bench BenchmarkMove -benchtime 3000x ./storage/etcdstore/
//
// (ns/op of store=etcd3 includes stopping the three members; read moves/s.)
func BenchmarkMove(b *testing.B) {
	b.Run("store=etcd", func(b *testing.B) {
		e, endpoint, err := etcdtest.Start(b.TempDir(), true)
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		c, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		benchMoves(b, 64, etcdstore.New(c, etcdstore.Options{}))
	})
	b.Run("store=etcd3", func(b *testing.B) {
		members, endpoints, err := etcdtest.StartCluster(b.TempDir(), 3, true)
		if err != nil {
			b.Fatal(err)
		}
		defer func() {
			for _, e := range members {
				e.Close()
			}
		}()
		c, err := clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		benchMoves(b, 64, etcdstore.New(c, etcdstore.Options{}))
	})
	b.Run("store=bbolt", func(b *testing.B) {
		s, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchMoves(b, 64, s)
	})
}

func benchMoves(b *testing.B, n int, store sessions.Store) {
	ctx := context.Background()
	s := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	defer s.Close()
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	start := func(k sessions.Key) error {
		if _, err := s.Challenge(ctx, sessions.Request{Key: k, User: ann},
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
	lat := make([][]time.Duration, n)
	var wg sync.WaitGroup
	b.ResetTimer()
	t0 := time.Now()
	for i, k := range keys {
		wg.Go(func() {
			players := []sessions.User{ann, bob}
			for m := 0; left.Add(-1) >= 0; m++ {
				t := time.Now()
				ev, err := s.Move(ctx, sessions.Request{Key: k, User: players[m%2]}, "1")
				lat[i] = append(lat[i], time.Since(t))
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
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "moves/s")
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	}
}
