package webtest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/boardgamebot/bot/rules"
)

// Page is one browser tab on the web board, driven as a user drives it:
// by clicks and keys, waiting for what the page shows (its data
// attributes), never for a time.
type Page struct {
	t   testing.TB
	ctx context.Context

	mu       sync.Mutex
	errors   []string // the page's script errors and console lines
	requests []string // the URLs the page asked for
}

// Open opens url in a new tab of the browser (Browser's context).
func Open(t testing.TB, browser context.Context, url string) *Page {
	t.Helper()
	return OpenWith(t, browser, url)
}

// OpenWith opens url in a new tab of the browser after running the
// actions before in the tab (the requests' headers, URLs to block).
func OpenWith(t testing.TB, browser context.Context, url string, before ...chromedp.Action) *Page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	p := &Page{t: t, ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			desc := ""
			if e.ExceptionDetails.Exception != nil {
				desc = e.ExceptionDetails.Exception.Description
			}
			p.errors = append(p.errors, "exception: "+e.ExceptionDetails.Text+" "+desc)
		case *runtime.EventConsoleAPICalled:
			for _, a := range e.Args {
				p.errors = append(p.errors, "console: "+string(a.Value)+" "+a.Description)
			}
		case *network.EventRequestWillBeSent:
			p.requests = append(p.requests, e.Request.URL)
		}
	})
	// The tab lives as long as the context of its first Run: that one
	// has no timeout.
	if err := chromedp.Run(ctx, network.Enable()); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	p.Run(append(before, chromedp.Navigate(url))...)
	return p
}

// Context is the tab's context, for chromedp actions of a test's own.
func (p *Page) Context() context.Context { return p.ctx }

// Requests returns the URLs the page asked for so far.
func (p *Page) Requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...)
}

// Errors returns the page's script errors and console lines so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// Run runs actions in the tab; a step that fails, or waits more than a
// minute (a machine that slow is broken, not busy), fails the test with
// what the page says and its script errors.
func (p *Page) Run(actions ...chromedp.Action) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		var says string
		diag, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		defer cancel()
		_ = chromedp.Run(diag, chromedp.Evaluate(`['status','notice'].map(id => document.getElementById(id)?.textContent).join(' | ') + ' | v=' + document.getElementById('board')?.dataset.v`, &says))
		p.t.Fatalf("browser: %v (the page says %q; its errors: %q)", err, says, p.Errors())
	}
}

// WaitFor waits until the JavaScript expression is true in the page.
func (p *Page) WaitFor(expr string) {
	p.t.Helper()
	var ok bool
	p.Run(chromedp.Poll(expr, &ok, chromedp.WithPollingInterval(5*time.Millisecond)))
}

// WaitVersion waits until the board shows version v of its game or a
// later one (#board's data-v).
func (p *Page) WaitVersion(v int) {
	p.t.Helper()
	p.WaitFor(fmt.Sprintf(`Number(document.getElementById('board').dataset.v) >= %d`, v))
}

// Tap clicks a square of the board, as a user does: the mouse pressed and
// released on it.
func (p *Page) Tap(sq string) {
	p.t.Helper()
	p.Run(chromedp.Click(fmt.Sprintf(`[data-square="%s"]`, sq), chromedp.ByQuery))
}

// Eval evaluates a JavaScript expression in the page into out.
func (p *Page) Eval(expr string, out any) {
	p.t.Helper()
	p.Run(chromedp.Evaluate(expr, out))
}

// Text is the text of the element sel selects ("" for none).
func (p *Page) Text(sel string) string {
	p.t.Helper()
	var s string
	p.Eval(fmt.Sprintf(`document.querySelector(%q)?.textContent ?? ''`, sel), &s)
	return s
}

// Attr is an attribute of the element sel selects ("" for none).
func (p *Page) Attr(sel, name string) string {
	p.t.Helper()
	var s string
	p.Eval(fmt.Sprintf(`document.querySelector(%q)?.getAttribute(%q) ?? ''`, sel, name), &s)
	return s
}

// PlayByTaps plays move m (one of legal, the moves now) by its taps: the
// piece, then the square where the move ends; where several moves of the
// piece end there, the path among those the page then shows.
func (p *Page) PlayByTaps(m rules.Move, legal []rules.Move) {
	p.t.Helper()
	// The page shows the position where this move is the player's: the
	// piece is marked as one that can move.
	p.WaitFor(fmt.Sprintf(`document.querySelector('[data-square="%s"]')?.classList.contains('movable')`, m.From))
	p.Tap(m.From.String())
	p.WaitFor(fmt.Sprintf(`document.querySelector('[data-square="%s"]').classList.contains('sel')`, m.From))
	p.Tap(m.To.String())
	same := 0
	for _, o := range legal {
		if o.From == m.From && o.To == m.To {
			same++
		}
	}
	if same > 1 {
		p.WaitFor(`document.querySelectorAll('#controls button.choice').length > 1`)
		p.Run(chromedp.Click(fmt.Sprintf(`#controls button.choice[data-move=%q]`, m.Text), chromedp.ByQuery))
	}
}
