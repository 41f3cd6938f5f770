package etcdstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/etcdstore"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// leaders records who leads the clocks, and fails when two lead at once.
type leaders struct {
	t   *testing.T
	mu  sync.Mutex
	now []string
	won chan string
}

func (l *leaders) run(name string) func(ctx context.Context) {
	return func(ctx context.Context) {
		l.mu.Lock()
		l.now = append(l.now, name)
		if len(l.now) > 1 {
			l.t.Errorf("two leaders at once: %v", l.now)
		}
		l.mu.Unlock()
		l.won <- name
		<-ctx.Done()
		l.mu.Lock()
		l.now = l.now[:0]
		l.mu.Unlock()
	}
}

// newClient is another process's connection to the shared member.
func newClient(t *testing.T) *clientv3.Client {
	c, err := clientv3.New(clientv3.Config{Endpoints: cli.Endpoints(), DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestClockLeader: one process leads the clocks at a time; when it stops
// another takes over at once, and when its connection dies another takes
// over once its lease ran out.
func TestClockLeader(t *testing.T) {
	l := &leaders{t: t, won: make(chan string)}
	prefix := etcdstore.Options{Prefix: "/" + t.Name() + "/"}
	const ttl = 2 * time.Second
	var wg sync.WaitGroup
	defer wg.Wait()
	lead := func(ctx context.Context, c *clientv3.Client, name string) {
		wg.Go(func() { etcdstore.New(c, prefix).Lead(ctx, name, ttl, l.run(name)) })
	}
	ctxA, stopA := context.WithCancel(context.Background())
	defer stopA()
	lead(ctxA, newClient(t), "a")
	if got := <-l.won; got != "a" {
		t.Fatalf("%s leads, want a", got)
	}
	ctxB, stopB := context.WithCancel(context.Background())
	defer stopB()
	cliB := newClient(t)
	lead(ctxB, cliB, "b")
	stopA() // a stops: it resigns
	if got := <-l.won; got != "b" {
		t.Fatalf("%s leads after a stopped, want b", got)
	}
	ctxC, stopC := context.WithCancel(context.Background())
	defer stopC()
	lead(ctxC, newClient(t), "c")
	t0 := time.Now()
	cliB.Close() // b's connection dies: its lease runs out
	if got := <-l.won; got != "c" {
		t.Fatalf("%s leads after b's connection died, want c", got)
	}
	t.Logf("c took over %v after b's connection died (lease %v)", time.Since(t0).Round(time.Millisecond), ttl)
	stopB()
	stopC()
}

// firstMove is a computer that plays the first legal move.
type firstMove struct{}

func (firstMove) Move(ctx context.Context, s rules.State, level int, seed uint64) (rules.Move, error) {
	return s.Moves()[0], nil
}

// TestClockOfAnotherProcess: the clock of a game started in one process
// is fired by another (from the due index), once: when the first one's
// clock comes round too, it finds the move already made.
func TestClockOfAnotherProcess(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	now := t0
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	svc := func() *sessions.Service {
		s := sessions.New(sessions.Config{Store: open(t), Games: sessionstest.Games, Now: clock, Rand: func(int) int { return 0 }, Computer: firstMove{}})
		t.Cleanup(s.Close)
		return s
	}
	a, b := svc(), svc()
	key := sessions.Key{Platform: "test", Channel: "clock"}
	p := sessions.DefaultPlayOptions()
	p.Color, p.Time = sessions.ColorWhite, sessions.Duration(time.Hour)
	if _, err := a.Challenge(ctx, sessions.Request{Key: key, User: ann}, sessions.ChallengeSpec{Game: "count", Invited: []sessions.User{bob}, Play: p}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Accept(ctx, sessions.Request{Key: key, User: bob}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	now = t0.Add(time.Hour + time.Minute) // ann is out of time
	mu.Unlock()
	for i, s := range []*sessions.Service{b, a} { // b never saw the game; a's clock comes second
		s.Tick(ctx)
		if err := s.Settle(ctx, key); err != nil {
			t.Fatal(err)
		}
		snap, err := svc().Look(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(snap.Record.Actions); n != 1 || snap.Record.Actions[0].Seat != 0 || len(snap.Record.Auto) == 0 || snap.Record.Auto[0] != 1 {
			t.Fatalf("after %d clocks ran: %d actions (%+v, auto %v), want ann's one auto-move", i+1, n, snap.Record.Actions, snap.Record.Auto)
		}
	}
}
