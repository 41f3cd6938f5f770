package etcdstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
)

// TestWatchHeads: a process follows the sessions' heads through a link
// the test cuts: the changes another process commits arrive in order
// with their versions, a session removed arrives as gone; the changes
// made while the link was cut arrive once it is back, without a gap;
// changes etcd compacted meanwhile are reported lost, and the watch goes
// on after them.
func TestWatchHeads(t *testing.T) {
	proxy, err := etcdtest.StartProxy(cli.Endpoints()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	wcli, err := clientv3.New(clientv3.Config{Endpoints: []string{proxy.Addr()}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer wcli.Close()
	writer := open(t)
	prefix := "/" + t.Name() + "/"
	follower := etcdstore.New(wcli, etcdstore.Options{Prefix: prefix})

	var mu sync.Mutex
	var got []sessions.HeadChange
	lost := 0
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- follower.WatchHeads(ctx, func(cs []sessions.HeadChange) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, cs...)
		}, func() {
			mu.Lock()
			defer mu.Unlock()
			lost++
		})
	}()
	defer func() {
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("WatchHeads ended with %v", err)
		}
	}()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
			mu.Lock()
			yes := ok()
			mu.Unlock()
			if yes {
				return
			}
			if time.Since(start) > 20*time.Second {
				t.Fatalf("no %s: got %+v, lost %d", what, got, lost)
			}
		}
	}
	k1 := sessions.Key{Platform: "console", Channel: "one"}
	k2 := sessions.Key{Platform: "console", Channel: "two"}
	created := time.Now().UTC().Truncate(time.Second)
	commit := func(k sessions.Key, v int) {
		t.Helper()
		rec := &sessions.Record{V: sessions.RecordVersion, Key: k, Game: "spanish", Seats: []sessions.User{{ID: "1", Name: "a"}, {ID: "2", Name: "b"}},
			Created: created, Started: created, Updated: created, Version: v}
		if err := writer.Commit(context.Background(), &sessions.Change{Key: k, Live: rec, At: created}); err != nil {
			t.Fatal(err)
		}
	}
	// The watch starts from the revision at its call: a change made
	// before is not reported. Changes of a third session until one is.
	k0 := sessions.Key{Platform: "console", Channel: "zero"}
	for v := 1; ; v++ {
		commit(k0, v)
		seen := false
		for range 20 {
			mu.Lock()
			seen = len(got) > 0 && got[len(got)-1].Version == v // the last one made: none other to come
			mu.Unlock()
			if seen {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if seen {
			break
		}
	}
	mu.Lock()
	got = nil
	mu.Unlock()
	commit(k1, 1)
	waitFor("first change", func() bool { return len(got) == 1 })
	if c := got[0]; c.Key != k1 || c.Version != 1 || !c.Created.Equal(created) || c.Gone {
		t.Fatalf("first change: %+v", c)
	}

	proxy.Cut()
	commit(k1, 2)
	commit(k2, 1)
	commit(k1, 3)
	if err := writer.Commit(context.Background(), &sessions.Change{Key: k2, At: created}); err != nil {
		t.Fatal(err)
	}
	proxy.Reset()
	waitFor("changes made while cut", func() bool { return len(got) == 5 })
	want := []sessions.HeadChange{{Key: k1, Version: 2}, {Key: k2, Version: 1}, {Key: k1, Version: 3}, {Key: k2, Gone: true}}
	for i, w := range want {
		c := got[1+i]
		if c.Key != w.Key || c.Version != w.Version || c.Gone != w.Gone {
			t.Fatalf("change %d: %+v, want %+v", 1+i, c, w)
		}
	}

	proxy.Cut()
	commit(k1, 4)
	commit(k1, 5)
	resp, err := cli.Get(context.Background(), prefix, clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cli.Compact(context.Background(), resp.Header.Revision); err != nil {
		t.Fatal(err)
	}
	proxy.Reset()
	waitFor("the loss reported", func() bool { return lost == 1 })
	commit(k1, 6)
	waitFor("the change after the loss", func() bool { return len(got) > 0 && got[len(got)-1].Version == 6 })
}
