package web_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/boardgamebot/bot/adapters/web/webtest"
	"github.com/boardgamebot/bot/sessions"
)

// clickGraph clicks the review's graph where it draws ply i of n.
func clickGraph(t *testing.T, w *webtest.Page, i, n int) {
	t.Helper()
	var xy []float64
	w.Eval(fmt.Sprintf(`(() => { const g = document.getElementById('graph'); g.scrollIntoView({block: 'center'});
		const r = g.getBoundingClientRect(); const u = r.width / 308;
		return [r.left + (4 + %d * 300 / %d) * u, r.top + r.height / 2]; })()`, i, max(1, n-1)), &xy)
	w.Run(chromedp.MouseClickXY(xy[0], xy[1]))
}

// browserReview: a reviewed game's page draws the graph (one point per
// ply), marks the mistakes in the move list, steps to the ply clicked
// on the graph, shows the better move as an arrow after a mistake, and
// "find the better move" accepts the better moves played by taps, one
// mistake after the other. A game with no review shows no graph; a
// four-player game's graph has one line per seat.
func browserReview(t *testing.T, browser context.Context) {
	f := newFixture(t)
	id, watch := reviewedGame(t, f, here)
	rec, err := f.svc.StoredReview(ctx, id)
	if err != nil || rec == nil {
		t.Fatalf("the review: %v %v", rec, err)
	}
	n := len(reviewedMoves)
	w := open(t, browser, watch)
	w.WaitFor(`!document.getElementById('review').hidden && document.getElementById('replay').dataset.frame === '4'`)
	var points int
	w.Eval(`document.querySelector('#graph path.graph-line').getAttribute('d').match(/[ML]/g).length`, &points)
	if points != n {
		t.Fatalf("the graph's path has %d points, the game %d plies", points, n)
	}
	if got := w.Text(`#moves li[data-ply="1"]`); got != "c6-d5??" {
		t.Fatalf("the first move in the list: %q, want c6-d5??", got)
	}
	if got := w.Attr(`#moves li[data-ply="4"]`, "data-mark"); got != "" {
		t.Fatalf("the last move (forced) is marked %q", got)
	}
	var marks int
	w.Eval(`document.querySelectorAll('#graph .graph-mark').length`, &marks)
	if marks != 2 {
		t.Fatalf("%d mistakes marked on the graph, want 2", marks)
	}
	// A click on the graph steps to that ply.
	clickGraph(t, w, 2, n)
	w.WaitFor(`document.getElementById('replay').dataset.frame === '3'`)
	if w.Attr("#board g.best", "data-from") != "" {
		t.Fatalf("an arrow after a move not marked")
	}
	clickGraph(t, w, 0, n)
	w.WaitFor(`document.getElementById('replay').dataset.frame === '1'`)
	best := rec.Review.Plies[0].Best
	w.WaitFor(fmt.Sprintf(`!!document.querySelector('#board g.best[data-from=%q][data-to=%q]')`, best[:2], best[len(best)-2:]))
	if line := w.Text("#review-line"); !strings.Contains(line, best) {
		t.Fatalf("at the mistake the review says %q, want the better move %s", line, best)
	}
	// Find the better move: the first mistake's position, c6-b5 by taps.
	w.Run(chromedp.Click(`#review .find-better`, chromedp.ByQuery))
	w.WaitFor(`document.getElementById('review').dataset.trying === '0' && document.getElementById('replay').dataset.frame === '0'`)
	if w.Attr("#board g.best", "data-from") != "" {
		t.Fatalf("the arrow gives the answer away while trying")
	}
	en := f.chat.Catalogues().In("en")
	tryTaps := func(from, to string) {
		w.WaitFor(fmt.Sprintf(`document.querySelector('[data-square="%s"]')?.classList.contains('movable')`, from))
		w.Tap(from)
		w.WaitFor(fmt.Sprintf(`document.querySelector('[data-square="%s"]').classList.contains('sel')`, from))
		w.Tap(to)
	}
	tryTaps("c6", "b5")
	// Accepted: on to the next mistake, alice's f3-e4.
	w.WaitFor(`document.getElementById('review').dataset.trying === '1' && document.getElementById('replay').dataset.frame === '1'`)
	if line := w.Text("#review-line"); !strings.HasPrefix(line, "c6-b5 ") {
		t.Fatalf("after c6-b5 the review says %q", line)
	}
	// A move that does not do: refused, the same mistake stays.
	tryTaps("f3", "e4")
	w.WaitFor(`document.getElementById('review-line').textContent.startsWith('f3-e4 ')`)
	if got := w.Attr("#review", "data-trying"); got != "1" {
		t.Fatalf("after a refused move the page tries ply %s", got)
	}
	tryTaps("f3", "g4")
	w.WaitFor(`document.getElementById('review').dataset.trying === '-1'`)
	if line := w.Text("#review-line"); !strings.Contains(line, en.T("WebBetterDone")) {
		t.Fatalf("after the last mistake the review says %q", line)
	}
	if errs := w.Errors(); len(errs) > 0 {
		t.Errorf("the page's script errors: %q", errs)
	}
	// A finished game with no review: no graph, the replay as ever.
	_, plain := finishedGame(t, f, there)
	p := open(t, browser, plain)
	p.WaitFor(`!document.getElementById('replay').hidden && document.getElementById('replay').dataset.frame === '4'`)
	var hidden bool
	p.Eval(`document.getElementById('review').hidden && !document.getElementById('graph')`, &hidden)
	if !hidden || p.Text(`#moves li[data-ply="1"]`) != "c6-d5" {
		t.Fatalf("a game with no review: the review panel hidden %v, the first move %q", hidden, p.Text(`#moves li[data-ply="1"]`))
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page's script errors: %q", errs)
	}
	// Four-player Halma: one line per seat, in its colour.
	h := open(t, browser, halmaReviewed(t, f, sessions.Key{Platform: "console", Channel: "halma"}))
	h.WaitFor(`!document.getElementById('review').hidden`)
	var lines []string
	h.Eval(`[...document.querySelectorAll('#graph path.seat-line')].map(p => p.getAttribute('class').split(' ').pop() + ':' + p.getAttribute('d').match(/[ML]/g).length)`, &lines)
	if want := []string{"c-red:8", "c-blue:8", "c-green:8", "c-yellow:8"}; !slices.Equal(lines, want) {
		t.Fatalf("the four-player graph's lines: %v, want %v", lines, want)
	}
	if errs := h.Errors(); len(errs) > 0 {
		t.Errorf("the page's script errors: %q", errs)
	}
}
