package telegram_test

import (
	"context"
	"html"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// enWords returns the English catalogue.
func enWords(t *testing.T) chat.Speaker {
	t.Helper()
	words, err := chat.NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	return words.In("en")
}

// startForumTour opens a tournament of players in a forum (alice
// organises it), all joined; it returns the tournament.
func (h *harness) startForumTour(forum int64, rounds int, players ...tgUser) *sessions.Tournament {
	h.t.Helper()
	if c, _ := h.sayIn(forum, 0, alice, "/tournament new spanish rounds="+strconv.Itoa(rounds)); isRefusal(c) {
		h.t.Fatalf("/tournament new refused: %s", c.Params["text"])
	}
	for _, p := range players {
		if c, _ := h.sayIn(forum, 0, p, "/tournament join"); isRefusal(c) {
			h.t.Fatalf("%s's join refused: %s", p.user, c.Params["text"])
		}
	}
	return h.tournamentAt(forum)
}

// TestTournamentTopicClosed: when a tournament game ends, its result is
// the last message of its topic, which the bot then closes; a command an
// administrator types there later (/board, /rematch), or a press on an
// old board's button, is answered without sending anything into the
// closed topic (the fake fails the test on such a send), also after a
// restart; /tournament show still links the topic.
func TestTournamentTopicClosed(t *testing.T) {
	f := newFake(t)
	store := sessionstest.NewMemoryStore()
	h := startMemoryBotOn(t, f, store, nil)
	en := enWords(t)
	const forum int64 = -1006101
	f.setForum(forum, true)
	f.setMember(forum, botID, "administrator", "can_manage_chat", "can_manage_topics")
	f.setMember(forum, bob.id, "administrator", "can_manage_chat", "can_manage_topics")
	h.startForumTour(forum, 2, alice, bob, carol, erin)
	m := f.mark()
	h.sayIn(forum, 0, alice, "/tournament start")
	tour := h.tournamentAt(forum)
	g := tour.Played[0].Games[0]
	thread := topicOf(t, g.Key)
	board, _ := f.waitCall(m, sentIn(forum, thread, "sendPhoto"))
	white := tgOf(t, tour.Players[0].User)
	for _, p := range tour.Players {
		if p.User.ID == g.White {
			white = tgOf(t, p.User)
		}
	}
	m = f.mark()
	f.push(inTopic(forum, thread, white, "/resign"))
	result, next := f.waitCall(m, sentIn(forum, thread, "sendMessage", "sendPhoto"))
	closing, _ := f.waitCall(next, method("closeForumTopic"))
	if closing.Params["chat_id"] != strconv.FormatInt(forum, 10) || closing.Params["message_thread_id"] != strconv.Itoa(thread) {
		t.Errorf("closeForumTopic %v, want the game's topic %d", closing.Params, thread)
	}
	if !strings.Contains(result.Params["caption"]+result.Params["text"], "Game over") {
		t.Errorf("the topic's last message %q is not the result", result.Params["caption"]+result.Params["text"])
	}
	for _, c := range f.callsSince(m, 0) {
		if c.Params["message_thread_id"] == strconv.Itoa(thread) && strings.HasPrefix(c.Method, "send") && c.At.After(closing.At) {
			t.Errorf("%s into the topic after it closed: %v", c.Method, c.Params)
		}
	}
	if !f.isClosed(forum, thread) {
		t.Fatalf("topic %d is open", thread)
	}
	tour = h.tournamentAt(forum)
	g = tour.Played[0].Games[0]

	// An administrator may still type there: the bot answers in General.
	refusal := html.EscapeString(en.T("TourPlaceClosed", "Game", g.GameID))
	for _, cmd := range []string{"/board", "/rematch", "/tournament standings", "/play spanish @alice"} {
		m = f.mark()
		f.push(inTopic(forum, thread, bob, cmd))
		c, _ := f.waitCall(m, sentIn(forum, 0, "sendMessage"))
		if want := `tg://user?id=2">bob</a> ` + refusal; !strings.Contains(c.Params["text"], want) {
			t.Errorf("%s in the closed topic answered %q, want %q", cmd, c.Params["text"], want)
		}
	}
	if s, err := h.svc.Look(context.Background(), g.Key); err == nil {
		t.Errorf("a session opened in the closed topic: %v", s.Record)
	}
	// A press on the first board's buttons: an alert.
	m = f.mark()
	up := press(forum, white, board.MsgID, "mv:x")
	up["callback_query"].(map[string]any)["message"].(map[string]any)["message_thread_id"] = thread
	up["callback_query"].(map[string]any)["message"].(map[string]any)["is_topic_message"] = true
	f.push(up)
	alert, _ := f.waitCall(m, method("answerCallbackQuery"))
	if alert.Params["show_alert"] != "true" || !strings.Contains(alert.Params["text"], "its place is closed") {
		t.Errorf("a press in the closed topic answered %v", alert.Params)
	}

	// /tournament show links the closed topic.
	c, _ := h.say(alice.id, alice, "/tournament show "+tour.ID)
	link := "https://t.me/c/" + strings.TrimPrefix(strconv.FormatInt(forum, 10), "-100") + "/" + strconv.Itoa(thread)
	if !strings.Contains(c.Params["text"]+c.Params["caption"], "#"+g.GameID+", in "+link+")") {
		t.Errorf("/tournament show %q does not link the game's topic %s", c.Params["text"]+c.Params["caption"], link)
	}

	// After a restart the bot still knows the topic is closed.
	h.stop()
	startMemoryBotOn(t, f, store, nil)
	m = f.mark()
	f.push(inTopic(forum, thread, bob, "/board"))
	if c, _ := f.waitCall(m, sentIn(forum, 0, "sendMessage")); !strings.Contains(c.Params["text"], refusal) {
		t.Errorf("/board in the closed topic after a restart answered %q", c.Params["text"])
	}
}

// TestTopicChatterIsNoMove: in a game's topic, a one-word message with a
// digit ("2nd") answers only the topic's first message, as every message
// there does: it is no move, and the bot says nothing; a move typed as a
// reply to the bot's board is still played.
func TestTopicChatterIsNoMove(t *testing.T) {
	f := newFake(t)
	h := startMemoryBot(t, f)
	const forum int64 = -1006102
	f.setForum(forum, true)
	f.setMember(forum, botID, "administrator", "can_manage_chat", "can_manage_topics")
	h.startForumTour(forum, 1, alice, bob, carol)
	m := f.mark()
	h.sayIn(forum, 0, alice, "/tournament start")
	tour := h.tournamentAt(forum)
	var g sessions.TourGame
	for _, x := range tour.Played[0].Games {
		if x.Black != "" {
			g = x
		}
	}
	thread := topicOf(t, g.Key)
	board, _ := f.waitCall(m, sentIn(forum, thread, "sendPhoto"))
	white, black := tgOf(t, tour.Players[0].User), tgOf(t, tour.Players[0].User)
	for _, p := range tour.Players {
		switch p.User.ID {
		case g.White:
			white = tgOf(t, p.User)
		case g.Black:
			black = tgOf(t, p.User)
		}
	}
	before := h.look0(g.Key)
	m = f.mark()
	f.push(inTopic(forum, thread, white, "2nd"), inTopic(forum, thread, black, "gg"))
	// A command after them shows they were handled: nothing was said.
	h.sayIn(forum, thread, white, "/moves")
	for _, c := range f.callsSince(m, 0) {
		if strings.HasPrefix(c.Method, "send") && c.Params["reply_to_message_id"] != "" {
			t.Errorf("the chatter was answered: %s %v", c.Method, c.Params)
		}
	}
	if after := h.look0(g.Key); len(after.Record.Actions) != len(before.Record.Actions) {
		t.Errorf("the chatter changed the game: %d actions, then %d", len(before.Record.Actions), len(after.Record.Actions))
	}
	// A move typed as a reply to the board is played.
	mv := before.State.Moves()[0].Text
	up := inTopic(forum, thread, white, mv)
	up["message"].(map[string]any)["reply_to_message"] = map[string]any{"message_id": board.MsgID, "message_thread_id": thread,
		"is_topic_message": true, "date": 1, "chat": chatJSON(forum), "from": map[string]any{"id": botID, "is_bot": true, "first_name": "Board"}}
	m = f.mark()
	f.push(up)
	f.waitCall(m, sentIn(forum, thread, "sendPhoto", "sendMessage"))
	if after := h.look0(g.Key); len(after.Record.Actions) != len(before.Record.Actions)+1 {
		t.Errorf("the move %s typed as a reply to the board was not played", mv)
	}
}

// look0 returns the session of key; it fails the test when there is none.
func (h *harness) look0(key sessions.Key) *sessions.Snapshot {
	h.t.Helper()
	s, err := h.svc.Look(context.Background(), key)
	if err != nil {
		h.t.Fatalf("no session at %v: %v", key, err)
	}
	return s
}

// TestTournamentTopicRightsLost: the bot loses the right to manage topics
// between /tournament new and start: the start's pairings say which games
// wait for their place, and a post in the tournament's topic tells the
// organiser and the players (mentioned) at once which right is missing
// (Telegram's, never Discord's) and that the bot tries again; the
// standings mark the games as waiting; once the right is back, the next
// try opens the topics and posts their links.
func TestTournamentTopicRightsLost(t *testing.T) {
	f := newFake(t)
	clk := sessionstest.NewClock(time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC))
	h := startMemoryBotOn(t, f, sessionstest.NewMemoryStore(), clk.Now)
	en := enWords(t)
	const forum int64 = -1006103
	f.setForum(forum, true)
	f.setMember(forum, botID, "administrator", "can_manage_chat", "can_manage_topics")
	h.startForumTour(forum, 2, alice, bob, carol, erin)
	f.setMember(forum, botID, "administrator", "can_manage_chat") // the right taken away
	m := f.mark()
	start, _ := h.sayIn(forum, 0, alice, "/tournament start")
	right := en.T("VenueRightManageTopics")
	if want := html.EscapeString(en.T("TourPairingWaiting", "Board", 1, "Players", "\x00", "Right", right)); !strings.Contains(start.Params["text"], strings.Split(want, "\x00")[1]) {
		t.Errorf("the pairings %q do not say the games wait for their place", start.Params["text"])
	}
	tour := h.tournamentAt(forum)
	header := html.EscapeString(en.T("TourPlaceMissing", "ID", tour.ID, "Round", 1, "Count", 2, "Right", right, "Organiser", "alice"))
	told, _ := f.waitCall(m, func(c *call) bool {
		return sentIn(forum, 0, "sendMessage")(c) && strings.Contains(c.Params["text"], header)
	})
	for _, id := range []string{"1", "2", "3", "5"} { // the organiser and the four players
		if !strings.Contains(told.Params["text"], `tg://user?id=`+id+`"`) {
			t.Errorf("the post %q does not mention user %s", told.Params["text"], id)
		}
	}
	if strings.Contains(told.Params["text"], "Discord") || strings.Contains(told.Params["text"], "thread") {
		t.Errorf("the post names Discord's rights: %q", told.Params["text"])
	}
	c, _ := h.sayIn(forum, 0, bob, "/tournament standings")
	if want := html.EscapeString(en.T("TourResultWaitingFor", "Board", 1, "White", "\x00", "Black", "\x00", "Right", right)); !strings.Contains(c.Params["text"]+c.Params["caption"], strings.Split(want, "\x00")[2]) {
		t.Errorf("the standings %q do not mark the games waiting for their place", c.Params["text"]+c.Params["caption"])
	}

	// The right given back: the next try opens the topics and posts them.
	f.setMember(forum, botID, "administrator", "can_manage_chat", "can_manage_topics")
	m = f.mark()
	clk.Add(sessions.TourRetryEvery)
	h.svc.Tick(context.Background())
	tour = h.tournamentAt(forum)
	opened, _ := f.waitCall(m, func(c *call) bool {
		return sentIn(forum, 0, "sendMessage")(c) && strings.Contains(c.Params["text"], html.EscapeString(en.T("TourPlaceOpened", "ID", tour.ID, "Round", 1, "Count", 2)))
	})
	for _, g := range tour.Played[0].Games {
		if g.Key == (sessions.Key{}) || g.Wait != nil {
			t.Fatalf("after the right came back: %+v", g)
		}
		link := "https://t.me/c/" + strings.TrimPrefix(strconv.FormatInt(forum, 10), "-100") + "/" + g.Key.Thread
		if !strings.Contains(opened.Params["text"], link) {
			t.Errorf("the post %q does not link the topic %s", opened.Params["text"], link)
		}
		f.waitCall(m, sentIn(forum, topicOf(t, g.Key), "sendPhoto"))
	}
}

// TestTournamentCommandsWordedOnTelegram walks the /tournament
// subcommands on Telegram, in the pseudo-language, from a tournament in
// sign-up and one under way, for a player not joined, one joined, one who
// left, the organiser and a chat administrator (getChatMember): every
// command is answered, a refusal as a reply to it, each line from the
// catalogue, none saying the command failed.
func TestTournamentCommandsWordedOnTelegram(t *testing.T) {
	f := newFake(t)
	startPseudoBot(t, f)
	players := []struct {
		state string
		u     tgUser
	}{{"not joined", frank}, {"joined", bob}, {"left", erin}, {"organiser", alice}, {"administrator", gina}}
	commands := []string{"/tournament join", "/tournament join now", "/tournament standings", "/tournament show 1",
		"/tournament show x", "/tournament new spanish format=knockout", "/tournament new spanish", "/tournament leave",
		"/tournament start", "/tournament cancel", "/tournament join"}
	forum := int64(-1006200)
	for _, running := range []bool{false, true} {
		for _, p := range players {
			forum--
			f.setForum(forum, true)
			f.setMember(forum, botID, "administrator", "can_manage_chat", "can_manage_topics")
			f.setMember(forum, gina.id, "administrator", "can_manage_chat")
			build := []struct {
				u    tgUser
				text string
			}{{alice, "/tournament new spanish rounds=2"}, {bob, "/tournament join"}, {carol, "/tournament join"}, {erin, "/tournament join"},
				{dave, "/tournament join"}}
			if running {
				build = append(build, struct {
					u    tgUser
					text string
				}{alice, "/tournament start"})
			}
			build = append(build, struct {
				u    tgUser
				text string
			}{erin, "/tournament leave"})
			for _, s := range build {
				m := f.mark()
				f.push(inTopic(forum, 0, s.u, s.text))
				f.waitCall(m, sentIn(forum, 0, "sendMessage", "sendPhoto"))
			}
			for _, cmd := range commands {
				what := p.state + ", running " + strconv.FormatBool(running) + ": " + cmd
				m := f.mark()
				f.push(inTopic(forum, 0, p.u, cmd))
				c, _ := f.waitCall(m, sentIn(forum, 0, "sendMessage", "sendPhoto"))
				got := c.Params["text"] + c.Params["caption"]
				if strings.Contains(got, "went wrong") || strings.Contains(got, "not possible now") {
					t.Errorf("%s: %q", what, got)
				}
				if n := fromCatalogue(t, []*call{c}); n == 0 {
					t.Errorf("%s: nothing said", what)
				}
			}
		}
	}
}
