package discord

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// linkButtons lists the link buttons (style 5) of a request's
// components: label -> url. It fails the test on a link button with a
// custom id, or another button with a url.
func linkButtons(t *testing.T, q *fakeReq) map[string]string {
	t.Helper()
	body := q.body
	if d, ok := body["data"].(map[string]any); ok {
		body = d
	}
	out := map[string]string{}
	rows, _ := body["components"].([]any)
	for _, r := range rows {
		for _, c := range r.(map[string]any)["components"].([]any) {
			cm := c.(map[string]any)
			if num(cm["style"]) != 5 {
				continue
			}
			out[cm["label"].(string)], _ = cm["url"].(string)
		}
	}
	return out
}

// webEnv runs a bot whose board messages and /web give the web board's
// links (signed by signer, under base).
func webEnv(t *testing.T) (*env, *web.Signer) {
	t.Helper()
	f := newFakeDiscord(t)
	signer, err := web.NewSigner([]byte("the discord tests' web secret!!!"))
	if err != nil {
		t.Fatal(err)
	}
	links := web.NewLinks(web.LinksConfig{Base: "https://board.example.org", Signer: signer})
	b, svc := build(t, f, sessions.Config{Store: sessionstest.NewMemoryStore()}, Config{Web: links})
	return run(t, f, b, svc), signer
}

// token reads the token of a board link and checks it is for the game at
// key.
func token(t *testing.T, e *env, signer *web.Signer, link string, key sessions.Key) web.Token {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "https" || u.Host != "board.example.org" || !strings.HasPrefix(u.Path, "/g/") {
		t.Fatalf("link %q: want https://board.example.org/g/...", link)
	}
	tok, err := signer.Parse(strings.TrimPrefix(u.Fragment, "t="), time.Now())
	if err != nil {
		t.Fatalf("link %q: %v", link, err)
	}
	s := look(t, e.svc, key)
	if tok.Key != key || !tok.Created.Equal(s.Record.Created) || u.Path != "/g/"+tok.Ref() {
		t.Fatalf("the link's token %+v is not for the game at %v", tok, key)
	}
	return tok
}

// TestWebOnDiscord: a board message carries a link button "Open the
// board" to the game's watch page; /web answers only the user (an
// ephemeral reply) with their own link to play, as a link button too.
// The fake checks the buttons as Discord takes them (a link button has a
// url and no custom id).
func TestWebOnDiscord(t *testing.T) {
	e, signer := webEnv(t)
	f := e.f
	thread := challenge(t, e)
	key := sessions.Key{Platform: Platform, Channel: fakeChan, Thread: thread}
	var board *fakeReq
	for _, q := range f.since(0, posted(thread)) {
		board = q
	}
	open := linkButtons(t, board)["Open the board"]
	if tok := token(t, e, signer, open, key); tok.Scope != web.ScopeWatch || !tok.User.IsZero() {
		t.Fatalf("the board's link button %q: token %+v, want the game's watch page", open, tok)
	}

	from := f.mark()
	i := f.slash(t, thread, alice, "web")
	cb := f.waitFor(t, from, "the /web callback", callback(i))
	if flags(cb)&ephemeral == 0 || flags(cb)&(1<<2) == 0 {
		t.Fatalf("/web deferred with flags %d: want ephemeral, without embeds (no preview fetches her link)", flags(cb))
	}
	answer := f.waitFor(t, from, "the /web answer", onOriginal("PATCH", i))
	mine := linkButtons(t, answer)["Open the board"]
	if tok := token(t, e, signer, mine, key); tok.Scope != web.ScopePlay || tok.User.ID != alice.id {
		t.Fatalf("alice's /web button: token %+v, want play as alice", tok)
	}
	if !strings.Contains(content(answer), mine) || !strings.Contains(content(answer), "keep it to yourself") {
		t.Fatalf("alice's /web answer %q: want her link and a word of care", content(answer))
	}
	// carol, who does not play, gets the watch page.
	from = f.mark()
	i = f.slash(t, thread, carol, "web")
	answer = f.waitFor(t, from, "carol's /web answer", onOriginal("PATCH", i))
	if tok := token(t, e, signer, linkButtons(t, answer)["Open the board"], key); tok.Scope != web.ScopeWatch {
		t.Fatalf("carol's /web: %+v, want the watch page", tok)
	}
}

// TestFakeRefusesBadLinkButtons: the fake refuses a link button with a
// custom id and one without a url, as Discord does.
func TestFakeRefusesBadLinkButtons(t *testing.T) {
	f := newFakeDiscord(t)
	for _, c := range []struct {
		button map[string]any
		ok     bool
	}{
		{map[string]any{"type": 2.0, "style": 5.0, "label": "x", "url": "https://a.example"}, true},
		{map[string]any{"type": 2.0, "style": 5.0, "label": "x", "url": "https://a.example", "custom_id": "y"}, false},
		{map[string]any{"type": 2.0, "style": 5.0, "label": "x"}, false},
		{map[string]any{"type": 2.0, "style": 2.0, "label": "x", "url": "https://a.example"}, false},
		{map[string]any{"type": 2.0, "style": 5.0, "label": "x", "url": "ftp://a.example"}, false},
	} {
		q := &fakeReq{method: "POST", path: "/channels/" + fakeChan + "/messages",
			body: map[string]any{"components": []any{map[string]any{"type": 1.0, "components": []any{c.button}}}}}
		if got := f.checkComponents(q); got != c.ok {
			t.Errorf("%v: taken %v, want %v", c.button, got, c.ok)
		}
	}
}

// TestHelpCompletes: /help's command is autocompleted (the commands,
// /web among them, are more than the 25 choices Discord takes: the fake
// refuses a command with more, as Discord does).
func TestHelpCompletes(t *testing.T) {
	f := newFakeDiscord(t)
	b, svc := build(t, f, sessions.Config{Store: sessionstest.NewMemoryStore()}, Config{})
	run(t, f, b, svc)
	from := f.mark()
	i := f.interaction(4, fakeChan, alice, map[string]any{"id": "cmdhelp", "name": "help", "type": 1,
		"options": []any{map[string]any{"name": "command", "type": 3, "value": "WE", "focused": true}}})
	f.dispatch(t, "INTERACTION_CREATE", i)
	cb := f.waitFor(t, from, "the completion", callback(i))
	data, _ := cb.body["data"].(map[string]any)
	choices, _ := data["choices"].([]any)
	if num(cb.body["type"]) != 8 || len(choices) != 1 || choices[0].(map[string]any)["value"] != "web" {
		t.Fatalf("completing /help WE: %v", cb.body)
	}
}
