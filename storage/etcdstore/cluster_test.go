package etcdstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// cluster starts three etcd members on loopback and returns them with
// two clients, each on every member's endpoint (two bot processes), and
// stop, which stops member i (once; the rest stop when the test ends).
func cluster(t *testing.T) (stop func(i int), clis [2]*clientv3.Client) {
	t.Helper()
	stop, clis, _ = clusterMembers(t)
	return stop, clis
}

// clusterMembers is cluster with the members.
func clusterMembers(t *testing.T) (stop func(i int), clis [2]*clientv3.Client, members []*embed.Etcd) {
	t.Helper()
	if testing.Short() {
		t.Skip("a three-member etcd cluster; run without -short")
	}
	members, endpoints, err := etcdtest.StartCluster(t.TempDir(), 3, false)
	if err != nil {
		t.Fatal(err)
	}
	stops := make([]func(), len(members))
	for i, e := range members {
		stops[i] = sync.OnceFunc(e.Close)
		t.Cleanup(stops[i])
	}
	for i := range clis {
		c, err := clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		clis[i] = c
	}
	return func(i int) { stops[i]() }, clis, members
}

// TestClusterMovesFromTwoProcesses: on a three-member cluster, two
// processes send the same moves of 16 games at once; each ply applies
// once and none is lost, also after a member is stopped mid-game.
func TestClusterMovesFromTwoProcesses(t *testing.T) {
	stop, clis := cluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts := etcdstore.Options{Prefix: "/cluster/"}
	a, b := service(etcdstore.New(clis[0], opts)), service(etcdstore.New(clis[1], opts))
	defer a.Close()
	defer b.Close()
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	keys := make([]sessions.Key, 16)
	for i := range keys {
		keys[i] = sessions.Key{Platform: "test", Channel: fmt.Sprint("c", i)}
		if _, err := a.Challenge(ctx, sessions.Request{Key: keys[i], User: ann}, sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "1000"}, Invited: []sessions.User{bob}, Play: p}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Accept(ctx, sessions.Request{Key: keys[i], User: bob}); err != nil {
			t.Fatal(err)
		}
	}
	const rounds = 20
	for i := range rounds {
		if i == rounds/2 {
			stop(0) // a member dies mid-game: the other two keep a quorum
		}
		u := []sessions.User{ann, bob}[i%2]
		errs := make([][2]error, len(keys))
		var wg sync.WaitGroup
		start := make(chan struct{})
		for k, key := range keys {
			for j, s := range []*sessions.Service{a, b} {
				wg.Go(func() {
					<-start
					_, errs[k][j] = s.Move(ctx, sessions.Request{Key: key, User: u}, "1")
				})
			}
		}
		close(start)
		wg.Wait()
		for k := range keys {
			ok := 0
			for _, err := range errs[k] {
				switch {
				case err == nil:
					ok++
				case !errors.Is(err, sessions.ErrNotYourTurn):
					t.Fatalf("round %d, game %d: %v", i, k, err)
				}
			}
			if ok != 1 {
				t.Fatalf("round %d, game %d: the move applied %d times", i, k, ok)
			}
		}
	}
	third := service(etcdstore.New(clis[1], opts))
	defer third.Close()
	for k, key := range keys {
		snap, err := third.Look(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if len(snap.Record.Actions) != rounds || snap.State.FEN() != fmt.Sprintf("%d:%d", rounds, rounds%2) {
			t.Fatalf("game %d: %d moves stored, position %s, want %d", k, len(snap.Record.Actions), snap.State.FEN(), rounds)
		}
		for i, a := range snap.Record.Actions {
			if a.Seat != i%2 {
				t.Fatalf("game %d: action %d by seat %d", k, i, a.Seat)
			}
		}
	}
}

// TestClusterClockLeader: on a three-member cluster, the process leading
// the clocks fires a deadline; when it stops, the other leads and fires
// the next one; each deadline fires once, also when the old leader's
// clock comes round again.
func TestClusterClockLeader(t *testing.T) {
	_, clis := cluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	now := t0
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	setNow := func(t time.Time) { mu.Lock(); now = t; mu.Unlock() }
	opts := etcdstore.Options{Prefix: "/clock/"}
	keys := make([]sessions.Key, 4)
	for i := range keys {
		keys[i] = sessions.Key{Platform: "test", Channel: fmt.Sprint("c", i)}
	}
	type process struct {
		store *etcdstore.Store
		svc   *sessions.Service
		tick  chan struct{} // the leader's clock comes round
	}
	ticked := make(chan error)
	won := make(chan *sessions.Service)
	procs := make([]*process, 2)
	for i := range procs {
		st := etcdstore.New(clis[i], opts)
		svc := sessions.New(sessions.Config{Store: st, Games: sessionstest.Games, Now: clock, Rand: func(int) int { return 0 }, Computer: firstMove{}})
		defer svc.Close()
		procs[i] = &process{store: st, svc: svc, tick: make(chan struct{})}
	}
	tick := func(s *sessions.Service) error {
		s.Tick(ctx)
		for _, k := range keys {
			if err := s.Settle(ctx, k); err != nil {
				return err
			}
		}
		return nil
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	lead := func(p *process) context.CancelFunc {
		lctx, stop := context.WithCancel(ctx)
		wg.Go(func() {
			p.store.Lead(lctx, fmt.Sprintf("%p", p), 2*time.Second, func(ctx context.Context) {
				select {
				case won <- p.svc:
				case <-ctx.Done():
					return
				}
				for {
					select {
					case <-ctx.Done():
						return
					case <-p.tick:
						ticked <- tick(p.svc)
					}
				}
			})
		})
		return stop
	}
	a, b := procs[0], procs[1]
	play := sessions.DefaultPlayOptions()
	play.Color, play.Time = sessions.ColorWhite, sessions.Duration(time.Hour)
	for _, k := range keys {
		if _, err := a.svc.Challenge(ctx, sessions.Request{Key: k, User: ann}, sessions.ChallengeSpec{Game: "count", Invited: []sessions.User{bob}, Play: play}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.svc.Accept(ctx, sessions.Request{Key: k, User: bob}); err != nil {
			t.Fatal(err)
		}
	}
	// autoMoves checks that each game has n actions, in turn, each an
	// auto-move (Auto counts them per seat).
	autoMoves := func(when string, n int) {
		t.Helper()
		look := sessions.New(sessions.Config{Store: etcdstore.New(clis[1], opts), Games: sessionstest.Games, Now: clock})
		defer look.Close()
		for _, k := range keys {
			snap, err := look.Look(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			r := snap.Record
			if len(r.Actions) != n || len(r.Auto) != 2 || r.Auto[0] != (n+1)/2 || r.Auto[1] != n/2 {
				t.Fatalf("%s: %s has %d actions (auto %v), want %d auto-moves", when, k.Channel, len(r.Actions), r.Auto, n)
			}
			for i, a := range r.Actions {
				if a.Seat != i%2 {
					t.Fatalf("%s: %s: action %d by seat %d", when, k.Channel, i, a.Seat)
				}
			}
		}
	}
	stopA := lead(a)
	defer stopA()
	if got := <-won; got != a.svc {
		t.Fatal("b leads first, want a")
	}
	stopB := lead(b)
	defer stopB()
	setNow(t0.Add(time.Hour + time.Minute)) // ann is out of time
	a.tick <- struct{}{}
	if err := <-ticked; err != nil {
		t.Fatal(err)
	}
	autoMoves("after a's clock", 1)
	stopA()
	t1 := time.Now()
	if got := <-won; got != b.svc {
		t.Fatal("a leads again after it stopped, want b")
	}
	t.Logf("b took over %v after a stopped", time.Since(t1).Round(time.Millisecond))
	setNow(t0.Add(2*time.Hour + 2*time.Minute)) // bob is out of time
	b.tick <- struct{}{}
	if err := <-ticked; err != nil {
		t.Fatal(err)
	}
	autoMoves("after b's clock", 2)
	if err := tick(a.svc); err != nil { // a's clock, no longer leading, comes round late
		t.Fatal(err)
	}
	autoMoves("after a's late clock", 2)
	stopB()
}

// TestClusterLeaderDiesMidMove: on a three-member cluster, one process
// plays 32 games move after move, all at once, and the leader member dies
// in the middle (stopped hard: no hand-over, the moves in flight cut off).
// After every answer the player's view is what the store holds: a move
// answered played is stored, once; one refused changed nothing; and after
// "may or may not have been saved", /board tells.
func TestClusterLeaderDiesMidMove(t *testing.T) {
	stop, clis, members := clusterMembers(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var lost lostAnswers
	opts := etcdstore.Options{Prefix: "/dies/"}
	a, truth := service(etcdstore.New(clis[0], etcdstore.Options{Prefix: opts.Prefix, Log: slog.New(slog.NewTextHandler(&lost, nil))})), etcdstore.New(clis[1], opts)
	defer a.Close()
	const games, moves = 32, 24
	keys := make([]sessions.Key, games)
	for i := range keys {
		keys[i] = sessions.Key{Platform: "test", Channel: fmt.Sprint("g", i)}
		startCount(t, a, keys[i], "1000")
	}
	var played, failed, unknown atomic.Int64
	killed := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Go(func() {
		for played.Load() < games*moves/4 {
			time.Sleep(time.Millisecond)
		}
		for i, m := range members {
			if m.Server.Leader() == m.Server.MemberID() {
				m.Server.HardStop()
				stop(i)
				killed <- i
				return
			}
		}
		killed <- -1
	})
	for _, key := range keys {
		wg.Go(func() {
			n := 0 // the moves the players believe played
			for range moves {
				_, answer := a.Move(ctx, sessions.Request{Key: key, User: []sessions.User{ann, bob}[n%2]}, "1")
				switch sessions.KindOf(answer) {
				case nil:
					n++
					played.Add(1)
				case sessions.ErrUnknownOutcome:
					unknown.Add(1)
					snap, err := a.Look(ctx, key) // /board
					if err != nil {
						t.Errorf("%s: /board after an unknown outcome: %v", key.Channel, err)
						return
					}
					n = len(snap.Record.Actions)
				default:
					failed.Add(1)
				}
				var rec *sessions.Record
				for rec == nil {
					var err error
					if rec, err = truth.Load(ctx, key); err != nil && ctx.Err() != nil {
						t.Errorf("%s: reading the store: %v", key.Channel, err)
						return
					}
				}
				if len(rec.Actions) != n {
					t.Errorf("%s: the answer was %v, the player counts %d moves, the store holds %d", key.Channel, answer, n, len(rec.Actions))
					return
				}
			}
		})
	}
	wg.Wait()
	if i := <-killed; i < 0 {
		t.Fatal("no member was the leader")
	} else {
		t.Logf("member %d, the leader, died after %d moves; %d moves played, %d refused, %d of unknown outcome; %d answers lost and asked again",
			i, games*moves/4, played.Load(), failed.Load(), unknown.Load(), lost.n.Load())
	}
}

// lostAnswers counts the store's log lines about a lost answer.
type lostAnswers struct{ n atomic.Int64 }

func (l *lostAnswers) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("lost the answer")) {
		l.n.Add(1)
	}
	return len(p), nil
}
