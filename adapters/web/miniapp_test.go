package web_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/boardgamebot/bot/adapters/web/webtest"
	"github.com/boardgamebot/bot/sessions"
)

// telegramStub is a stand-in for Telegram's window.Telegram.WebApp (a
// client of version 8.0 in its dark theme) that records the page's
// calls in window.tgCalls, and keeps the handlers the page gives its
// BackButton (window.tgBack), its MainButton (window.tgMain) and its
// events (window.tgEvents).
const telegramStub = `window.tgCalls = [];
window.tgEvents = {};
const rec = name => (...a) => { window.tgCalls.push([name, ...a].join(' ')); };
window.Telegram = {WebApp: {
	version: '8.0', colorScheme: 'dark', isFullscreen: false,
	themeParams: {bg_color: '#212121', text_color: '#ffffff', hint_color: '#aaaaaa', button_color: '#8774e1', button_text_color: '#ffffff', secondary_bg_color: '#181818'},
	ready: rec('ready'), expand: rec('expand'),
	isVersionAtLeast: v => v.split('.').map(Number).reduce((a, x, i) => a || (x !== [8, 0][i] ? (x < [8, 0][i] ? 1 : -1) : 0), 0) >= 0,
	onEvent: (name, f) => { window.tgEvents[name] = f; },
	disableVerticalSwipes: rec('disableVerticalSwipes'), enableVerticalSwipes: rec('enableVerticalSwipes'),
	requestFullscreen: rec('requestFullscreen'),
	BackButton: {show: rec('BackButton.show'), hide: rec('BackButton.hide'), onClick: f => { window.tgBack = f; }},
	MainButton: {setText: rec('MainButton.setText'), show: rec('MainButton.show'), hide: rec('MainButton.hide'), onClick: f => { window.tgMain = f; }},
	HapticFeedback: {impactOccurred: rec('impactOccurred'), notificationOccurred: rec('notificationOccurred')},
}};`

// TestMiniAppNative: in Telegram (a stand-in for its WebApp that records
// the calls), the Mini App tells Telegram it is ready and keeps vertical
// swipes from closing it; a piece picked shows the BackButton, which
// puts it down; of two capture paths, the one picked is confirmed by the
// MainButton; a move and a capture are felt (haptics), the game's end
// too; resigning is confirmed by the MainButton; Telegram's theme is
// followed when it changes; full screen is offered and asked for.
func TestMiniAppNative(t *testing.T) {
	browser := webtest.Browser(t)
	f := newFixture(t)
	group := sessions.Key{Platform: "telegram", Channel: "-100780"}
	f.placed(group, "spanish", nil, "W:Wd3,h1:Bc4,c6,e4,e6,a8", alice, bob)
	start := f.links.Board(f.look(group), sessions.User{}).Start
	u := f.srv.URL + "/tg?g=" + url.QueryEscape(start) + "#tgWebAppData=" +
		url.QueryEscape(webtest.InitData(botToken, webtest.TelegramUser{ID: 101, Username: "alice", LanguageCode: "en"}, "", time.Now())) +
		"&tgWebAppVersion=8.0&tgWebAppPlatform=android"
	stub := chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(telegramStub).Do(ctx)
		return err
	})
	p := webtest.OpenWith(t, browser, u, stub,
		network.SetBlockedURLs().WithURLPatterns([]*network.BlockPattern{{URLPattern: "https://telegram.org/*", Block: true}}))
	p.WaitVersion(1)
	calls := func() []string {
		var c []string
		p.Eval(`window.tgCalls`, &c)
		return c
	}
	last := func(prefix string) string {
		c := calls()
		for i := len(c) - 1; i >= 0; i-- {
			if strings.HasPrefix(c[i], prefix) {
				return c[i]
			}
		}
		return ""
	}
	p.WaitFor(`window.tgCalls.includes('ready') && window.tgCalls.includes('disableVerticalSwipes')`)
	if got := p.Attr("html", "data-scheme"); got != "dark" {
		t.Errorf("Telegram's dark theme: the page's scheme is %q", got)
	}

	// A piece picked: the BackButton puts it down.
	p.Tap("d3")
	p.WaitFor(`document.querySelector('[data-square="d3"]').classList.contains('sel') && window.tgCalls.at(-1) !== undefined`)
	if got := last("BackButton."); got != "BackButton.show" {
		t.Fatalf("a piece picked: the BackButton's last call %q", got)
	}
	p.Run(chromedp.Evaluate(`window.tgBack()`, nil))
	p.WaitFor(`document.querySelector('#board .sel') === null`)
	if got := last("BackButton."); got != "BackButton.hide" {
		t.Fatalf("the piece put down: the BackButton's last call %q", got)
	}

	// Two paths to d7: the one picked is played by the MainButton.
	p.Tap("d3")
	p.WaitFor(`document.querySelector('[data-square="d3"]').classList.contains('sel')`)
	p.Tap("d7")
	p.WaitFor(`document.querySelectorAll('#controls button.choice').length === 2`)
	p.Run(chromedp.Click(`#controls button.choice[data-move="d3xf5xd7"]`, chromedp.ByQuery))
	p.WaitFor(`document.querySelector('#controls button.choice[data-move="d3xf5xd7"]').getAttribute('aria-pressed') === 'true'`)
	if n := len(f.look(group).Record.Actions); n != 0 {
		t.Fatalf("a path picked was played (%d actions) before the MainButton confirmed it", n)
	}
	if got := last("MainButton.setText"); got != "MainButton.setText 2. d3xf5xd7" || last("MainButton.") != "MainButton.show" {
		t.Fatalf("a path picked: the MainButton says %q, last %q", got, last("MainButton."))
	}
	p.Run(chromedp.Evaluate(`window.tgMain()`, nil))
	p.WaitVersion(2)
	if s := played(t, f, group, 0); s.Last.Text != "d3xf5xd7" {
		t.Fatalf("the MainButton played %q", s.Last.Text)
	}
	if got := last("notificationOccurred"); got != "notificationOccurred warning" {
		t.Errorf("a capture is felt as %q", got)
	}

	// The other side's move is felt.
	before := len(calls())
	f.must(group, bob, "/move "+f.firstMove(group))
	p.WaitVersion(3)
	p.WaitFor(fmt.Sprintf(`window.tgCalls.length > %d`, before))
	if got := calls()[before:]; !slices.ContainsFunc(got, func(c string) bool {
		return c == "impactOccurred light" || c == "notificationOccurred warning"
	}) {
		t.Errorf("bob's move is not felt: %q", got)
	}

	// Resigning: the MainButton confirms it, and the loss is felt.
	p.Run(chromedp.Click(`#controls button.resign`, chromedp.ByQuery))
	p.WaitFor(`document.querySelector('#controls button.resign-yes') !== null`)
	want := f.chat.Catalogues().In("en").T("WebYesResign")
	if got := last("MainButton.setText"); got != "MainButton.setText "+want || last("MainButton.") != "MainButton.show" {
		t.Fatalf("resigning: the MainButton says %q, last %q", got, last("MainButton."))
	}
	p.Run(chromedp.Evaluate(`window.tgMain()`, nil))
	p.WaitFor(`document.getElementById('board').dataset.phase === 'finished'`)
	if got := p.Text("#status"); !strings.Contains(got, "bob (Black) wins") {
		t.Fatalf("after the MainButton's resignation the page says %q", got)
	}
	p.WaitFor(`window.tgCalls.includes('notificationOccurred error')`)
	if got := last("MainButton."); got != "MainButton.hide" {
		t.Errorf("the game over, the MainButton's last call %q", got)
	}

	// Telegram's theme changes: the page follows.
	p.Run(chromedp.Evaluate(`Object.assign(Telegram.WebApp, {colorScheme: 'light', themeParams: {bg_color: '#ffffff', text_color: '#000000'}}); window.tgEvents.themeChanged()`, nil))
	p.WaitFor(`document.documentElement.dataset.scheme === 'light' && getComputedStyle(document.body).backgroundColor === 'rgb(255, 255, 255)'`)

	// Full screen, on request.
	p.Run(chromedp.Click(`#controls button.fullscreen`, chromedp.ByQuery))
	p.WaitFor(`window.tgCalls.includes('requestFullscreen')`)
}
