package telegram_test

import (
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// boardBase is the web board's public URL in these tests (nothing is
// fetched from it: Telegram opens it).
const boardBase = "https://board.example.org"

// webBot runs a bot whose chat handler serves the web board's links
// (with the Mini App), with appName as telegram.app_name; it returns the
// harness and the links' signer.
func webBot(t *testing.T, f *fakeAPI, appName string) (*harness, *web.Signer) {
	t.Helper()
	signer, err := web.NewSigner([]byte("the telegram tests' web secret!!"))
	if err != nil {
		t.Fatal(err)
	}
	links := web.NewLinks(web.LinksConfig{Base: boardBase, Signer: signer, MiniApp: true})
	h := runBotChat(t, f, sessionstest.NewMemoryStore(), nil, func() error { return nil },
		func(c *telegram.Config) { c.AppName = appName }, nil, nil, chat.Config{Web: links})
	return h, signer
}

// only returns the one button of a call's keyboard.
func only(t *testing.T, c *call) kbButton {
	t.Helper()
	kb := keyboard(t, c)
	if len(kb) != 1 || len(kb[0]) != 1 {
		t.Fatalf("%s %q: keyboard %v, want one button", c.Method, c.Params["text"], kb)
	}
	return kb[0][0]
}

// gameToken reads the token a link carries (#t= or the Mini App's ?g=),
// with the signer, and checks it names the game at chat.
func gameToken(t *testing.T, h *harness, signer *web.Signer, chatID int64, text string) web.Token {
	t.Helper()
	tok, err := signer.Parse(text, time.Now())
	if err != nil {
		t.Fatalf("token %q: %v", text, err)
	}
	s := h.look(chatID)
	if tok.Key != s.Record.Key || !tok.Created.Equal(s.Record.Created) {
		t.Fatalf("the token names %v created %v; the game is at %v created %v", tok.Key, tok.Created, s.Record.Key, s.Record.Created)
	}
	return tok
}

// TestWebPrivateChat: /web in a private chat answers with a web_app
// button that opens the board as a Mini App on this game, and sets the
// chat's menu button to the Mini App (as the Bot API takes both: the fake
// checks every field).
func TestWebPrivateChat(t *testing.T) {
	f := newFake(t)
	h, signer := webBot(t, f, "")
	private := alice.id
	h.say(private, alice, "/play spanish @alice color=white")
	h.say(private, alice, "/accept")
	m := f.mark()
	c, _ := h.say(private, alice, "/web", "sendMessage")
	b := only(t, c)
	if b.WebApp == nil || b.URL != nil || b.CallbackData != nil || b.Text != "Open the board" {
		t.Fatalf("the button %+v: want a web_app button", b)
	}
	u, err := url.Parse(b.WebApp.URL)
	if err != nil || u.Scheme != "https" || u.Host != "board.example.org" || u.Path != "/tg" {
		t.Fatalf("web_app url %q: want %s/tg?g=...", b.WebApp.URL, boardBase)
	}
	gameToken(t, h, signer, private, u.Query().Get("g"))
	menu, _ := f.waitCall(m, method("setChatMenuButton"))
	if menu.Params["chat_id"] != strconv.FormatInt(private, 10) ||
		menu.Params["menu_button"] != `{"text":"Board","type":"web_app","web_app":{"url":"`+boardBase+`/tg"}}` {
		t.Fatalf("setChatMenuButton %v", menu.Params)
	}
}

// TestWebGroupDirectLink: /web in a group, where Telegram refuses web_app
// buttons, answers with a URL button to the Mini App's direct link when
// telegram.app_name is set: its startapp names the game, not the user
// (the Mini App learns who opened it from Telegram).
func TestWebGroupDirectLink(t *testing.T) {
	f := newFake(t)
	h, signer := webBot(t, f, "board")
	h.challenge(group, "spanish")
	c, _ := h.say(group, alice, "/web", "sendMessage")
	b := only(t, c)
	if b.URL == nil || b.WebApp != nil {
		t.Fatalf("the button %+v: want a URL button", b)
	}
	u, err := url.Parse(*b.URL)
	if err != nil || u.Scheme != "https" || u.Host != "t.me" || u.Path != "/BoardBot/board" {
		t.Fatalf("url %q: want https://t.me/BoardBot/board?startapp=...", *b.URL)
	}
	start := u.Query().Get("startapp")
	if len(start) > 512 || strings.Trim(start, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != "" {
		t.Fatalf("startapp %q: Telegram takes up to 512 of A-Z a-z 0-9 _ -", start)
	}
	if tok := gameToken(t, h, signer, group, start); tok.Scope != web.ScopeWatch || !tok.User.IsZero() {
		t.Fatalf("the direct link's token %+v: want the game's, nobody's", tok)
	}
	if !strings.Contains(c.Params["text"], "alice") || strings.Contains(c.Params["text"], boardBase) {
		t.Fatalf("the group reads %q: want alice named, and no link of hers", c.Params["text"])
	}
}

// TestWebGroupPrivateLink: without a Mini App's name, /web in a group
// sends the player's own link to their private chat with the bot when
// they started one, and says so in the group; otherwise the group reads
// how to start it. The link never shows in the group.
func TestWebGroupPrivateLink(t *testing.T) {
	f := newFake(t)
	h, signer := webBot(t, f, "")
	h.challenge(group, "spanish")
	c, _ := h.say(group, bob, "/web", "sendMessage")
	if !strings.Contains(c.Params["text"], "https://t.me/BoardBot?start=web") || strings.Contains(c.Params["text"], boardBase) {
		t.Fatalf("bob, who never started the bot, reads %q", c.Params["text"])
	}
	h.say(bob.id, bob, "/start", "sendMessage")
	m := f.mark()
	h.f.push(text(group, bob, "/web"))
	dm, _ := f.waitCall(m, sent(bob.id, "sendMessage"))
	b := only(t, dm)
	if b.URL == nil || !strings.HasPrefix(*b.URL, boardBase+"/g/") {
		t.Fatalf("bob's private link %+v", b)
	}
	u, _ := url.Parse(*b.URL)
	if tok := gameToken(t, h, signer, group, strings.TrimPrefix(u.Fragment, "t=")); tok.Scope != web.ScopePlay || tok.User != (sessions.User{ID: "2", Name: "bob"}) {
		t.Fatalf("bob's token %+v: want play as bob", tok)
	}
	said, _ := f.waitCall(m, sent(group, "sendMessage"))
	if strings.Contains(said.Params["text"], boardBase) || !strings.Contains(said.Params["text"], "private chat") {
		t.Fatalf("the group reads %q", said.Params["text"])
	}
	// Someone who does not play gets the watch link, in the group.
	c, _ = h.say(group, carol, "/web", "sendMessage")
	if b := only(t, c); b.URL == nil || !strings.Contains(c.Params["text"], "Watch this game") {
		t.Fatalf("carol reads %q with %+v", c.Params["text"], b)
	}
}

// TestFakeRefusesWebAppInGroups: the fake Bot API refuses a web_app
// button in a group and a web_app URL that is not https, as Telegram
// does: the checks the tests above rely on are real.
func TestFakeRefusesWebAppInGroups(t *testing.T) {
	f := newFake(t)
	for _, c := range []struct {
		chat   int64
		markup string
		want   int
	}{
		{group, `{"inline_keyboard":[[{"text":"x","web_app":{"url":"https://a.example"}}]]}`, 400},
		{1, `{"inline_keyboard":[[{"text":"x","web_app":{"url":"http://a.example"}}]]}`, 400},
		{1, `{"inline_keyboard":[[{"text":"x","url":"https://127.0.0.1:8080/g"}]]}`, 400},
		{1, `{"inline_keyboard":[[{"text":"x","url":"https://a.example","callback_data":"y"}]]}`, 400},
		{1, `{"inline_keyboard":[[{"text":"x","web_app":{"url":"https://a.example"}}]]}`, 200},
		{group, `{"inline_keyboard":[[{"text":"x","url":"https://a.example"}]]}`, 200},
	} {
		status, _ := postForm(t, f, "sendMessage", map[string]string{"chat_id": strconv.FormatInt(c.chat, 10), "text": "t", "reply_markup": c.markup})
		if status != c.want {
			t.Errorf("chat %d, %s: %d, want %d", c.chat, c.markup, status, c.want)
		}
	}
}

// postForm makes a Bot API call to the fake directly and returns its
// status and body.
func postForm(t *testing.T, f *fakeAPI, method string, params map[string]string) (int, string) {
	t.Helper()
	form := url.Values{}
	for k, v := range params {
		form.Set(k, v)
	}
	res, err := http.PostForm(f.srv.URL+"/bot"+f.token+"/"+method, form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}
