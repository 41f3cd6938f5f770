package web_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/boardgamebot/bot/adapters/web/webtest"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// page is one browser tab on the board.
type page struct {
	t   *testing.T
	ctx context.Context

	mu     sync.Mutex
	errors []string // the page's script errors and console lines
}

// open opens url in a new tab of the browser.
func open(t *testing.T, browser context.Context, url string) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	p := &page{t: t, ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			p.errors = append(p.errors, "exception: "+e.ExceptionDetails.Text+" "+describe(e.ExceptionDetails.Exception))
		case *runtime.EventConsoleAPICalled:
			for _, a := range e.Args {
				p.errors = append(p.errors, "console: "+string(a.Value)+" "+a.Description)
			}
		}
	})
	// The tab lives as long as the context of its first Run: that one
	// has no timeout.
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	p.run(chromedp.Navigate(url))
	return p
}

func describe(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	return o.Description
}

// run runs actions in the tab; a step that fails (or waits more than a
// minute: the machine is slow, not the page) fails the test with what
// the page says and its script errors.
func (p *page) run(actions ...chromedp.Action) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		var status string
		diag, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		defer cancel()
		_ = chromedp.Run(diag, chromedp.Evaluate(`document.getElementById('status')?.textContent + ' | ' + document.getElementById('notice')?.textContent + ' | v=' + document.getElementById('board')?.dataset.v`, &status))
		p.mu.Lock()
		defer p.mu.Unlock()
		p.t.Fatalf("browser: %v (page says %q; its errors: %q)", err, status, p.errors)
	}
}

// waitFor waits until the page's JavaScript expression is true.
func (p *page) waitFor(expr string) {
	p.t.Helper()
	var ok bool
	p.run(chromedp.Poll(expr, &ok, chromedp.WithPollingInterval(5*time.Millisecond)))
}

// waitVersion waits until the board shows version v of the game.
func (p *page) waitVersion(v int) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`document.getElementById('board').dataset.v >= %d`, v))
}

// tap clicks a square, as a user does (a mouse press and release on it).
func (p *page) tap(sq string) {
	p.t.Helper()
	p.run(chromedp.Click(fmt.Sprintf(`[data-square="%s"]`, sq), chromedp.ByQuery))
}

// eval evaluates a JavaScript expression in the page.
func (p *page) eval(expr string, out any) {
	p.t.Helper()
	p.run(chromedp.Evaluate(expr, out))
}

// text is an element's text.
func (p *page) text(sel string) string {
	p.t.Helper()
	var s string
	p.run(chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q)?.textContent ?? ''`, sel), &s))
	return s
}

// attr is an attribute of an element.
func (p *page) attr(sel, name string) string {
	p.t.Helper()
	var s string
	p.run(chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q)?.getAttribute(%q) ?? ''`, sel, name), &s))
	return s
}

// playByTaps plays move m in the page by its taps: the piece, then each
// square the series needs until its move is the only one (the last
// square, or the whole path where two series end alike).
func (p *page) playByTaps(m rules.Move, legal []rules.Move) {
	p.t.Helper()
	p.tap(m.From.String())
	p.waitFor(fmt.Sprintf(`document.querySelector('[data-square="%s"]').classList.contains('sel')`, m.From))
	p.tap(m.To.String())
	same := 0
	for _, o := range legal {
		if o.From == m.From && o.To == m.To {
			same++
		}
	}
	if same > 1 {
		p.waitFor(`document.querySelectorAll('#controls button.choice').length > 1`)
		p.run(chromedp.Click(fmt.Sprintf(`//div[@id="controls"]/button[contains(concat(" ", @class, " "), " choice ") and substring-after(text(), ". ")=%q]`, m.Text), chromedp.BySearch))
	}
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
	for _, pg := range []*page{a, b, w} {
		pg.waitVersion(f.look(here).Record.Version)
	}
	if got := w.attr("#board", "data-fen"); got != f.look(here).State.FEN() {
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
		mover.playByTaps(m, legal)
		v := s.Record.Version + 1
		for _, pg := range []*page{a, b, w} {
			pg.waitVersion(v)
		}
		after := f.look(here)
		if len(after.Record.Actions) != len(s.Record.Actions)+1 || after.Last.Text != m.Text {
			t.Fatalf("ply %d: the chat's game has %d actions, last %v; want %s played", ply, len(after.Record.Actions), after.Last, m.Text)
		}
		if got := w.attr("#board", "data-fen"); got != after.State.FEN() {
			t.Fatalf("ply %d: the watcher shows %q, the game is at %q", ply, got, after.State.FEN())
		}
		if got := w.attr("#board", "data-turn"); got != fmt.Sprint(after.Turn()) {
			t.Fatalf("ply %d: the watcher's data-turn %q, want %d", ply, got, after.Turn())
		}
		if items := w.text("#moves"); !strings.Contains(items, m.Text) {
			t.Fatalf("ply %d: the move list %q lacks %s", ply, items, m.Text)
		}
	}
	if n := len(f.notices.kinds(sessions.NoticeEvent)); n != 6 {
		t.Fatalf("%d moves posted in the channel, want 6", n)
	}
}
