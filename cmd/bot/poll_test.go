//go:build !noetcd

package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// tinyTelegram is a Bot API server that answers what a bot with no
// updates asks, and tells which token polls: each process of the test
// has its own token, to be told apart.
type tinyTelegram struct {
	mu      sync.Mutex
	changed chan struct{}
	calls   []string // "TOKEN METHOD"
}

func (f *tinyTelegram) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := strings.Split(strings.TrimPrefix(r.URL.Path, "/bot"), "/")
	if len(p) != 2 {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	f.calls = append(f.calls, p[0]+" "+p[1])
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
	var result any = true
	switch p[1] {
	case "getMe":
		result = map[string]any{"id": 999, "is_bot": true, "first_name": "Board", "username": "BoardBot"}
	case "getUpdates":
		// No update comes: wait like a long poll, until the bot gives up.
		select {
		case <-r.Context().Done():
			return
		case <-time.After(time.Second):
		}
		result = []any{}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

// wait waits for call ("TOKEN getUpdates") from index from on and
// returns the index after it.
func (f *tinyTelegram) wait(t *testing.T, from int, call string) int {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		f.mu.Lock()
		for i := from; i < len(f.calls); i++ {
			if f.calls[i] == call {
				f.mu.Unlock()
				return i + 1
			}
		}
		ch := f.changed
		f.mu.Unlock()
		select {
		case <-ch:
		case <-timeout:
			t.Fatalf("no %q after call %d", call, from)
		}
	}
}

func (f *tinyTelegram) since(from int) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls[from:]...)
}

// TestTelegramPollsInOneProcess runs two bot processes (bot run) with
// Telegram in long-polling mode on one etcd: only one polls; when it
// stops, the other does.
func TestTelegramPollsInOneProcess(t *testing.T) {
	e, endpoint, err := etcdtest.Start(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	f := &tinyTelegram{changed: make(chan struct{})}
	srv := httptest.NewServer(f)
	defer srv.Close()
	start := func(token string) func() {
		c := consoleConfig(t, "/nonexistent/never-opened.db")
		c.Storage.Etcd.Endpoints = endpoint
		c.Telegram.Token, c.Telegram.APIEndpoint = token, srv.URL
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- runPlatforms(ctx, c, io.Discard, restartPause{first: time.Second, most: time.Second}) }()
		var once sync.Once
		return func() {
			once.Do(func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("%s: %v", token, err)
				}
			})
		}
	}
	stopA := start("1:A")
	defer stopA()
	f.wait(t, 0, "1:A getUpdates")
	wctx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	wc := cli.Watch(wctx, etcdstore.DefaultPrefix+etcdstore.PollElection+"/", clientv3.WithPrefix())
	stopB := start("1:B")
	defer stopB()
	// B campaigns behind A: its key in the election.
	select {
	case <-wc:
	case <-time.After(20 * time.Second):
		t.Fatal("the second process did not campaign")
	}
	m := f.wait(t, 0, "1:B setMyCommands")
	f.wait(t, m, "1:A getUpdates") // A polls on
	for _, c := range f.since(0) {
		if c == "1:B getUpdates" {
			t.Fatalf("both processes poll: %v", f.since(0))
		}
	}
	m = len(f.since(0))
	stopA()
	f.wait(t, m, "1:B getUpdates")
}
