//go:build !noetcd

package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
)

// watched is an output that tells when it was written to.
type watched struct {
	mu      sync.Mutex
	b       bytes.Buffer
	written chan struct{}
}

func newWatched() *watched { return &watched{written: make(chan struct{}, 1)} }

func (w *watched) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.written <- struct{}{}:
	default:
	}
	return w.b.Write(p)
}

func (w *watched) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// waitFor waits until the output holds want.
func (w *watched) waitFor(t *testing.T, want string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for !strings.Contains(w.String(), want) {
		select {
		case <-w.written:
		case <-timeout:
			t.Fatalf("no %q in:\n%s", want, w.String())
		}
	}
}

// TestTwoConsolesOnOneEtcd runs two consoles on one etcd, as two bot
// processes: a move made in one is seen by the other, which refuses the
// same move again, and the finished game is in both.
func TestTwoConsolesOnOneEtcd(t *testing.T) {
	e, endpoint, err := etcdtest.Start(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	conf := func() config {
		c := consoleConfig(t, "/nonexistent/never-opened.db")
		c.Storage.Etcd.Endpoints = endpoint
		return c
	}
	inA, feedA := io.Pipe()
	outA, logA := newWatched(), newWatched()
	done := make(chan error, 1)
	go func() { done <- runConsole(context.Background(), conf(), inA, outA, logA, false) }()
	io.WriteString(feedA, "/play spanish @bob color=white\n/as bob\n/accept\n/as alice\n/move b3-a4\n")
	outA.waitFor(t, "alice (White) played b3-a4.")

	var outB, logB bytes.Buffer
	if err := runConsole(context.Background(), conf(), strings.NewReader("/as bob\n/move e6-f5\n"), &outB, &logB, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(outB.String(), "bob (Black) played e6-f5.") {
		t.Fatalf("the second console:\n%s\nlog:\n%s", outB.String(), logB.String())
	}

	// The first console sees bob's move, and refuses it a second time.
	io.WriteString(feedA, "/board\n/as bob\n/move e6-f5\n/as alice\n/resign\n")
	outA.waitFor(t, "Last move: e6-f5.")
	outA.waitFor(t, "It is alice's turn (White), not yours")
	outA.waitFor(t, "Saved as game #1.")
	feedA.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(outA.String(), "played e6-f5"); n != 0 {
		t.Fatalf("the first console applied bob's move itself (%d times):\n%s", n, outA.String())
	}

	outB.Reset()
	if err := runConsole(context.Background(), conf(), strings.NewReader("/as bob\n/history\n/rating\n"), &outB, &logB, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(outB.String(), "#1 ") || !strings.Contains(outB.String(), "bob won (White resigned), 2 moves.") {
		t.Fatalf("the game finished in the first console, in the second's history:\n%s", outB.String())
	}
}
