package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/sessions"
)

// TestTournamentPage: a tournament's page shows its standings, its
// crosstable and every round's games, each played game linked to its
// watch page; /web in the tournament's channel gives the page's link.
func TestTournamentPage(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{places: sessions.PlaceSet{"console": console.Places{}}})
	f.must(here, alice, "/tournament new spanish rounds=1")
	for _, u := range []sessions.User{alice, bob, carol} {
		f.must(here, u, "/tournament join")
	}
	f.must(here, alice, "/tournament start")
	ev, err := f.svc.TournamentHere(ctx, here)
	if err != nil {
		t.Fatal(err)
	}
	var game sessions.TourGame
	for _, g := range ev.Tournament.Played[0].Games {
		if g.Black != "" {
			game = g
		}
	}
	r := f.must(here, carol, "/web")
	link := f.links.Tournament(ev.Tournament)
	if !strings.Contains(r.Text(), "Tournament #"+ev.Tournament.ID+" on the web: "+f.links.Base()+"/t/") {
		t.Fatalf("/web where a tournament is played: %q", r.Text())
	}
	u, _ := url.Parse(link)
	// The page's script sends the fragment's token in a header.
	tok := strings.TrimPrefix(u.Fragment, "t=")
	if tok == "" {
		tok = u.Query().Get("v") // a tournament's link is its view token
	}
	code, body := f.get(u.Path, "X-Board-Token", tok)
	if code != http.StatusOK || !strings.Contains(string(body), "under way") || !strings.Contains(string(body), "bye") {
		t.Fatalf("the page during round 1: %d\n%s", code, body)
	}
	loser := sessions.User{ID: game.Black}
	for _, u := range []sessions.User{alice, bob, carol} {
		if u.ID == game.Black {
			loser = u
		}
	}
	f.must(game.Key, loser, "/resign")
	code, body = f.get(u.Path, "X-Board-Token", tok)
	page := string(body)
	if code != http.StatusOK {
		t.Fatalf("the page: %d %s", code, page)
	}
	names := map[string]string{alice.ID: "alice", bob.ID: "bob", carol.ID: "carol"}
	want := names[game.White] + " – " + names[game.Black] + ": 1-0"
	watch := regexp.MustCompile(`<a href="(` + regexp.QuoteMeta(f.links.Base()) + `/g/[^"]+)"><svg class="mini"[^<]*(?:<[^a/][^>]*>|</[^a][^>]*>)*<span>` + regexp.QuoteMeta(want) + `</span></a>`).FindStringSubmatch(page)
	if watch == nil {
		t.Fatalf("the page does not link the game %q:\n%s", want, page)
	}
	if st := f.state(strings.ReplaceAll(watch[1], "&amp;", "&")); st.Phase != "finished" || st.Winner != 0 {
		t.Fatalf("the game's link shows %s, winner %d", st.Phase, st.Winner)
	}
	for _, s := range []string{`id="standings"`, `id="crosstable"`, ">Bh<", "×", ">1<", ">0<", "Round 1", "finished"} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	// A board link is no tournament's: refused with the reason.
	_, gameTok := parts(t, strings.ReplaceAll(watch[1], "&amp;", "&"))
	if code, _ := f.get(u.Path + "?t=" + gameTok); code != http.StatusForbidden {
		t.Fatalf("a game's token on the tournament's page: %d", code)
	}
}
