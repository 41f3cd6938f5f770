package telegram_test

import (
	"context"
	"encoding/json"
	"html"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/chat/chattest"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// startSpeaking runs a bot whose handler speaks the test catalogues
// (English, and a little Spanish) against f.
func startSpeaking(t *testing.T, f *fakeAPI) {
	t.Helper()
	w, err := chattest.Catalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	startWith(t, f, w)
}

// startWith runs a bot whose handler speaks the catalogues w against f.
func startWith(t *testing.T, f *fakeAPI, w *chat.Catalogues) {
	t.Helper()
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})
	h := chat.New(chat.Config{Sessions: svc, Catalogues: w})
	bot, err := telegram.New(telegram.Config{Token: f.token, APIEndpoint: f.srv.URL, PollTimeout: time.Second,
		RetryPause: 50 * time.Millisecond, GroupLimit: -1, ChatEvery: -1}, h, svc, render.New(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- bot.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
}

// TestCommandMenuRealCatalogues: with the catalogues the bot ships, the
// menus are published for es, de and tl besides the default (English), in
// every scope, each with every command and its description from that
// language's catalogue, none left in English.
func TestCommandMenuRealCatalogues(t *testing.T) {
	w, err := chat.NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	f := newFake(t)
	m := f.mark()
	startWith(t, f, w)
	menus := publishedMenus(t, f, m, 12)
	for _, scope := range []string{"default", "all_private_chats", "all_group_chats"} {
		en := menus[scope+"/"]
		if en["move"] != w.In("en").T("CmdShort_move") {
			t.Errorf("%s default menu, move: %q", scope, en["move"])
		}
		for _, lang := range []string{"es", "de", "tl"} {
			menu, ok := menus[scope+"/"+lang]
			if !ok {
				t.Errorf("no %s menu for %s", scope, lang)
				continue
			}
			if len(menu) != len(en) {
				t.Errorf("%s/%s menu has %d commands, the default %d", scope, lang, len(menu), len(en))
			}
			if want := w.In(lang).T("CmdShort_move"); menu["move"] != want {
				t.Errorf("%s/%s menu, move: %q, want %q", scope, lang, menu["move"], want)
			}
			for cmd, desc := range en {
				if menu[cmd] == desc {
					t.Errorf("%s/%s menu, %s: %q is the English description", scope, lang, cmd, desc)
				}
			}
		}
	}
}

// speaking is a text update from a user whose app speaks lang.
func speaking(chatID int64, u tgUser, lang, s string) map[string]any {
	up := text(chatID, u, s)
	up["message"].(map[string]any)["from"].(map[string]any)["language_code"] = lang
	return up
}

// TestCommandMenuPerLanguage: the command menu is published once for
// everyone, in the default language, and once per other language with its
// language_code, the descriptions translated.
func TestCommandMenuPerLanguage(t *testing.T) {
	f := newFake(t)
	m := f.mark()
	startSpeaking(t, f)
	// Three scopes (default, private chats, groups) per language.
	menus := publishedMenus(t, f, m, 6)
	menus[""] = menus["all_private_chats/"]
	menus["es"] = menus["all_private_chats/es"]
	if menus["all_group_chats/es"]["move"] != "jugar una jugada, como /move c3-d4" {
		t.Errorf("es group menu: %v", menus["all_group_chats/es"])
	}
	if got := menus[""]["move"]; got != "play a move, like /move c3-d4 or /m 11-15" {
		t.Errorf("default menu, move: %q", got)
	}
	if got := menus["es"]["move"]; got != "jugar una jugada, como /move c3-d4" {
		t.Errorf("es menu, move: %q", got)
	}
	if menus["es"]["board"] != menus[""]["board"] || len(menus["es"]) != len(menus[""]) {
		t.Errorf("es menu %v: want every command, untranslated ones in the default language", menus["es"])
	}
}

// TestUserLanguageCode: a user whose Telegram speaks es-MX gets Spanish,
// the others the default.
func TestUserLanguageCode(t *testing.T) {
	f := newFake(t)
	m := f.mark()
	startSpeaking(t, f)
	f.waitCall(m, method("setMyCommands"))
	m = f.mark()
	f.push(speaking(group, alice, "en", "/play spanish @bob color=white"))
	f.waitCall(m, sent(group, "sendMessage", "sendPhoto"))
	m = f.mark()
	f.push(speaking(group, bob, "es-MX", "/accept"))
	c, _ := f.waitCall(m, sent(group, "sendMessage", "sendPhoto"))
	got := c.Params["text"] + c.Params["caption"]
	if !strings.Contains(got, "Empieza la partida") || !strings.Contains(got, "(Blancas)") {
		t.Fatalf("bob (es-MX) /accept answered %q, want Spanish", got)
	}
	m = f.mark()
	f.push(speaking(group, alice, "en-US", "/move b3-a4"))
	c, _ = f.waitCall(m, sent(group, "sendMessage", "sendPhoto"))
	if got := c.Params["text"] + c.Params["caption"]; !strings.Contains(got, "played b3-a4") {
		t.Fatalf("alice (en-US) /move answered %q, want English", got)
	}
}

// TestTelegramPseudoLanguage plays in the pseudo-language on Telegram (a
// game, then a tournament in a forum) and fails on any line of a message or caption the bot sends (HTML taken
// off) that did not come from the catalogue.
func TestTelegramPseudoLanguage(t *testing.T) {
	f := newFake(t)
	startPseudoBot(t, f)
	from := f.mark()
	for _, s := range []struct {
		u    tgUser
		text string
	}{
		{alice, "/play spanish @bob color=white"}, {bob, "/accept"}, {alice, "/move b3-a4"}, {bob, "/move 1"},
		{alice, "/board"}, {carol, "/moves"}, {alice, "/help"}, {alice, "/games"}, {bob, "/draw"}, {alice, "/draw"},
		{alice, "/history"}, {alice, "/nonsense"},
	} {
		m := f.mark()
		f.push(text(group, s.u, s.text))
		f.waitCall(m, sent(group, "sendMessage", "sendPhoto"))
	}
	// A tournament: refused in a plain group; in a forum, three players,
	// one game in its topic (its first board mentioning both) and a bye.
	const forum int64 = -1006009
	f.setForum(forum, true)
	f.setMember(forum, botID, "administrator", "can_manage_chat", "can_manage_topics")
	for _, s := range []struct {
		chatID int64
		u      tgUser
		text   string
	}{
		{group, alice, "/tournament new spanish"}, {forum, alice, "/tournament new spanish rounds=2"},
		{forum, alice, "/tournament join"}, {forum, bob, "/tournament join"}, {forum, carol, "/tournament join"},
		{forum, carol, "/tournament start"}, {forum, alice, "/tournament start"},
	} {
		m := f.mark()
		f.push(inTopic(s.chatID, 0, s.u, s.text))
		f.waitCall(m, sent(s.chatID, "sendMessage", "sendPhoto"))
	}
	f.waitCall(from, func(c *call) bool { return sent(forum, "sendPhoto")(c) && c.Params["message_thread_id"] != "" })
	topics := f.topicsOf(forum)
	if len(topics) != 1 || !chattest.FromCatalogue(topics[0].name) {
		t.Errorf("the tournament's topics: %+v, want one named from the catalogue", topics)
	}
	if checked := fromCatalogue(t, f.callsSince(from, 0)); checked < 20 {
		t.Errorf("only %d lines checked", checked)
	}
}

// startPseudoBot runs a bot speaking the pseudo-language against f, on
// an in-memory store; it returns its sessions.
func startPseudoBot(t *testing.T, f *fakeAPI) *sessions.Service {
	t.Helper()
	n := &notifier{}
	w, err := chattest.Pseudo()
	if err != nil {
		t.Fatal(err)
	}
	places := sessions.PlaceSet{}
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Places: places, Notifier: n})
	h := chat.New(chat.Config{Sessions: svc, Catalogues: w})
	bot, err := telegram.New(telegram.Config{Token: f.token, APIEndpoint: f.srv.URL, PollTimeout: time.Second,
		RetryPause: 50 * time.Millisecond, GroupLimit: -1, ChatEvery: -1}, h, svc, render.New(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	n.mu.Lock()
	n.b = bot
	n.mu.Unlock()
	places[telegram.Platform] = bot.Places()
	m := f.mark()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- bot.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	f.waitCall(m, method("setMyCommands"))
	return svc
}

// fromCatalogue fails the test for each line of the sends (HTML taken
// off; the rows of a table in <pre> aside) that did not come from the
// catalogue; it returns how many lines it checked.
func fromCatalogue(t *testing.T, calls []*call) int {
	t.Helper()
	tag := regexp.MustCompile(`<[^>]*>`)
	checked := 0
	for _, c := range calls {
		if c.Method != "sendMessage" && c.Method != "sendPhoto" {
			continue
		}
		table := false
		for _, l := range strings.Split(c.Params["text"]+c.Params["caption"], "\n") {
			row := table && !strings.HasPrefix(l, "<pre>")
			table = (table || strings.HasPrefix(l, "<pre>")) && !strings.HasSuffix(l, "</pre>")
			if row {
				continue
			}
			l = html.UnescapeString(tag.ReplaceAllString(l, ""))
			if l != "" && !chattest.FromCatalogue(l) {
				t.Errorf("%s: line not from the catalogue: %q", c.Method, l)
			}
			checked++
		}
	}
	return checked
}

// publishedMenus reads the first n command menus the bot publishes after
// mark m (setMyCommands), by "scope/language_code": command to
// description. A menu published twice fails the test.
func publishedMenus(t *testing.T, f *fakeAPI, m, n int) map[string]map[string]string {
	t.Helper()
	menus := map[string]map[string]string{}
	for len(menus) < n {
		c, next := f.waitCall(m, method("setMyCommands"))
		m = next
		var list []struct{ Command, Description string }
		if err := json.Unmarshal([]byte(c.Params["commands"]), &list); err != nil {
			t.Fatal(err)
		}
		menu := map[string]string{}
		for _, cmd := range list {
			menu[cmd.Command] = cmd.Description
		}
		var scope struct{ Type string }
		json.Unmarshal([]byte(c.Params["scope"]), &scope)
		k := scope.Type + "/" + c.Params["language_code"]
		if _, twice := menus[k]; twice {
			t.Fatalf("the menu %s was published twice", k)
		}
		menus[k] = menu
	}
	return menus
}
