package discord

import (
	"bytes"
	"context"
	"image/png"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/bwmarrin/discordgo"
)

// ratedGame plays a rated Spanish game in channel ch: white challenges
// black with /play, black accepts with the button, 24 plies are played
// (through the service, as the moves are not what this tests), then
// black resigns with /resign in the game's thread.
func ratedGame(t *testing.T, e *env, ch string, white, black person) {
	t.Helper()
	f := e.f
	from := f.mark()
	play := f.slash(t, ch, white, "play", str("game", "spanish"), usr("opponent", black), str("color", "white"))
	f.waitFor(t, from, "the challenge", onOriginal("PATCH", play))
	msg := f.original(play["token"].(string))
	from = f.mark()
	f.press(t, msg, black, customIDs(f.message(msg))["Accept"])
	f.waitFor(t, from, "the board in the thread", posted(msg))
	key := sessions.Key{Platform: Platform, Channel: ch, Thread: msg}
	for range 24 {
		snap := look(t, e.svc, key)
		mover := snap.Player(snap.Turn())
		var move string
		for _, m := range snap.State.Moves() {
			if next, _, err := snap.State.Play(m.Text); err == nil && !next.Outcome().Over {
				move = m.Text
				break
			}
		}
		if _, err := e.svc.Move(context.Background(), sessions.Request{Key: key, User: mover}, move); err != nil {
			t.Fatal(err)
		}
	}
	from = f.mark()
	i := f.slash(t, msg, black, "resign")
	if q := f.waitFor(t, from, "the result", onOriginal("PATCH", i)); !strings.Contains(content(q), "Ratings:") {
		t.Fatalf("/resign answered %q, want a rated result", content(q))
	}
}

// ask sends a slash command in ch and returns its answer.
func ask(t *testing.T, e *env, ch string, u person, name string, opts ...opt) *fakeReq {
	t.Helper()
	from := e.f.mark()
	i := e.f.slash(t, ch, u, name, opts...)
	return e.f.waitFor(t, from, "the /"+name+" answer", onOriginal("PATCH", i))
}

// onePNG decodes the one PNG file of an answer and returns its size.
func onePNG(t *testing.T, q *fakeReq) (w, h int) {
	t.Helper()
	if len(q.files) != 1 || !strings.HasSuffix(q.files[0].name, ".png") {
		t.Fatalf("answer %q with %d files, want one PNG", content(q), len(q.files))
	}
	img, err := png.Decode(bytes.NewReader(q.files[0].data))
	if err != nil {
		t.Fatalf("%s: %v", q.files[0].name, err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}

// TestServerLaddersAndPictures: in two Discord servers with a player in
// common, each server's /top lists the players of its own rated games
// (the interaction's server is the game's community), ladder:global
// every player; /rating and /profile answer with a PNG picture, /vs
// with the record and the chart of both ratings.
func TestServerLaddersAndPictures(t *testing.T) {
	f := newFakeDiscord(t)
	f.addChannel("701", "801")
	f.addChannel("702", "802")
	e := start(t, f, sessionstest.NewMemoryStore(), "")
	ratedGame(t, e, "701", alice, bob)   // server 801: alice beats bob
	ratedGame(t, e, "702", carol, alice) // server 802: carol beats alice

	for _, c := range []struct {
		ch        string
		opts      []opt
		want, not []string
	}{
		{"701", []opt{str("game", "spanish")}, []string{"this server (2 players)", "alice", "bob"}, []string{"carol"}},
		{"702", []opt{str("game", "spanish")}, []string{"this server (2 players)", "carol", "alice"}, []string{"bob"}},
		{"701", []opt{str("ladder", "global"), str("game", "spanish")}, []string{"global (3 players)", "alice", "bob", "carol"}, nil},
	} {
		q := ask(t, e, c.ch, bob, "top", c.opts...)
		for _, w := range c.want {
			if !strings.Contains(content(q), w) {
				t.Errorf("/top in %s %v: %q lacks %q", c.ch, c.opts, content(q), w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(content(q), w) {
				t.Errorf("/top in %s %v: %q lists %s", c.ch, c.opts, content(q), w)
			}
		}
	}
	q := ask(t, e, "701", bob, "rating", usr("user", alice))
	if w, h := onePNG(t, q); w != render.ChartWidth || h != render.ChartHeight || !strings.Contains(content(q), "Ratings of alice") {
		t.Errorf("/rating user:alice: %q, a %dx%d picture", content(q), w, h)
	}
	q = ask(t, e, "702", alice, "profile")
	if w, _ := onePNG(t, q); w != render.CardWidth || !strings.Contains(content(q), "place 2 of 2 here and 2 of 3 on Discord") {
		t.Errorf("/profile: %q, %d px wide", content(q), w)
	}
	q = ask(t, e, "701", alice, "vs", usr("user", carol))
	if onePNG(t, q); !strings.Contains(content(q), "alice against carol: 0 won, 0 drawn, 1 lost (1 game).") {
		t.Errorf("/vs user:carol: %q", content(q))
	}
}

// TestStoryCommandsRegistered: /profile and /vs are slash commands (a user
// option, which Discord completes from the server's members, and the
// game's choices for /vs); /top's ladder option offers this server or
// the platform, named in each language, its value the word global.
func TestStoryCommandsRegistered(t *testing.T) {
	w, err := chat.NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	h := chat.New(chat.Config{Sessions: sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()}), Catalogues: w})
	by := map[string]*discordgo.ApplicationCommand{}
	for _, c := range commands(h, games.List()) {
		by[c.Name] = c
	}
	opt := func(cmd, name string) *discordgo.ApplicationCommandOption {
		t.Helper()
		if by[cmd] == nil {
			t.Fatalf("no /%s", cmd)
		}
		for _, o := range by[cmd].Options {
			if o.Name == name {
				return o
			}
		}
		t.Fatalf("/%s has no option %s", cmd, name)
		return nil
	}
	if o := opt("vs", "user"); o.Type != discordgo.ApplicationCommandOptionUser || !o.Required {
		t.Errorf("/vs user: %+v", o)
	}
	if o := opt("vs", "game"); len(o.Choices) != len(games.List()) {
		t.Errorf("/vs game choices: %d", len(o.Choices))
	}
	if o := opt("profile", "user"); o.Type != discordgo.ApplicationCommandOptionUser || o.Required {
		t.Errorf("/profile user: %+v", o)
	}
	ladder := opt("top", "ladder")
	if len(ladder.Choices) != 2 || ladder.Choices[0].Value != "here" || ladder.Choices[1].Value != chat.Global {
		t.Fatalf("/top ladder choices: %+v", ladder.Choices)
	}
	global := ladder.Choices[1]
	if global.Name != "global: every Discord player" || global.NameLocalizations[discordgo.German] != "global: alle Spieler auf Discord" ||
		global.NameLocalizations[discordgo.SpanishES] != "global: todos los jugadores de Discord" {
		t.Errorf("/top ladder:global is named %q, %v", global.Name, global.NameLocalizations)
	}
	if d := by["profile"].DescriptionLocalizations; d == nil || (*d)[discordgo.German] == "" {
		t.Errorf("/profile without a German description")
	}
}
