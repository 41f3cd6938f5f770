package web_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
)

// TestEtcdRequestsFigure measures the etcd requests (unary calls and
// streams opened, counted on the clients) of 3 bot processes whose pages
// watch 1,000 games each (one stream per game and process): a second
// idle, and 20 moves made in one process; once with the hubs following
// the store's watch of the sessions' heads, once polling every 250ms (as
// before, on 50 games; FIGURE_GAMES=n sets both). It logs the figures
// (go test -run EtcdRequestsFigure -v).
func TestEtcdRequestsFigure(t *testing.T) {
	if testing.Short() {
		t.Skip("3,000 streams on an embedded etcd; run without -short")
	}
	for _, follow := range []bool{true, false} {
		// Polling 1,000 games from 3 processes (12,000 reads a second)
		// does not fit a small machine: it is measured on 50, and grows
		// with the games (4 reads a second each, in each process).
		games := map[bool]int{true: 1000, false: 50}[follow]
		if n, err := strconv.Atoi(os.Getenv("FIGURE_GAMES")); err == nil {
			games = n
		}
		start := time.Now()
		idle, moves := etcdRequests(t, follow, games)
		t.Logf("(%v)", time.Since(start))
		t.Logf("follow %t: %.0f etcd requests a second idle, %.1f per move (3 processes, %d watched games)", follow, idle, moves, games)
	}
}

func etcdRequests(t *testing.T, follow bool, games int) (idle, perMove float64) {
	member, endpoint, err := etcdtest.Start(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { member.Close() })
	var calls atomic.Int64
	unary := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		calls.Add(1)
		return invoker(ctx, method, req, reply, cc, opts...)
	}
	stream := func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		calls.Add(1)
		return streamer(ctx, desc, cc, method, opts...)
	}
	var fs []*fixture
	for range 3 {
		c, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop(),
			DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(unary), grpc.WithChainStreamInterceptor(stream)}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		o := fixtureOptions{store: etcdstore.New(c, etcdstore.Options{Prefix: "/bot/"}), follow: follow}
		if !follow {
			o.poll = 250 * time.Millisecond
		}
		o.hub.StreamsPerAddress, o.hub.StreamsPerGame, o.web.RequestBurst = games+1, games+1, 1<<20
		fs = append(fs, newFixtureWith(t, o))
	}
	key := func(i int) sessions.Key { return sessions.Key{Platform: "console", Channel: fmt.Sprint("c", i)} }
	buf := make([]byte, 64<<10)
	for i := range games {
		link := fs[0].links.Board(fs[0].placed(key(i), "spanish", nil, "", alice, bob), carol).Watch
		path, token := parts(t, link)
		for _, f := range fs {
			conn, err := net.Dial("tcp", strings.TrimPrefix(f.srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.Close() })
			if _, err := io.WriteString(conn, "GET "+path+"/events?t="+token+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
				t.Fatal(err)
			}
			if err := (&watcher{conn: conn}).nextState(buf); err != nil {
				t.Fatal(err)
			}
		}
	}
	time.Sleep(time.Second) // the watches and polls settle
	start, before := time.Now(), calls.Load()
	time.Sleep(2 * time.Second)
	idle = float64(calls.Load()-before) / time.Since(start).Seconds()
	start, before = time.Now(), calls.Load()
	const moves = 20
	for i := range moves {
		f := fs[0]
		s := f.look(key(i))
		f.must(key(i), s.Player(s.Turn()), "/move "+s.State.Moves()[0].Text)
	}
	time.Sleep(time.Second) // the other processes' pages get the moves
	d := time.Since(start).Seconds()
	perMove = (float64(calls.Load()-before) - idle*d) / moves
	return idle, perMove
}
