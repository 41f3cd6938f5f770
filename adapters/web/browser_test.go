package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/web/webtest"
	"github.com/boardgamebot/bot/sessions"
)

// open opens url in a new tab of the browser.
func open(t *testing.T, browser context.Context, url string) *webtest.Page {
	t.Helper()
	return webtest.Open(t, browser, url)
}

// TestBrowser plays on the board in a real browser (headless Chromium):
// every subtest shares one browser.
func TestBrowser(t *testing.T) {
	browser := webtest.Browser(t)
	t.Run("GameByTaps", func(t *testing.T) { browserGame(t, browser) })
}

// browserGame: two pages play a short game against each other by taps
// only, and a third page watches it live; the chat sees every move.
func browserGame(t *testing.T, browser context.Context) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	a := open(t, browser, f.link(here, alice))
	b := open(t, browser, f.link(here, bob))
	w := open(t, browser, f.links.Board(f.look(here), carol).Watch)
	for _, pg := range []*webtest.Page{a, b, w} {
		pg.WaitVersion(f.look(here).Record.Version)
	}
	if got := w.Attr("#board", "data-fen"); got != f.look(here).State.FEN() {
		t.Fatalf("watcher's board data-fen %q, want %q", got, f.look(here).State.FEN())
	}
	for ply := range 6 {
		s := f.look(here)
		mover := a
		if s.Turn() == 1 {
			mover = b
		}
		legal := s.State.Moves()
		m := legal[(ply*7)%len(legal)]
		mover.PlayByTaps(m, legal)
		v := s.Record.Version + 1
		for _, pg := range []*webtest.Page{a, b, w} {
			pg.WaitVersion(v)
		}
		after := f.look(here)
		if len(after.Record.Actions) != len(s.Record.Actions)+1 || after.Last.Text != m.Text {
			t.Fatalf("ply %d: the chat's game has %d actions, last %v; want %s played", ply, len(after.Record.Actions), after.Last, m.Text)
		}
		if got := w.Attr("#board", "data-fen"); got != after.State.FEN() {
			t.Fatalf("ply %d: the watcher shows %q, the game is at %q", ply, got, after.State.FEN())
		}
		if got := w.Attr("#board", "data-turn"); got != fmt.Sprint(after.Turn()) {
			t.Fatalf("ply %d: the watcher's data-turn %q, want %d", ply, got, after.Turn())
		}
		if items := w.Text("#moves"); !strings.Contains(items, m.Text) {
			t.Fatalf("ply %d: the move list %q lacks %s", ply, items, m.Text)
		}
	}
	if n := len(f.notices.kinds(sessions.NoticeEvent)); n != 6 {
		t.Fatalf("%d moves posted in the channel, want 6", n)
	}
}
