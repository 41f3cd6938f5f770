package discord

import (
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/chat/chattest"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// startSpeaking runs a bot whose handler speaks the test catalogues
// (English, and a little Spanish); it returns the commands registered.
func startSpeaking(t *testing.T, f *fakeDiscord) *fakeReq {
	t.Helper()
	w, err := chattest.Catalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	return startWords(t, f, w)
}

// startWords runs a bot whose handler speaks the catalogues w; it returns
// the commands registered.
func startWords(t *testing.T, f *fakeDiscord, w *chat.Catalogues) *fakeReq {
	t.Helper()
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})
	t.Cleanup(svc.Close)
	h := chat.New(chat.Config{Sessions: svc, Catalogues: w})
	b, err := New(Config{GuildID: fakeGuild, Token: "test-token", HTTPClient: f.client()}, h, svc, render.New(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	from := f.mark()
	run(t, f, b, svc)
	return f.waitFor(t, from, "the bulk overwrite", func(q *fakeReq) bool { return q.method == "PUT" })
}

// TestCommandsLocalized: the slash commands carry their descriptions in
// every catalogue's language Discord has (es-ES and es-419 for Spanish),
// names staying English; an option's description too.
func TestCommandsLocalized(t *testing.T) {
	f := newFakeDiscord(t)
	q := startSpeaking(t, f)
	var move map[string]any
	for _, c := range q.list {
		if cm := c.(map[string]any); cm["name"] == "move" {
			move = cm
		}
	}
	if move == nil {
		t.Fatal("no /move registered")
	}
	loc, _ := move["description_localizations"].(map[string]any)
	for _, l := range []string{"es-ES", "es-419"} {
		if loc[l] != "jugar una jugada, como /move c3-d4" {
			t.Errorf("/move description in %s: %v (all: %v)", l, loc[l], loc)
		}
	}
	if _, ok := loc["de"]; ok {
		t.Errorf("/move has a German description without a German catalogue: %v", loc)
	}
	if move["description"] != "play a move, like /move c3-d4 or /m 11-15" || move["name_localizations"] != nil {
		t.Errorf("/move: description %v, name localizations %v", move["description"], move["name_localizations"])
	}
	opt := move["options"].([]any)[0].(map[string]any)
	if ol, _ := opt["description_localizations"].(map[string]any); ol["es-ES"] == nil || opt["description"] == "" {
		t.Errorf("/move's option: %v", opt)
	}
}

// TestCommandsLocalizedRealCatalogues: with the catalogues the bot ships,
// every slash command and every option with a description carries it in
// es-ES, es-419 (the same Spanish) and de, none of them the English one,
// and no locale Discord does not have (Tagalog).
func TestCommandsLocalizedRealCatalogues(t *testing.T) {
	w, err := chat.NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeDiscord(t)
	q := startWords(t, f, w)
	check := func(what string, m map[string]any) {
		loc, _ := m["description_localizations"].(map[string]any)
		if len(loc) != 3 || loc["es-ES"] == nil || loc["es-ES"] != loc["es-419"] || loc["de"] == nil {
			t.Errorf("%s: description localizations %v, want es-ES = es-419 and de", what, loc)
		}
		for l, d := range loc {
			if d == m["description"] {
				t.Errorf("%s in %s: %q is the English description", what, l, d)
			}
		}
	}
	for _, c := range q.list {
		cm := c.(map[string]any)
		check("/"+cm["name"].(string), cm)
		var walk func(path string, m map[string]any)
		walk = func(path string, m map[string]any) { // options, and those of subcommands
			opts, _ := m["options"].([]any)
			for _, o := range opts {
				om := o.(map[string]any)
				check(path+" "+om["name"].(string), om)
				walk(path+" "+om["name"].(string), om)
			}
		}
		walk("/"+cm["name"].(string), cm)
	}
	if len(q.list) < 10 {
		t.Errorf("only %d commands registered", len(q.list))
	}
}

// TestInteractionLocale: a user whose Discord speaks Spanish (locale
// es-419) gets the answers in Spanish.
func TestInteractionLocale(t *testing.T) {
	f := newFakeDiscord(t)
	startSpeaking(t, f)
	from := f.mark()
	i := f.interaction(2, fakeChan, alice, map[string]any{"id": "cmdhelp", "name": "help", "type": 1})
	i["locale"] = "es-419"
	f.dispatch(t, "INTERACTION_CREATE", i)
	help := f.waitFor(t, from, "the help", onOriginal("PATCH", i))
	if !strings.Contains(content(help), "jugar una jugada") {
		t.Errorf("/help in es-419: %q, want the Spanish line of /move", content(help))
	}
}

// TestDiscordPseudoLanguage plays in the pseudo-language on Discord and
// fails on any line the bot posts (mentions and Discord's markup aside)
// that did not come from the catalogue.
func TestDiscordPseudoLanguage(t *testing.T) {
	f := newFakeDiscord(t)
	w, err := chattest.Pseudo()
	if err != nil {
		t.Fatal(err)
	}
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})
	t.Cleanup(svc.Close)
	h := chat.New(chat.Config{Sessions: svc, Catalogues: w})
	b, err := New(Config{GuildID: fakeGuild, Token: "test-token", HTTPClient: f.client()}, h, svc, render.New(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	run(t, f, b, svc)
	from := f.mark()
	for _, s := range []struct {
		u    person
		name string
		opts []opt
	}{
		{alice, "help", nil}, {alice, "games", nil}, {alice, "board", nil}, {alice, "play", []opt{str("game", "spanish"), usr("opponent", bob)}},
		{carol, "accept", nil}, {alice, "lang", nil},
	} {
		m := f.mark()
		i := f.slash(t, fakeChan, s.u, s.name, s.opts...)
		f.waitFor(t, m, "the answer to /"+s.name, func(q *fakeReq) bool {
			return onOriginal("PATCH", i)(q) || followup(i)(q)
		})
	}
	mention := regexp.MustCompile(`<[@#]\d+>`)
	checked := 0
	for _, q := range f.since(from, func(q *fakeReq) bool { return q.method == "POST" || q.method == "PATCH" }) {
		for _, l := range strings.Split(content(q), "\n") {
			l = strings.TrimSpace(mention.ReplaceAllString(l, ""))
			if l == "" || l == "✓" {
				continue
			}
			checked++
			if !chattest.FromCatalogue(l) {
				t.Errorf("%s %s: line not from the catalogue: %q", q.method, q.path, l)
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d lines checked", checked)
	}
}
