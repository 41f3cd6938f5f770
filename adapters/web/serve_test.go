package web_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/sessions"
)

// TestServePages serves a play, a watch, a finished game's and a
// tournament's page for tools run by hand (Lighthouse), when
// BOT_SERVE_PAGES names a file: their addresses are written there, one
// a line, and the pages are served until the file is removed (at most
// ten minutes). Skipped otherwise.
func TestServePages(t *testing.T) {
	out := os.Getenv("BOT_SERVE_PAGES")
	if out == "" {
		t.Skip("BOT_SERVE_PAGES is not set")
	}
	f := newFixtureWith(t, fixtureOptions{places: sessions.PlaceSet{"console": console.Places{}}})
	f.game(here, alice, bob, "spanish")
	f.must(here, alice, "/move "+f.firstMove(here))
	done := sessions.Key{Platform: "console", Channel: "finished"}
	f.game(done, alice, bob, "spanish")
	for range 4 {
		s := f.look(done)
		f.must(done, s.Player(s.Turn()), "/move "+f.firstMove(done))
	}
	finished := f.links.Board(f.look(done), carol).Watch
	f.must(done, bob, "/resign")
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
	pages := []string{"play " + f.link(here, bob), "watch " + f.links.Board(f.look(here), carol).Watch, "finished " + finished,
		"tournament " + f.links.Tournament(ev.Tournament)}
	if err := os.WriteFile(out, []byte(strings.Join(pages, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Minute); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if _, err := os.Stat(out); err != nil {
			return
		}
	}
}
