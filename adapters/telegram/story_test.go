package telegram_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
)

// ratedGame plays a rated Spanish game in group chat: white challenges
// black by text, black accepts with the button, 24 plies are played
// (through the service: the moves are not what this tests), then black
// types /resign.
func (h *harness) ratedGame(chat int64, white, black tgUser) {
	h.t.Helper()
	c, _ := h.say(chat, white, "/play spanish @"+black.user+" color=white")
	m := h.f.mark()
	if a, _ := h.tap(chat, black, c.MsgID, find(h.t, keyboard(h.t, c), "Accept")); a.Params["show_alert"] == "true" {
		h.t.Fatalf("accepting: %s", a.Params["text"])
	}
	h.f.waitCall(m, sent(chat, "sendPhoto"))
	key := sessions.Key{Platform: telegram.Platform, Channel: strconv.FormatInt(chat, 10)}
	for range 24 {
		s := h.look(chat)
		var move string
		for _, mv := range s.State.Moves() {
			if next, _, err := s.State.Play(mv.Text); err == nil && !next.Outcome().Over {
				move = mv.Text
				break
			}
		}
		if _, err := h.svc.Move(context.Background(), sessions.Request{Key: key, User: s.Player(s.Turn())}, move); err != nil {
			h.t.Fatal(err)
		}
	}
	if r, _ := h.say(chat, black, "/resign"); !strings.Contains(r.Params["caption"]+r.Params["text"], "Ratings:") {
		h.t.Fatalf("/resign: %v", r.Params)
	}
}

// TestGroupLaddersAndPictures: in two Telegram groups with a player in
// common, each group's /top lists the players of its own rated games,
// whatever the topic; a private chat shows the platform's ladder;
// /rating and /profile answer with photos (the chart, the card), /vs
// with the record and both ratings' chart; the menus offer /profile and
// /vs in every language.
func TestGroupLaddersAndPictures(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	const g1, g2 int64 = -1001111, -1002222
	h.ratedGame(g1, alice, bob)
	h.ratedGame(g2, carol, alice)
	words := func(c *call) string { return c.Params["text"] + c.Params["caption"] }
	for _, c := range []struct {
		chat      int64
		text      string
		want, not []string
	}{
		{g1, "/top spanish", []string{"this group (2 players)", "alice", "bob"}, []string{"carol"}},
		{g2, "/top spanish", []string{"this group (2 players)", "carol", "alice"}, []string{"bob"}},
		{g1, "/top global spanish", []string{"global (3 players)", "carol"}, nil},
		{bob.id, "/top spanish", []string{"global (3 players)", "carol"}, []string{"/top global"}},
	} {
		r, _ := h.say(c.chat, bob, c.text)
		for _, w := range c.want {
			if !strings.Contains(words(r), w) {
				t.Errorf("%s in %d: %q lacks %q", c.text, c.chat, words(r), w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(words(r), w) {
				t.Errorf("%s in %d: %q has %q", c.text, c.chat, words(r), w)
			}
		}
	}
	for _, c := range []struct {
		text, caption string
		width         int
	}{
		{"/rating", "Ratings of alice", render.ChartWidth},
		{"/profile", "place 2 of 2 here and 2 of 3 on Telegram", render.CardWidth},
		{"/vs @carol", "alice against carol: 0 won, 0 drawn, 1 lost (1 game).", render.ChartWidth},
	} {
		r, _ := h.say(g2, alice, c.text)
		if r.Method != "sendPhoto" || r.Image == nil || r.Image.Bounds().Dx() != c.width || !strings.Contains(r.Params["caption"], c.caption) {
			t.Errorf("%s: %s %q, want a photo %d px wide captioned %q", c.text, r.Method, words(r), c.width, c.caption)
		}
	}
	// The menus in each language list the new commands.
	langs := map[string]string{}
	for _, c := range f.callsSince(0, 0) {
		if c.Method != "setMyCommands" || !strings.Contains(c.Params["scope"], "all_group_chats") {
			continue
		}
		var cmds []struct{ Command, Description string }
		if err := json.Unmarshal([]byte(c.Params["commands"]), &cmds); err != nil {
			t.Fatal(err)
		}
		for _, m := range cmds {
			if m.Command == "profile" || m.Command == "vs" {
				langs[c.Params["language_code"]+"/"+m.Command] = m.Description
			}
		}
	}
	if len(langs) != 8 || langs["de/vs"] != "deine Bilanz gegen einen Spieler und das Diagramm beider Wertungen" {
		t.Errorf("/profile and /vs in the group menus: %v", langs)
	}
}
