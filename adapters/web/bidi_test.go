package web_test

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/sessions"
)

// TestNamesWithoutBidiControls: a player whose name carries
// bidirectional controls (a right-to-left override, an isolate left
// open) cannot reorder the page: its status line, players, seats and
// title show the name without them.
func TestNamesWithoutBidiControls(t *testing.T) {
	f := newFixture(t)
	mallory := sessions.User{ID: "666", Name: "mal\u202elory\u2067"}
	f.game(here, mallory, bob, "spanish")
	link := f.link(here, mallory)
	st := f.state(link)
	all := []string{st.Words.Title, st.Words.Players, st.Words.Status, st.Words.Last}
	all = append(all, st.Words.Notes...)
	for _, s := range st.Seats {
		all = append(all, s.Player, s.Label)
	}
	if !strings.Contains(st.Words.Players+st.Words.Status, "mallory") {
		t.Fatalf("the state does not name mallory: %+v", st.Words)
	}
	for _, s := range all {
		if strings.ContainsAny(s, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f") {
			t.Errorf("the state shows %q, with a bidirectional control", s)
		}
	}
	u, _ := url.Parse(link)
	code, body := f.get(u.Path + "?t=" + strings.TrimPrefix(u.Fragment, "t="))
	page := html.UnescapeString(string(body))
	if code != 200 || !strings.Contains(page, "mallory") || strings.ContainsAny(page, "\u202e\u2067") {
		t.Errorf("the page (%d) shows a bidirectional control:\n%s", code, page)
	}
}
