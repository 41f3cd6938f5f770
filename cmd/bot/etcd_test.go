//go:build !noetcd

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
)

// TestTwoConsolesOnOneEtcd runs two consoles on one etcd, as two bot
// processes: a move made in one is seen by the other, which refuses the
// same move again, and the finished game and its ratings are in both.
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
	if err := runConsole(context.Background(), conf(), strings.NewReader("/as bob\n/move a6-b5\n"), &outB, &logB, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(outB.String(), "bob (Black) played a6-b5.") {
		t.Fatalf("the second console:\n%s\nlog:\n%s", outB.String(), logB.String())
	}

	// The first console sees bob's move, and refuses it a second time.
	io.WriteString(feedA, "/board\n/as bob\n/move a6-b5\n")
	outA.waitFor(t, "Last move: a6-b5.")
	outA.waitFor(t, "It is alice's turn (White), not yours")
	// Eleven more moves each, so that bob's win counts for the ratings.
	for i, m := range strings.Fields("a2-b3 b5-c4 b3xd5 e6xc4 d3xb5 c6-d5 b5-c6 d7xb5 a4xc6 f7-e6 e2-d3 c8-d7 h3-g4 d7xb5 d1-e2 g8-f7 g4-f5 g6xe4 d3xf5xd7 e8xc6 b1-a2 b5-c4") {
		io.WriteString(feedA, []string{"/as alice\n", "/as bob\n"}[i%2]+"/move "+m+"\n")
	}
	io.WriteString(feedA, "/as alice\n/resign\n")
	outA.waitFor(t, "Saved as game #1.")
	feedA.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(outA.String(), "played a6-b5"); n != 0 {
		t.Fatalf("the first console applied bob's move itself (%d times):\n%s", n, outA.String())
	}

	outB.Reset()
	if err := runConsole(context.Background(), conf(), strings.NewReader("/as bob\n/history\n/rating\n"), &outB, &logB, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(outB.String(), "#1 ") || !strings.Contains(outB.String(), "bob won (White resigned), 24 moves.") {
		t.Fatalf("the game finished in the first console, in the second's history:\n%s", outB.String())
	}
	// The rating the first process wrote is the second's.
	if want := fmt.Sprintf("spanish: %d all time (1 game: 1 won", 1000+sessions.EloDelta(1000, 1000, 1)); !strings.Contains(outB.String(), want) {
		t.Fatalf("no %q in the second console:\n%s", want, outB.String())
	}
}

// TestSameMoveFromTwoConsoles: two bot processes on one etcd get the same
// move for the same turn at once; it is played once, and the other process
// refuses it as the turn has passed.
func TestSameMoveFromTwoConsoles(t *testing.T) {
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
	var setup, log bytes.Buffer
	if err := runConsole(context.Background(), conf(), strings.NewReader("/play spanish @bob color=white\n/as bob\n/accept\n"), &setup, &log, false); err != nil {
		t.Fatal(err)
	}
	for round := range 10 {
		// Each round starts from the first position: the move is taken
		// back after it.
		move := "/as alice\n/move " + []string{"b3-a4", "d3-e4"}[round%2] + "\n"
		var outs [2]bytes.Buffer
		var wg sync.WaitGroup
		for p := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var log bytes.Buffer
				if err := runConsole(context.Background(), conf(), strings.NewReader(move), &outs[p], &log, false); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		played := strings.Count(outs[0].String()+outs[1].String(), "alice (White) played")
		refused := strings.Count(outs[0].String()+outs[1].String(), "It is bob's turn (Black), not yours")
		if played != 1 || refused != 1 {
			t.Fatalf("round %d: played %d times, refused %d times:\n%s\n----\n%s", round, played, refused, outs[0].String(), outs[1].String())
		}
		var back bytes.Buffer
		if err := runConsole(context.Background(), conf(), strings.NewReader("/takeback\n/as bob\n/accept\n"), &back, &log, false); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(back.String(), "taken back") {
			t.Fatalf("round %d: no takeback:\n%s", round, back.String())
		}
	}
}
