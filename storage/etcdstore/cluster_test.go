package etcdstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// cluster starts three etcd members on loopback and returns them with
// two clients, each on every member's endpoint (two bot processes), and
// stop, which stops member i (once; the rest stop when the test ends).
func cluster(t *testing.T) (stop func(i int), clis [2]*clientv3.Client) {
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
	return func(i int) { stops[i]() }, clis
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
