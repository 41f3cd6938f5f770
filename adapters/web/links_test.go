package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/adapters/web/webtest"
	"github.com/boardgamebot/bot/sessions"
)

// pass asks for the stream token of a link's page (its token in the
// header).
func (f *fixture) pass(path, token string) (int, web.Pass) {
	f.t.Helper()
	code, b := f.get(path+"/pass", "X-Board-Token", token)
	var p web.Pass
	if code == http.StatusOK {
		if err := json.Unmarshal(b, &p); err != nil {
			f.t.Fatal(err)
		}
	}
	return code, p
}

// TestStreamPass: a page's stream token, derived from its link's token,
// opens the stream and the state as the link's user sees them, acts on
// nothing, works for minutes (not the link's day), is never given for a
// token in an address or for another stream token, and never outlives
// the link it comes from.
func TestStreamPass(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	path, play := parts(t, f.link(here, alice))
	code, p := f.pass(path, play)
	if code != http.StatusOK || p.Mode != "play" || p.Seconds <= 0 || p.Seconds > int(web.StreamFor/time.Second) {
		t.Fatalf("alice's pass: %d %+v", code, p)
	}
	tok, err := f.signer.Parse(p.Token, f.clock())
	if err != nil || tok.Scope != web.ScopeStream || tok.User != alice {
		t.Fatalf("the pass's token %+v, %v", tok, err)
	}
	code, b := f.get(path + "/state?t=" + p.Token)
	var st web.State
	if code != http.StatusOK || json.Unmarshal(b, &st) != nil || len(st.You) == 0 {
		t.Fatalf("the state with alice's pass: %d %s", code, b)
	}
	f.watch(f.srv.URL + path + "#t=" + p.Token).next(t)
	before := f.moves(here)
	if code, _ := f.post(path, "move", p.Token, map[string]any{"id": "pass-acts", "arg": f.firstMove(here)}); code != http.StatusForbidden || f.moves(here) != before {
		t.Fatalf("a move with a stream token: %d, %d moves (was %d)", code, f.moves(here), before)
	}
	if code, _ := f.pass(path, p.Token); code != http.StatusForbidden {
		t.Errorf("a pass from a pass: %d", code)
	}
	if code, _ := f.get(path + "/pass?t=" + play); code != http.StatusUnauthorized {
		t.Errorf("a pass for a token in the address: %d", code)
	}
	// Minutes later the pass is over; the link is not, and gives another.
	f.advance(web.StreamFor + time.Second)
	defer f.advance(-web.StreamFor - time.Second)
	if code, _ := f.get(path + "/state?t=" + p.Token); code != http.StatusUnauthorized {
		t.Errorf("a pass after %v: %d", web.StreamFor, code)
	}
	if code, _ := f.get(path+"/events?t="+p.Token, "Accept", "text/event-stream"); code != http.StatusUnauthorized {
		t.Errorf("a stream with a pass after %v: %d", web.StreamFor, code)
	}
	if code, _ := f.pass(path, play); code != http.StatusOK {
		t.Errorf("a new pass later: %d", code)
	}
	// A link that ends in a minute gives a pass that ends with it.
	short := f.signer.Sign(web.Token{Scope: web.ScopeWatch, Key: here, Created: f.look(here).Record.Created, Expires: f.clock().Add(time.Minute)})
	if code, p := f.pass(path, short); code != http.StatusOK || p.Mode != "watch" || p.Seconds > 60 {
		t.Errorf("the pass of a link ending in a minute: %d %+v", code, p)
	}
}

// TestDerivedLinksEnd: a link made from a link ends when it does, or
// before: the tournament page's link on a game's page, a tournament
// page's games' links.
func TestDerivedLinksEnd(t *testing.T) {
	f := newFixture(t)
	s := f.game(here, alice, bob, "spanish")
	until := f.clock().Add(time.Hour)
	_, tok := parts(t, f.links.WatchUntil(s, until))
	got, err := f.signer.Parse(tok, f.clock())
	if err != nil || got.Expires.After(until) || got.Scope != web.ScopeWatch {
		t.Fatalf("a watch link made from a link ending in an hour: %+v, %v", got, err)
	}
	_, tok = parts(t, f.links.WatchUntil(s, f.clock().Add(365*24*time.Hour)))
	if got, _ := f.signer.Parse(tok, f.clock()); got.Expires.After(f.clock().Add(web.DefaultWatchFor)) {
		t.Errorf("a watch link made from a longer link lasts until %v, past the watch links' %v", got.Expires, web.DefaultWatchFor)
	}
}

// TestMiniAppLoginLife: a Mini App's sign-in gives a play token that
// works for web.init_max_age at most (an hour here), never the play
// links' day; and one that names a game by a link ending sooner ends
// with that link.
func TestMiniAppLoginLife(t *testing.T) {
	f := newFixture(t)
	group := sessions.Key{Platform: "telegram", Channel: "-100777"}
	f.game(group, alice, bob, "spanish")
	bobTG := webtest.TelegramUser{ID: 102, Username: "bob", LanguageCode: "en"}
	login := func(g string) (string, web.Token) {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"init": webtest.InitData(botToken, bobTG, "", f.clock()), "g": g})
		res, err := http.Post(f.srv.URL+"/tg/login", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var j struct{ Token, Mode string }
		json.NewDecoder(res.Body).Decode(&j)
		tok, err := f.signer.Parse(j.Token, f.clock())
		if res.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("the login: %d %v", res.StatusCode, err)
		}
		return j.Mode, tok
	}
	start := f.links.Board(f.look(group), sessions.User{}).Start
	mode, tok := login(start)
	if mode != "play" || tok.Expires.After(f.clock().Add(time.Hour)) {
		t.Fatalf("bob's Mini App token: %s until %v, want play for an hour at most from %v", mode, tok.Expires, f.clock())
	}
	soon := f.signer.Sign(web.Token{Scope: web.ScopeWatch, Key: group, Created: f.look(group).Record.Created, Expires: f.clock().Add(10 * time.Minute)})
	if _, tok := login(soon); tok.Expires.After(f.clock().Add(10 * time.Minute)) {
		t.Errorf("a login from a link ending in 10 minutes lasts until %v", tok.Expires)
	}
}

// TestRevoke: /web revoke ends every link the user was given (the page,
// its state, its stream's pass, its actions) at the next request, and
// only theirs: the other player's and the watch links work on; /web then
// gives a link that works.
func TestRevoke(t *testing.T) {
	f := newFixture(t)
	f.game(here, alice, bob, "spanish")
	alicePath, aliceTok := parts(t, f.link(here, alice))
	_, bobTok := parts(t, f.link(here, bob))
	_, watchTok := parts(t, f.links.Board(f.look(here), sessions.User{}).Watch)
	_, pass := f.pass(alicePath, aliceTok)
	r := f.must(here, alice, "/web revoke")
	if !strings.Contains(r.Text(), "has ended") {
		t.Fatalf("/web revoke: %q", r.Text())
	}
	en := f.chat.Catalogues().In("en")
	for _, c := range []struct{ what, tok string }{{"alice's link", aliceTok}, {"alice's pass", pass.Token}} {
		code, b := f.get(alicePath+"/state", "X-Board-Token", c.tok)
		if code != http.StatusUnauthorized || !strings.Contains(string(b), en.T("WebRevokedLink")) {
			t.Errorf("%s after /web revoke: %d %s", c.what, code, b)
		}
	}
	if code, _ := f.pass(alicePath, aliceTok); code != http.StatusUnauthorized {
		t.Errorf("a pass from alice's revoked link: %d", code)
	}
	before := f.moves(here)
	if code, _ := f.post(alicePath, "move", aliceTok, map[string]any{"id": "revoked-1", "arg": f.firstMove(here)}); code != http.StatusUnauthorized || f.moves(here) != before {
		t.Errorf("a move with alice's revoked link: %d", code)
	}
	for _, c := range []struct{ what, tok string }{{"bob's link", bobTok}, {"the watch link", watchTok}} {
		if code, b := f.get(alicePath+"/state", "X-Board-Token", c.tok); code != http.StatusOK {
			t.Errorf("%s after alice's /web revoke: %d %s", c.what, code, b)
		}
	}
	_, fresh := parts(t, f.link(here, alice))
	if code, b := f.get(alicePath+"/state", "X-Board-Token", fresh); code != http.StatusOK {
		t.Errorf("alice's new link: %d %s", code, b)
	}
}
