package web_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/sessions"
)

// TestCompressed: a game's state and frames, and the tournament page,
// come gzipped to a browser that takes it (as the page and its files
// do), and read the same once unzipped.
func TestCompressed(t *testing.T) {
	f := newFixtureWith(t, fixtureOptions{places: sessions.PlaceSet{"console": console.Places{}}})
	f.game(here, alice, bob, "spanish")
	f.must(here, alice, "/move "+f.firstMove(here))
	link := f.links.Board(f.look(here), carol).Watch
	f.must(here, bob, "/resign")
	path, token := parts(t, link)
	f.must(sessions.Key{Platform: "console", Channel: "club"}, alice, "/tournament new spanish rounds=1")
	ev, err := f.svc.TournamentHere(ctx, sessions.Key{Platform: "console", Channel: "club"})
	if err != nil {
		t.Fatal(err)
	}
	tour, _ := url.Parse(f.links.Tournament(ev.Tournament))
	for _, c := range []struct{ name, path, token string }{
		{"state", path + "/state", token},
		{"frames", path + "/frames", token},
		{"tournament", tour.RequestURI(), ""},
	} {
		code, body := f.get(c.path, "X-Board-Token", c.token, "Accept-Encoding", "gzip")
		if code != http.StatusOK || len(body) < 2 || body[0] != 0x1f || body[1] != 0x8b {
			t.Errorf("%s: %d, not gzipped", c.name, code)
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, raw := f.get(c.path, "X-Board-Token", c.token, "Accept-Encoding", "identity")
		if !bytes.Equal(plain, raw) {
			t.Errorf("%s: unzipped, %d bytes; plain, %d", c.name, len(plain), len(raw))
		}
		t.Logf("%s: %d bytes, %d gzipped", c.name, len(raw), len(body))
		if c.name == "state" {
			var st web.State
			if err := json.Unmarshal(plain, &st); err != nil || st.Phase != "finished" {
				t.Errorf("the state unzipped: %v, phase %q", err, st.Phase)
			}
		}
	}
}
