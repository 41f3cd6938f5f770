package web_test

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/boardgamebot/bot/adapters/web/webtest"
)

func TestDebugShot(t *testing.T) {
	browser := webtest.Browser(t)
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	f.must(here, alice, "/move b3-a4")
	f.must(here, bob, "/move a6-b5")
	a := open(t, browser, f.link(here, alice))
	a.WaitVersion(4)
	a.Tap("a4")
	var buf []byte
	a.Run(chromedp.FullScreenshot(&buf, 100))
	os.WriteFile("/tmp/h27-shot.png", buf, 0o644)
}
