package web_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/adapters/web/webtest"
	"github.com/boardgamebot/bot/sessions"
)

// boardTree is a JavaScript expression: the board's squares, marks and
// coordinates as a text, element by element with their attributes
// sorted, to compare two drawings of a board.
const boardTree = `(() => {
	const walk = e => e.nodeType === 3 ? JSON.stringify(e.data) : '<' + e.nodeName + ' ' +
		[...e.attributes].map(a => a.name + '=' + JSON.stringify(a.value)).sort().join(' ') + '>' + [...e.childNodes].map(walk).join('') + '</>';
	return [...document.getElementById('board').childNodes].map(walk).join('\n');
})()`

// boardBoxJS is the board's box on the page, in CSS px.
const boardBoxJS = `(r => [r.x, r.y, r.width, r.height].map(Math.round).join(' '))(document.getElementById('board').getBoundingClientRect())`

// shiftWatch records the page's layout shifts from its start
// (PerformanceObserver, layout-shift), in window.shifts.
var shiftWatch = chromedp.ActionFunc(func(ctx context.Context) error {
	_, err := page.AddScriptToEvaluateOnNewDocument(`window.shifts = [];
new PerformanceObserver(l => { for (const e of l.getEntries()) window.shifts.push({value: e.value,
	sources: e.sources.map(s => s.node ? (s.node.id || s.node.nodeName) : '')}); }).observe({type: 'layout-shift', buffered: true});`).Do(ctx)
	return err
})

// shifts is what the page's layout shifted so far: their sum, and a
// line for each.
func shifts(p *webtest.Page) (float64, string) {
	var got []struct {
		Value   float64  `json:"value"`
		Sources []string `json:"sources"`
	}
	// Two frames drawn: every shift so far is reported.
	p.Run(chromedp.Evaluate(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(window.shifts))))`, &got, awaitPromise))
	sum, lines := 0.0, []string{}
	for _, s := range got {
		sum += s.Value
		lines = append(lines, fmt.Sprintf("%.4f %v", s.Value, s.Sources))
	}
	return sum, strings.Join(lines, "; ")
}

// phone is a phone's screen: 360 by 740 CSS px.
var phone = emulation.SetDeviceMetricsOverride(360, 740, 2, true)

// TestFirstPaint: the board is in the page's first paint. With scripts
// off, the page shows the board with the game's pieces where they stand;
// with scripts on, the script takes over the same board (the same
// elements, attributes and box), and nothing on any page moves as the
// script and the stream fill it in (layout shifts sum to 0, on a desktop
// and on a phone). On a phone the squares' numbers are at least 11 px,
// drawn over the pieces; where the board is large enough, its squares
// are at least 44 px.
func TestFirstPaint(t *testing.T) {
	browser := webtest.Browser(t)
	f := newFixtureWith(t, fixtureOptions{places: sessions.PlaceSet{"console": console.Places{}}})
	f.game(here, alice, bob, "spanish time=1h")
	for range 3 {
		s := f.look(here)
		f.must(here, s.Player(s.Turn()), "/move "+f.firstMove(here))
	}
	snap := f.look(here)
	var want []string
	for _, p := range snap.State.View().Pieces {
		want = append(want, fmt.Sprintf("%s=%d:%d", p.Square, p.Seat, p.Level))
	}
	pieces := `[...document.querySelectorAll('#board [data-piece]')].map(e => e.dataset.square + '=' + e.dataset.piece).sort().join(' ')`

	// Scripts off: the board as the server draws it.
	off := webtest.OpenWith(t, browser, f.link(here, bob), emulation.SetScriptExecutionDisabled(true))
	off.WaitFor(`document.readyState === 'complete'`)
	var got, treeOff, boxOff string
	off.Eval(pieces, &got)
	wantText := strings.Join(slices.Sorted(slices.Values(want)), " ")
	if got != wantText {
		t.Fatalf("with scripts off the board shows %s, the game has %s", got, wantText)
	}
	if last := off.Attr("#board .last", "data-square"); last == "" {
		t.Error("with scripts off the last move is not marked")
	}
	if status := off.Text("#status"); status == "" || off.Text("#moves") == "" || off.Text("#clock") == "" {
		t.Errorf("with scripts off the panel is empty: status %q, moves %q", status, off.Text("#moves"))
	}
	off.Eval(boardTree, &treeOff)
	off.Eval(boardBoxJS, &boxOff)

	// Scripts on: the same board, taken over.
	on := webtest.OpenWith(t, browser, f.link(here, bob))
	on.WaitVersion(snap.Record.Version)
	var treeOn, boxOn string
	on.Eval(boardTree, &treeOn)
	on.Eval(boardBoxJS, &boxOn)
	if treeOn != treeOff {
		t.Errorf("the script's board differs from the server's:\nserver: %s\nscript: %s", firstDiff(treeOff, treeOn), firstDiff(treeOn, treeOff))
	}
	if boxOn != boxOff {
		t.Errorf("the board's box is %s before the script and %s after", boxOff, boxOn)
	}
	for _, r := range on.Requests() {
		if strings.Contains(r, "/state") {
			t.Errorf("the page asked for its state (%s): it carries it", r)
		}
	}

	// No layout shift on any page, on a desktop or a phone.
	done := sessions.Key{Platform: "console", Channel: "finished"}
	f.game(done, alice, bob, "spanish")
	f.must(done, alice, "/move "+f.firstMove(done))
	finished := f.links.Board(f.look(done), carol).Watch
	f.must(done, bob, "/resign")
	tourKey := sessions.Key{Platform: "console", Channel: "club"}
	f.must(tourKey, alice, "/tournament new spanish rounds=1")
	for _, u := range []sessions.User{alice, bob, carol} {
		f.must(tourKey, u, "/tournament join")
	}
	f.must(tourKey, alice, "/tournament start")
	ev, err := f.svc.TournamentHere(ctx, tourKey)
	if err != nil {
		t.Fatal(err)
	}
	group := sessions.Key{Platform: "telegram", Channel: "-100779"}
	f.game(group, alice, bob, "spanish")
	start := f.links.Board(f.look(group), sessions.User{}).Start
	mini := f.srv.URL + "/tg?g=" + url.QueryEscape(start) + "#tgWebAppData=" +
		url.QueryEscape(webtest.InitData(botToken, webtest.TelegramUser{ID: 102, Username: "bob", LanguageCode: "en"}, "", time.Now())) +
		"&tgWebAppVersion=7.0&tgWebAppPlatform=android&tgWebAppThemeParams=" + url.QueryEscape(telegramThemes["light"])
	noTelegram := network.SetBlockedURLs().WithURLPatterns([]*network.BlockPattern{{URLPattern: "https://telegram.org/*", Block: true}})
	for _, c := range []struct {
		name, url, ready string
	}{
		{"play", f.link(here, bob), fmt.Sprintf(`Number(document.getElementById('board').dataset.v) >= %d && document.querySelector('#controls button') !== null`, snap.Record.Version)},
		{"watch", f.links.Board(snap, carol).Watch, `document.getElementById('board').dataset.v && document.querySelector('#controls button') !== null`},
		{"finished", finished, `!document.getElementById('replay').hidden`},
		{"tournament", f.links.Tournament(ev.Tournament), `document.readyState === 'complete'`},
		{"miniapp", mini, `document.getElementById('board').dataset.v && document.querySelector('#controls button') !== null`},
	} {
		for _, screen := range []string{"desktop", "phone"} {
			t.Run(c.name+"/"+screen, func(t *testing.T) {
				// In front: a page in the background paints nothing, and
				// shifts nothing.
				before := []chromedp.Action{page.BringToFront(), shiftWatch, noTelegram}
				if screen == "phone" {
					before = append(before, phone)
				}
				p := webtest.OpenWith(t, browser, c.url, before...)
				p.WaitFor(c.ready)
				if sum, lines := shifts(p); sum != 0 {
					t.Errorf("the layout shifted by %.4f: %s", sum, lines)
				}
			})
		}
	}

	// On a phone, the numbers are at least 11 px and over the pieces; on
	// a desktop the squares are at least 44 px.
	p := webtest.OpenWith(t, browser, f.link(here, bob), phone)
	p.WaitVersion(snap.Record.Version)
	var px []float64
	p.Eval(`(() => { const t = document.querySelector('#board .num'); const k = document.getElementById('board').getScreenCTM().a;
		return [Number(t.getAttribute('font-size')) * k, t === t.parentNode.lastElementChild ? 1 : 0]; })()`, &px)
	if px[0] < 11 || px[1] != 1 {
		t.Errorf("on a phone the squares' numbers are %.1f px (want at least 11), drawn last: %v", px[0], px[1] == 1)
	}
	var square float64
	on.Eval(`document.querySelector('#board [data-square] rect').getBoundingClientRect().width`, &square)
	if square < 44 {
		t.Errorf("on a desktop the squares are %.1f px, want at least 44", square)
	}
}

// firstDiff is a from the first line where it differs from b.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range al {
		if i >= len(bl) || al[i] != bl[i] {
			return al[i]
		}
	}
	return "(the same lines, fewer)"
}
