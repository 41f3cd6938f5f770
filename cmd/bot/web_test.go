package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/web/webtest"
	"github.com/boardgamebot/bot/rules/games"
)

// waitOutput waits until the console has printed want (a minute at
// most: the console prints it at once; only a broken test waits that
// long).
func waitOutput(t *testing.T, b *syncBuffer, want string) {
	t.Helper()
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(5 * time.Millisecond) {
		if strings.Contains(b.String(), want) {
			return
		}
	}
	t.Fatalf("no %q in:\n%s", want, b.String())
}

// freeAddr is a loopback address nobody listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

var boardLink = regexp.MustCompile(`http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_-]+(\?v=[A-Za-z0-9_-]+)?#t=[A-Za-z0-9_-]+`)

// TestConsoleWebBoard: with web.listen set, /web in the console prints
// each player's own link; two browser pages on those links play a game by
// taps, and the console prints every move as it is made.
func TestConsoleWebBoard(t *testing.T) {
	browser := webtest.Browser(t)
	c := consoleConfig(t, filepath.Join(t.TempDir(), "bot.db"))
	c.Web.Listen = freeAddr(t)
	if err := checkWeb(&c); err != nil {
		t.Fatal(err)
	}
	in, feed := io.Pipe()
	var out, log syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runConsole(ctx, c, in, &out, &log, false) }()
	defer func() {
		feed.Close()
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	io.WriteString(feed, "/play spanish @bob color=white\n/as bob\n/accept\n/web\n/as alice\n/web\n")
	waitOutput(t, &out, "alice> /web\n")
	var links []string
	for start := time.Now(); len(links) < 2 && time.Since(start) < time.Minute; time.Sleep(5 * time.Millisecond) {
		links = boardLink.FindAllString(out.String(), -1)
	}
	if len(links) != 2 {
		t.Fatalf("the console printed %d board links:\n%s", len(links), out.String())
	}
	pages := []*webtest.Page{webtest.Open(t, browser, links[1]), webtest.Open(t, browser, links[0])} // alice's, bob's
	g, err := games.New("spanish", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := g.Start(0)
	names := []string{"alice (White)", "bob (Black)"}
	for ply := range 6 {
		moves := st.Moves()
		m := moves[(ply*5)%len(moves)]
		pages[st.Turn()].PlayByTaps(m, moves)
		waitOutput(t, &out, fmt.Sprintf("%s played %s.", names[st.Turn()], m.Text))
		if st, _, err = st.Play(m.Text); err != nil {
			t.Fatal(err)
		}
	}
	io.WriteString(feed, "/board\n")
	waitOutput(t, &out, "FEN: "+st.FEN())
}
