package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/adapters/web/webtest"
	"github.com/boardgamebot/bot/sessions"
)

// TestTournamentLive: a tournament's page watched in a browser updates
// when a result comes in: the round's game shows its result, the
// standings and the crosstable count it (the round complete), each game
// shows its board linked to its page, and the crosstable says which
// results it counts; its og:image is the standings' picture.
func TestTournamentLive(t *testing.T) {
	browser := webtest.Browser(t)
	f := newFixtureWith(t, fixtureOptions{places: sessions.PlaceSet{"console": console.Places{}}})
	club := sessions.Key{Platform: "console", Channel: "club"}
	f.must(club, alice, "/tournament new spanish rounds=1")
	for _, u := range []sessions.User{alice, bob, carol} {
		f.must(club, u, "/tournament join")
	}
	f.must(club, alice, "/tournament start")
	ev, err := f.svc.TournamentHere(ctx, club)
	if err != nil {
		t.Fatal(err)
	}
	var game sessions.TourGame
	for _, g := range ev.Tournament.Played[0].Games {
		if g.Black != "" {
			game = g
		}
	}
	users := map[string]sessions.User{alice.ID: alice, bob.ID: bob, carol.ID: carol}
	link := f.links.Tournament(ev.Tournament)
	p := webtest.Open(t, browser, link)
	p.WaitFor(`document.querySelector('ol.round a svg.mini') !== null`)
	if got := p.Attr("ol.round a", "href"); !strings.Contains(got, "/g/") {
		t.Fatalf("the game's board links to %q", got)
	}
	if note := p.Text("#tournament .note"); note != f.chat.Catalogues().In("en").T("WebCrosstableNote") {
		t.Errorf("the crosstable's note: %q", note)
	}
	before := p.Attr("#live", "data-v")
	f.must(game.Key, users[game.Black], "/resign")
	p.WaitFor(`document.getElementById('live').dataset.v !== '` + before + `'`)
	want := users[game.White].Name + " – " + users[game.Black].Name + ": 1-0"
	if got := p.Text("ol.round"); !strings.Contains(got, want) {
		t.Fatalf("after the result the round shows %q, want %q", got, want)
	}
	// The winner: 1 point in the standings, and their 1 in the crosstable.
	var rows [][]string
	p.Eval(`[...document.querySelectorAll('#standings tbody tr')].map(r => [...r.cells].map(c => c.textContent))`, &rows)
	if len(rows) != 3 || rows[0][1] != users[game.White].Name || rows[0][2] != "1" {
		t.Fatalf("the standings after the result: %v", rows)
	}
	var cross [][]string
	p.Eval(`[...document.querySelectorAll('#crosstable tbody tr')].map(r => [...r.cells].map(c => c.textContent))`, &cross)
	if len(cross) != 3 || cross[0][1] != users[game.White].Name || !strings.Contains(strings.Join(cross[0][2:5], " "), "1") || cross[0][5] != "1" {
		t.Fatalf("the crosstable after the result: %v", cross)
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page's script errors: %q", errs)
	}

	img := p.Attr(`meta[property="og:image"]`, "content")
	u, _ := url.Parse(img)
	code, png := f.get(u.RequestURI())
	if code != http.StatusOK || !strings.HasPrefix(string(png), "\x89PNG") {
		t.Fatalf("the og:image %s: %d, %d bytes", img, code, len(png))
	}
}
