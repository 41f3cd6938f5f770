package web_test

import (
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/adapters/web/webtest"
	"github.com/boardgamebot/bot/sessions"
)

// themes are the system's colour schemes a page is checked in.
var themes = []string{"light", "dark"}

// scheme emulates the system's colour scheme (light or dark).
func scheme(theme string) chromedp.Action {
	return emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}})
}

// telegramThemes are a light and a dark theme as Telegram's clients send
// them (its default day and night themes).
var telegramThemes = map[string]string{
	"light": `{"bg_color":"#ffffff","text_color":"#000000","hint_color":"#707579","link_color":"#3390ec","button_color":"#3390ec","button_text_color":"#ffffff","secondary_bg_color":"#f4f4f5"}`,
	"dark":  `{"bg_color":"#212121","text_color":"#ffffff","hint_color":"#aaaaaa","link_color":"#8774e1","button_color":"#8774e1","button_text_color":"#ffffff","secondary_bg_color":"#181818"}`,
}

// a11yPage is a page of the web board in the state it is checked in.
type a11yPage struct {
	name string
	open func(t *testing.T, theme string) *webtest.Page
}

// TestAccessibility: axe-core (every rule) finds no violation on any
// page of the web board, in the light theme and the dark: a game to play
// (a piece picked, its targets shown), a game watched, a finished game
// stepped back to a move, a tournament, the Telegram Mini App.
func TestAccessibility(t *testing.T) {
	browser := webtest.Browser(t)
	axe, err := os.ReadFile("testdata/axe/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureWith(t, fixtureOptions{places: sessions.PlaceSet{"console": console.Places{}}})
	f.game(here, alice, bob, "spanish")
	f.must(here, alice, "/move "+f.firstMove(here))
	f.must(here, bob, "/move "+f.firstMove(here))
	done := sessions.Key{Platform: "console", Channel: "finished"}
	f.game(done, alice, bob, "spanish")
	for range 4 {
		s := f.look(done)
		f.must(done, s.Player(s.Turn()), "/move "+f.firstMove(done))
	}
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
	for _, g := range ev.Tournament.Played[0].Games {
		if g.Black != "" {
			f.must(g.Key, sessions.User{ID: g.Black, Name: map[string]string{alice.ID: "alice", bob.ID: "bob", carol.ID: "carol"}[g.Black]}, "/resign")
		}
	}
	group := sessions.Key{Platform: "telegram", Channel: "-100778"}
	f.game(group, alice, bob, "spanish")
	start := f.links.Board(f.look(group), sessions.User{}).Start

	pages := []a11yPage{
		{"play", func(t *testing.T, theme string) *webtest.Page {
			p := webtest.OpenWith(t, browser, f.link(here, alice), scheme(theme))
			p.WaitVersion(f.look(here).Record.Version)
			p.WaitFor(`document.querySelector('#board .movable') !== null`)
			p.Run(chromedp.Click(`#board .movable`, chromedp.ByQuery))
			p.WaitFor(`document.querySelector('#board .sel') !== null && document.querySelector('#board .target') !== null`)
			return p
		}},
		{"watch", func(t *testing.T, theme string) *webtest.Page {
			p := webtest.OpenWith(t, browser, f.links.Board(f.look(here), carol).Watch, scheme(theme))
			p.WaitVersion(f.look(here).Record.Version)
			return p
		}},
		{"finished", func(t *testing.T, theme string) *webtest.Page {
			p := webtest.OpenWith(t, browser, finished, scheme(theme))
			p.WaitFor(`!document.getElementById('replay').hidden && document.getElementById('replay').dataset.frame === '4'`)
			p.Run(chromedp.Click(`#moves li[data-ply="2"]`, chromedp.ByQuery))
			p.WaitFor(`document.querySelector('#moves li[aria-current]')?.dataset.ply === '2'`)
			return p
		}},
		{"tournament", func(t *testing.T, theme string) *webtest.Page {
			p := webtest.OpenWith(t, browser, f.links.Tournament(ev.Tournament), scheme(theme))
			p.WaitFor(`document.readyState === 'complete'`)
			return p
		}},
		{"miniapp", func(t *testing.T, theme string) *webtest.Page {
			u := f.srv.URL + "/tg?g=" + url.QueryEscape(start) + "#tgWebAppData=" +
				url.QueryEscape(webtest.InitData(botToken, webtest.TelegramUser{ID: 102, Username: "bob", LanguageCode: "en"}, "", time.Now())) +
				"&tgWebAppVersion=7.0&tgWebAppPlatform=android&tgWebAppThemeParams=" + url.QueryEscape(telegramThemes[theme])
			p := webtest.OpenWith(t, browser, u, scheme(theme),
				network.SetBlockedURLs().WithURLPatterns([]*network.BlockPattern{{URLPattern: "https://telegram.org/*", Block: true}}))
			p.WaitVersion(f.look(group).Record.Version)
			return p
		}},
	}
	for _, pg := range pages {
		for _, theme := range themes {
			t.Run(pg.name+"/"+theme, func(t *testing.T) {
				p := pg.open(t, theme)
				for _, v := range p.Axe(string(axe)) {
					t.Errorf("axe: %s", v)
				}
			})
		}
	}
}
