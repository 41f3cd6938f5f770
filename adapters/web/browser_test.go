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
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

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
	t.Run("Captures", func(t *testing.T) { browserCaptures(t, browser) })
	t.Run("HalmaJumps", func(t *testing.T) { browserHalmaJumps(t, browser) })
	t.Run("Refusal", func(t *testing.T) { browserRefusal(t, browser) })
	t.Run("Offers", func(t *testing.T) { browserOffers(t, browser) })
	t.Run("Finished", func(t *testing.T) { browserFinished(t, browser) })
	t.Run("Keyboard", func(t *testing.T) { browserKeyboard(t, browser) })
	t.Run("Spanish", func(t *testing.T) { browserSpanish(t, browser) })
	t.Run("MiniApp", func(t *testing.T) { browserMiniApp(t, browser) })
	t.Run("DragDark", func(t *testing.T) { browserDragDark(t, browser) })
	t.Run("TokenOutOfAddress", func(t *testing.T) { browserTokenOutOfAddress(t, browser) })
	t.Run("Review", func(t *testing.T) { browserReview(t, browser) })
}

// browserTokenOutOfAddress: a link's token in its fragment (#t=) opens
// the board, and an old link's ?t= too; either way the page's address
// keeps no token afterwards, the board works (a move played by taps), and
// no request's address carries the link's own token (the stream's
// carries a derived one).
func browserTokenOutOfAddress(t *testing.T, browser context.Context) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	link := f.link(here, alice)
	if !strings.Contains(link, "#t=") || strings.Contains(link, "?t=") {
		t.Fatalf("the link %q: want its token in the fragment", link)
	}
	_, tok := parts(t, link)
	old := strings.Replace(link, "#t=", "?t=", 1)
	for _, c := range []struct{ name, link string }{{"fragment", link}, {"query", old}} {
		pg := open(t, browser, c.link)
		pg.WaitVersion(f.look(here).Record.Version)
		var href string
		pg.Eval("location.href", &href)
		if strings.Contains(href, tok) || strings.Contains(href, "t=") {
			t.Errorf("%s: the address after opening is %q", c.name, href)
		}
		for _, r := range pg.Requests() {
			if c.name == "fragment" && strings.Contains(r, tok) {
				t.Errorf("%s: a request's address carries the link's token: %q", c.name, r)
			}
		}
	}
	s := f.look(here)
	legal := s.State.Moves()
	a := open(t, browser, link)
	a.WaitVersion(s.Record.Version)
	a.PlayByTaps(legal[0], legal)
	a.WaitVersion(s.Record.Version + 1)
	if after := f.look(here); after.Record.Version != s.Record.Version+1 || after.Last.Text != legal[0].Text {
		t.Fatalf("the move by taps on a fragment link: version %d, last %v", after.Record.Version, after.Last)
	}
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
	// Nothing came from another host, and the page said nothing wrong.
	server, _ := url.Parse(f.srv.URL)
	for _, pg := range []*webtest.Page{a, b, w} {
		for _, r := range pg.Requests() {
			if u, err := url.Parse(r); err != nil || (u.Host != server.Host && u.Scheme != "data") {
				t.Errorf("a page asked for %q, on another host than the bot's %s", r, server.Host)
			}
		}
		if errs := pg.Errors(); len(errs) > 0 {
			t.Errorf("a page's script errors: %q", errs)
		}
	}
}

// awaitPromise makes chromedp.Evaluate wait for the promise the
// expression returns.
func awaitPromise(p *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams {
	return p.WithAwaitPromise(true)
}

// played waits until the game at key has had one more action than
// before, and returns it.
func played(t *testing.T, f *fixture, key sessions.Key, before int) *sessions.Snapshot {
	t.Helper()
	s := f.look(key)
	if len(s.Record.Actions) != before+1 {
		t.Fatalf("%d actions, want %d", len(s.Record.Actions), before+1)
	}
	return s
}

// browserCaptures: a capture series is one move, played by tapping its
// first and last squares; where two series end on the same square, the
// page shows both paths to choose from, and the one chosen is played.
func browserCaptures(t *testing.T, browser context.Context) {
	f := newFixture(t)
	f.placed(here, "spanish", nil, "W:Wb3,h1:Bc4,e6,a8", alice, bob)
	a := open(t, browser, f.link(here, alice))
	a.WaitVersion(1)
	a.Tap("b3")
	a.WaitFor(`document.querySelector('[data-square="f7"]').classList.contains('target')`)
	if strings.Contains(a.Attr(`[data-square="d5"]`, "class"), "target") {
		t.Fatal("d5, a square the series passes, is offered as a target")
	}
	a.Tap("f7")
	a.WaitVersion(2)
	if s := played(t, f, here, 0); s.Last.Text != "b3xd5xf7" {
		t.Fatalf("played %q, want b3xd5xf7", s.Last.Text)
	}
	// The series is marked on every page: its path and the men taken.
	a.WaitFor(`document.querySelectorAll('#board .cross').length === 2`)

	g := newFixture(t)
	s := g.placed(there, "spanish", nil, "W:Wd3,h1:Bc4,c6,e4,e6,a8", alice, bob)
	p := open(t, browser, g.link(there, alice))
	p.WaitVersion(1)
	p.Tap("d3")
	p.WaitFor(`document.querySelector('[data-square="d7"]').classList.contains('target')`)
	p.Tap("d7")
	p.WaitFor(`document.querySelectorAll('#controls button.choice').length === 2 && document.querySelectorAll('#board polyline.choice').length === 2`)
	if n := len(g.look(there).Record.Actions); n != 0 {
		t.Fatalf("a move was played (%d actions) before its path was chosen", n)
	}
	var choose []string
	p.Eval(`[...document.querySelectorAll('#controls button.choice')].map(b => b.dataset.move)`, &choose)
	if strings.Join(choose, " ") != "d3xb5xd7 d3xf5xd7" {
		t.Fatalf("the choices %v, want both series", choose)
	}
	p.Run(chromedp.Click(`#controls button.choice[data-move="d3xf5xd7"]`, chromedp.ByQuery))
	p.WaitVersion(2)
	if after := played(t, g, there, 0); after.Last.Text != "d3xf5xd7" || len(s.State.Moves()) != 2 {
		t.Fatalf("played %q, want d3xf5xd7", after.Last.Text)
	}
}

// browserHalmaJumps: a Halma jump series is one move: the piece, then
// the square where the series ends.
func browserHalmaJumps(t *testing.T, browser context.Context) {
	f := newFixture(t)
	f.placed(here, "halma", map[string]string{"size": "8"}, "8:2:1:c1:c2,c4,c6", alice, bob)
	a := open(t, browser, f.link(here, alice))
	a.WaitVersion(1)
	a.Tap("c1")
	a.WaitFor(`['c3','c5','c7'].every(s => document.querySelector('[data-square="'+s+'"]').classList.contains('target'))`)
	a.Tap("c7")
	a.WaitVersion(2)
	if s := played(t, f, here, 0); s.Last.Text != "c1-c7" || len(s.Last.Path) != 4 {
		t.Fatalf("played %q by %v, want the series c1-c3-c5-c7", s.Last.Text, s.Last.Path)
	}
}

// browserRefusal: an action the game refuses (a takeback with no move to
// take back) is shown in the page, in the chat's words, and changes
// nothing.
func browserRefusal(t *testing.T, browser context.Context) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	a := open(t, browser, f.link(here, alice))
	a.WaitVersion(2)
	a.Run(chromedp.Click(`#controls button.takeback`, chromedp.ByQuery))
	a.WaitFor(`document.getElementById('notice').dataset.refused === '1'`)
	want := f.chat.Catalogues().In("en").T("RefusedNoTakeback")
	if got := a.Text("#notice"); got != want {
		t.Fatalf("the page shows %q, want %q", got, want)
	}
	if s := f.look(here); len(s.Record.Actions) != 0 || s.Record.Version != 2 {
		t.Fatalf("the refusal changed the game: %d actions, version %d", len(s.Record.Actions), s.Record.Version)
	}
	// Resigning asks first; "No, play on" resigns nothing.
	a.Run(chromedp.Click(`#controls button.resign`, chromedp.ByQuery))
	a.WaitFor(`document.querySelector('#controls button.resign-no') !== null`)
	a.Run(chromedp.Click(`#controls button.resign-no`, chromedp.ByQuery))
	a.WaitFor(`document.querySelector('#controls button.resign') !== null`)
	if s := f.look(here); s.Record.Result != nil {
		t.Fatal("the game ended on a resignation not confirmed")
	}
	a.Run(chromedp.Click(`#controls button.resign`, chromedp.ByQuery))
	a.WaitFor(`document.querySelector('#controls button.resign-yes') !== null`)
	a.Run(chromedp.Click(`#controls button.resign-yes`, chromedp.ByQuery))
	a.WaitFor(`document.getElementById('board').dataset.phase === 'finished'`)
	if !strings.Contains(a.Text("#status"), "bob (Black) wins") {
		t.Fatalf("after resigning the page says %q", a.Text("#status"))
	}
}

// browserFinished: a finished game's page steps through its moves (the
// buttons, the move list, the arrow keys) and downloads its record.
func browserFinished(t *testing.T, browser context.Context) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	// The game's positions, before and after each move, as the page marks
	// its squares (square=seat:level), for the frames to show.
	var positions []string
	position := func() string {
		var ps []string
		for _, p := range f.look(here).State.View().Pieces {
			ps = append(ps, fmt.Sprintf("%s=%d:%d", p.Square, p.Seat, p.Level))
		}
		slices.Sort(ps)
		return strings.Join(ps, " ")
	}
	for range 4 {
		s := f.look(here)
		positions = append(positions, position())
		f.must(here, s.Player(s.Turn()), "/move "+f.firstMove(here))
	}
	positions = append(positions, position())
	watch := f.links.Board(f.look(here), carol).Watch
	f.must(here, bob, "/resign")
	w := open(t, browser, watch)
	w.WaitFor(`!document.getElementById('replay').hidden && document.getElementById('replay').dataset.frame === '4'`)
	pieces := func() string {
		var s string
		w.Eval(`[...document.querySelectorAll('#board [data-piece]')].map(e => e.dataset.square + '=' + e.dataset.piece).sort().join(' ')`, &s)
		return s
	}
	atEnd := pieces()
	w.Run(chromedp.Click(`#replay .first`, chromedp.ByQuery))
	w.WaitFor(`document.getElementById('replay').dataset.frame === '0'`)
	start := pieces()
	if start == atEnd || !strings.Contains(start, "b3=0:1") || strings.Count(start, "=") != 24 {
		t.Fatalf("the first frame shows %s", start)
	}
	if start != positions[0] || atEnd != positions[4] {
		t.Fatalf("the frames show %s ... %s, the game went from %s to %s", start, atEnd, positions[0], positions[4])
	}
	w.Run(chromedp.Click(`#replay .forward`, chromedp.ByQuery))
	w.WaitFor(`document.getElementById('replay').dataset.frame === '1' && document.querySelector('#moves li[aria-current]').dataset.ply === '1'`)
	w.Run(chromedp.KeyEvent(kb.ArrowRight))
	w.WaitFor(`document.getElementById('replay').dataset.frame === '2'`)
	if got := pieces(); got != positions[2] {
		t.Fatalf("the frame after two moves shows %s, the game was at %s", got, positions[2])
	}
	w.Run(chromedp.KeyEvent(kb.End))
	w.WaitFor(`document.getElementById('replay').dataset.frame === '4'`)
	if got := pieces(); got != atEnd {
		t.Fatalf("the last frame shows %s, the game ended at %s", got, atEnd)
	}
	w.Run(chromedp.Click(`#moves li[data-ply="2"]`, chromedp.ByQuery))
	w.WaitFor(`document.getElementById('replay').dataset.frame === '2'`)
	w.Run(chromedp.Click(`#replay .auto`, chromedp.ByQuery))
	w.WaitFor(`document.getElementById('replay').dataset.frame === '4'`)
	var pdn string
	w.Run(chromedp.Evaluate(`fetch(document.getElementById('download').href).then(r => r.text())`, &pdn, awaitPromise))
	if !strings.Contains(pdn, `[White "alice"]`) || !strings.Contains(pdn, `[Result "1-0"]`) {
		t.Fatalf("the download:\n%s", pdn)
	}
}

// browserKeyboard: a game played with the keyboard alone: Tab reaches the
// board, the arrow keys move the focus from playable square to playable
// square (up: the row above, on the nearest playable column, the left
// first), Enter picks the piece and then its target. Every playable
// square is labelled for screen readers by what it shows first, its
// number ("12, b3, White man"); the others are presentation.
func browserKeyboard(t *testing.T, browser context.Context) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	a := open(t, browser, f.link(here, alice))
	a.WaitVersion(2)
	if got := a.Attr(`[data-square="b3"]`, "aria-label"); got != "12, b3, White man" {
		t.Fatalf("b3's label %q", got)
	}
	if got := a.Attr(`[data-square="a4"]`, "aria-label"); got != "16, a4, empty" {
		t.Fatalf("a4's label %q", got)
	}
	if role, label := a.Attr(`[data-square="a1"]`, "role"), a.Attr(`[data-square="a1"]`, "aria-label"); role != "presentation" || label != "" {
		t.Fatalf("a1, a square no piece stands on in Spanish draughts: role %q, label %q", role, label)
	}
	a.Run(chromedp.KeyEvent(kb.Tab))
	a.WaitFor(`document.activeElement.dataset.square === 'b1'`)
	// b1 to b3 by a2 (alice sees White's side: rank 1 below).
	a.Run(chromedp.KeyEvent(kb.ArrowUp))
	a.WaitFor(`document.activeElement.dataset.square === 'a2'`)
	a.Run(chromedp.KeyEvent(kb.ArrowUp))
	a.WaitFor(`document.activeElement.dataset.square === 'b3'`)
	a.Run(chromedp.KeyEvent(kb.Enter))
	a.WaitFor(`document.querySelector('[data-square="b3"]').classList.contains('sel') && document.activeElement.dataset.square === 'b3'`)
	a.Run(chromedp.KeyEvent(kb.ArrowUp))
	a.WaitFor(`document.activeElement.dataset.square === 'a4'`)
	a.Run(chromedp.KeyEvent(kb.Enter))
	a.WaitVersion(3)
	if s := played(t, f, here, 0); s.Last.Text != "b3-a4" {
		t.Fatalf("played %q, want b3-a4", s.Last.Text)
	}
	a.WaitFor(`document.getElementById('announce').textContent === 'alice (White) played b3-a4.'`)
}

// browserSpanish: the page speaks the reader's language: a player's
// chosen language (/lang es), or a watcher's browser's (Accept-Language).
func browserSpanish(t *testing.T, browser context.Context) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	f.must(here, bob, "/lang es")
	b := open(t, browser, f.link(here, bob))
	b.WaitVersion(2)
	if got := b.Text("#status"); got != "Juega alice (Blancas)." {
		t.Fatalf("bob's page says %q", got)
	}
	if got, lang := b.Text("#controls button.draw"), b.Attr("html", "lang"); got != "Ofrecer tablas" || lang != "es" {
		t.Fatalf("bob's page: draw button %q, lang %q", got, lang)
	}
	if got := b.Attr(`[data-square="b7"]`, "aria-label"); got != "28, b7, peón de Negras" {
		t.Fatalf("b7's label %q", got)
	}
	w := webtest.OpenWith(t, browser, f.links.Board(f.look(here), carol).Watch,
		network.SetExtraHTTPHeaders(network.Headers{"Accept-Language": "es-MX,es;q=0.9,en;q=0.5"}))
	w.WaitVersion(2)
	if status := w.Text("#status"); status != "Juega alice (Blancas)." {
		t.Fatalf("a watcher whose browser asks for Spanish reads %q", status)
	}
}

// miniApp opens the Mini App's entry (/tg, the game g names) as Telegram
// does, with its launch data in the address's fragment, Telegram's own
// script unreachable (the page works without it).
func miniApp(t *testing.T, browser context.Context, base, g, initData string) *webtest.Page {
	t.Helper()
	u := base + "/tg"
	if g != "" {
		u += "?g=" + url.QueryEscape(g)
	}
	u += "#tgWebAppData=" + url.QueryEscape(initData) + "&tgWebAppVersion=7.0&tgWebAppPlatform=android&tgWebAppThemeParams=" +
		url.QueryEscape(`{"bg_color":"#102030","text_color":"#f0f0f0","button_color":"#3390ec"}`)
	return webtest.OpenWith(t, browser, u,
		network.SetBlockedURLs().WithURLPatterns([]*network.BlockPattern{{URLPattern: "https://telegram.org/*", Block: true}}))
}

// browserMiniApp: the Telegram Mini App signs its user in with Telegram's
// launch data: signed for this bot and recent, the board opens for them
// (to play: bob plays this game) and takes Telegram's theme; forged or
// stale, the page says so and shows no board; from the menu button (no
// game named) it opens the game of the user's private chat with the bot.
func browserMiniApp(t *testing.T, browser context.Context) {
	f := newFixture(t)
	group := sessions.Key{Platform: "telegram", Channel: "-100777"}
	f.game(group, alice, bob, "spanish")
	start := f.links.Board(f.look(group), sessions.User{}).Start
	now := time.Now()
	bobTG := webtest.TelegramUser{ID: 102, Username: "bob", LanguageCode: "en"}
	p := miniApp(t, browser, f.srv.URL, start, webtest.InitData(botToken, bobTG, "", now))
	p.WaitVersion(2)
	if mode := p.Attr("#app", "data-mode"); mode != "play" {
		t.Fatalf("bob's Mini App is in mode %q, want play", mode)
	}
	var bg string
	p.Eval(`document.documentElement.style.getPropertyValue('--bg')`, &bg)
	if bg != "#102030" {
		t.Fatalf("Telegram's theme: --bg is %q", bg)
	}
	f.must(group, alice, "/move b3-a4")
	p.WaitVersion(3)
	legal := f.look(group).State.Moves()
	p.PlayByTaps(legal[0], legal)
	p.WaitVersion(4)
	if s := played(t, f, group, 1); s.Last.Text != legal[0].Text {
		t.Fatalf("bob's move from the Mini App: %v", s.Last)
	}
	// The page asked for Telegram's script (the test blocks it, as a
	// network that cannot reach Telegram would), and works without it.
	if !slices.Contains(p.Requests(), "https://telegram.org/js/telegram-web-app.js") {
		t.Errorf("the Mini App never asked for Telegram's script: %q", p.Requests())
	}

	en := f.chat.Catalogues().In("en")
	forged := webtest.InitData(botToken, bobTG, "", now)
	forged = strings.Replace(forged, "bob", "alice", 1) // the user changed, the hash kept
	for _, c := range []struct {
		name, data, want string
	}{
		{"forged", forged, en.T("WebInitForged")},
		{"another bot's", webtest.InitData("654321:another-bot", bobTG, "", now), en.T("WebInitForged")},
		{"stale", webtest.InitData(botToken, bobTG, "", now.Add(-2*time.Hour)), en.T("WebInitStale")},
	} {
		p := miniApp(t, browser, f.srv.URL, start, c.data)
		p.WaitFor(`document.getElementById('board').dataset.phase === 'refused'`)
		if got := p.Text("#status"); got != c.want {
			t.Errorf("%s launch data: the page says %q, want %q", c.name, got, c.want)
		}
		if n := p.Attr("#board", "data-v"); n != "" {
			t.Errorf("%s launch data: a board (version %s) was shown", c.name, n)
		}
	}

	// The menu button of bob's private chat: his game there.
	private := sessions.Key{Platform: "telegram", Channel: "102"}
	f.must(private, bob, "/play spanish @bob color=white")
	f.must(private, bob, "/accept")
	p = miniApp(t, browser, f.srv.URL, "", webtest.InitData(botToken, bobTG, "", now))
	p.WaitVersion(2)
	if fen := p.Attr("#board", "data-fen"); fen != f.look(private).State.FEN() || p.Attr("#app", "data-mode") != "play" {
		t.Fatalf("the menu button's Mini App shows %q in mode %s", fen, p.Attr("#app", "data-mode"))
	}
}

// browserOffers: a takeback asked in one page is answered in the other
// (the board goes back), a draw offered in one page is accepted in the
// other (the game ends drawn), and the clock counts down on both.
func browserOffers(t *testing.T, browser context.Context) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish time=1h")
	a := open(t, browser, f.link(here, alice))
	b := open(t, browser, f.link(here, bob))
	a.WaitVersion(2)
	b.WaitVersion(2)
	a.WaitFor(`Number(document.getElementById('clock').dataset.left) > 3000`)
	if got := a.Text("#clock"); !strings.HasPrefix(got, "59:") && !strings.HasPrefix(got, "1:00:") {
		t.Fatalf("the clock shows %q, want about an hour", got)
	}
	legal := f.look(here).State.Moves()
	a.PlayByTaps(legal[0], legal)
	a.WaitVersion(3)
	a.Run(chromedp.Click(`#controls button.takeback`, chromedp.ByQuery))
	b.WaitFor(`document.getElementById('notes').textContent.startsWith('alice (White) asks to take back their last move.') && document.querySelector('#controls button.accept') !== null`)
	b.Run(chromedp.Click(`#controls button.accept`, chromedp.ByQuery))
	a.WaitFor(`document.getElementById('moves').children.length === 0 && document.getElementById('board').dataset.turn === '0'`)
	if s := f.look(here); s.Last != nil || s.Turn() != 0 {
		t.Fatalf("after the takeback: last %v, turn %d", s.Last, s.Turn())
	}
	a.Run(chromedp.Click(`#controls button.draw`, chromedp.ByQuery))
	b.WaitFor(`document.getElementById('notes').textContent.startsWith('alice (White) offers a draw.')`)
	b.Run(chromedp.Click(`#controls button.accept`, chromedp.ByQuery))
	a.WaitFor(`document.getElementById('board').dataset.phase === 'finished'`)
	if got := a.Text("#status"); !strings.HasPrefix(got, "Game over: draw (draw agreed).") {
		t.Fatalf("after the draw: %q", got)
	}
}

// browserDragDark: a piece dragged to its target is played, as two taps
// are; the page takes the dark theme when the system asks for it.
func browserDragDark(t *testing.T, browser context.Context) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	a := webtest.OpenWith(t, browser, f.link(here, alice),
		emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
	a.WaitVersion(2)
	var bg string
	a.Eval(`getComputedStyle(document.body).backgroundColor`, &bg)
	if bg != "rgb(23, 24, 27)" {
		t.Fatalf("the dark theme's background is %s", bg)
	}
	centre := func(sq string) (x, y float64) {
		var c []float64
		a.Eval(fmt.Sprintf(`(r => [r.x + r.width/2, r.y + r.height/2])(document.querySelector('[data-square="%s"]').getBoundingClientRect())`, sq), &c)
		return c[0], c[1]
	}
	fx, fy := centre("d3")
	tx, ty := centre("c4")
	a.WaitFor(`document.querySelector('[data-square="d3"]').classList.contains('movable')`)
	held := func(p *input.DispatchMouseEventParams) *input.DispatchMouseEventParams {
		return p.WithButton(input.Left).WithButtons(1).WithClickCount(1)
	}
	// Pressed on d3, released on c4 (Chromium's moves with a button held
	// wait for a drag that never comes: the page needs only the ends).
	a.Run(chromedp.MouseEvent(input.MousePressed, fx, fy, held))
	a.WaitFor(`document.querySelector('[data-square="d3"]').classList.contains('sel')`)
	a.Run(chromedp.MouseEvent(input.MouseReleased, tx, ty, held))
	a.WaitVersion(3)
	if s := played(t, f, here, 0); s.Last.Text != "d3-c4" {
		t.Fatalf("the drag played %q, want d3-c4", s.Last.Text)
	}
}
