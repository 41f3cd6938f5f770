package etcdstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// cli is the client of the one etcd member the tests of this package
// share (started by TestMain); each test keeps its keys under its own
// prefix.
var cli *clientv3.Client

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "etcdstore")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	e, endpoint, err := etcdtest.Start(dir, false)
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting etcd:", err)
		return 1
	}
	defer e.Close()
	cli, err = clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcd client:", err)
		return 1
	}
	defer cli.Close()
	return m.Run()
}

// open returns a Store of its own on the shared member, under the test's
// prefix (empty when the test starts: the test's keys are deleted when it
// ends, so that -count=N runs it on an empty store each time).
func open(t *testing.T) *etcdstore.Store {
	prefix := "/" + t.Name() + "/"
	t.Cleanup(func() {
		if _, err := cli.Delete(context.Background(), prefix, clientv3.WithPrefix()); err != nil {
			t.Errorf("deleting the test's keys: %v", err)
		}
	})
	return etcdstore.New(cli, etcdstore.Options{Prefix: prefix})
}

func TestContract(t *testing.T) {
	sessionstest.TestStore(t, func(t *testing.T) sessions.Store { return open(t) })
}

// TestOpen: Open reaches the member by its endpoint, and names the
// endpoints of one that does not answer.
func TestOpen(t *testing.T) {
	ctx := context.Background()
	s, err := etcdstore.Open(ctx, etcdstore.Config{Endpoints: cli.Endpoints(), Prefix: "/" + t.Name() + "/"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Load(ctx, sessions.Key{Platform: "test", Channel: "x"}); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("Load on an empty prefix: %v, want ErrNotFound", err)
	}
	port, err := etcdtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	nobody := fmt.Sprintf("127.0.0.1:%d", port)
	if _, err := etcdstore.Open(ctx, etcdstore.Config{Endpoints: []string{nobody}, DialTimeout: 300 * time.Millisecond}); err == nil || !strings.Contains(err.Error(), nobody) {
		t.Fatalf("Open of an endpoint nobody listens on: %v", err)
	}
	if _, err := etcdstore.Open(ctx, etcdstore.Config{Endpoints: cli.Endpoints(), CAFile: filepath.Join(t.TempDir(), "none.pem")}); err == nil {
		t.Fatal("Open with a missing CA file succeeded")
	}
}
