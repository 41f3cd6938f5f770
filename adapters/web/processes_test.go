package web_test

import (
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
)

// TestWatchAcrossProcesses: two bot processes on one etcd (two services,
// each with its own client); a page watches a game on the first one's
// board while the moves are made in the second: each move, and the end
// of the game, reaches the page within a second (the first process
// follows the sessions' heads with one etcd watch; or, for a store
// without a watch, polls the game's revision); the delay is logged.
func TestWatchAcrossProcesses(t *testing.T) {
	t.Run("watch", func(t *testing.T) { watchAcrossProcesses(t, true) })
	t.Run("poll", func(t *testing.T) { watchAcrossProcesses(t, false) })
}

func watchAcrossProcesses(t *testing.T, follow bool) {
	member, endpoint, err := etcdtest.Start(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { member.Close() }) // after the clients and the hub's watch
	client := func() *clientv3.Client {
		c, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	storeA := etcdstore.New(client(), etcdstore.Options{Prefix: "/bot/"})
	storeB := etcdstore.New(client(), etcdstore.Options{Prefix: "/bot/"})
	o := fixtureOptions{store: storeA, follow: true}
	if !follow {
		o = fixtureOptions{store: storeA, poll: 50 * time.Millisecond}
	}
	a := newFixtureWith(t, o)
	svcB := sessions.New(sessions.Config{Store: storeB})
	defer svcB.Close()
	b := chat.New(chat.Config{Sessions: svcB})
	say := func(u sessions.User, text string) {
		t.Helper()
		if r := b.Handle(ctx, chat.Message{Key: here, User: u, Text: text}); r.Error {
			t.Fatalf("%s in process B: %s", text, r.Text())
		}
	}
	say(alice, "/play spanish @bob color=white")
	say(bob, "/accept")
	page := a.watch(a.links.Board(a.look(here), carol).Watch)
	if st := page.nextState(t); st.Phase != "playing" || len(st.History) != 0 {
		t.Fatalf("first state: %s with %d moves", st.Phase, len(st.History))
	}
	var slowest time.Duration
	for ply := range 4 {
		s, err := svcB.Look(ctx, here)
		if err != nil {
			t.Fatal(err)
		}
		mv := s.State.Moves()[0].Text
		start := time.Now()
		say(s.Player(s.Turn()), "/move "+mv)
		st := page.nextState(t)
		slowest = max(slowest, time.Since(start))
		if slowest > time.Second {
			t.Errorf("ply %d reached the page after %v", ply, slowest)
		}
		if len(st.History) != ply+1 || st.History[ply].Text != mv {
			t.Fatalf("ply %d: the page shows %v, want %s last", ply, st.History, mv)
		}
	}
	say(bob, "/resign")
	if st := page.nextState(t); st.Phase != "finished" || st.Winner != 0 || st.GameID == "" {
		t.Fatalf("after bob resigned in process B: %s, winner %d, id %q", st.Phase, st.Winner, st.GameID)
	}
	t.Logf("the slowest move from process B to the page of process A: %v (follow %t)", slowest, follow)
}
