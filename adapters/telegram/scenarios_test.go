package telegram_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"math/rand/v2"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/internal/testwait"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

func editOf(msgID int) func(c *call) bool {
	return func(c *call) bool {
		return c.Method == "editMessageReplyMarkup" && c.Status == http.StatusOK && c.Params["message_id"] == strconv.Itoa(msgID)
	}
}

func isAlert(c *call) bool { return c.Params["show_alert"] == "true" }

// moveOf finds the legal move with the given text.
func moveOf(t testing.TB, s *sessions.Snapshot, text string) rules.Move {
	t.Helper()
	for _, m := range s.State.Moves() {
		if m.Text == text {
			return m
		}
	}
	t.Fatalf("no legal move %q", text)
	return rules.Move{}
}

// targetButton finds the button of mv among the targets.
func targetButton(t testing.TB, kb [][]kbButton, mv rules.Move) string {
	t.Helper()
	for _, label := range []string{mv.Text, mv.To.String()} {
		for _, row := range kb {
			for _, b := range row {
				if b.Text == label && b.CallbackData != nil {
					return *b.CallbackData
				}
			}
		}
	}
	t.Fatalf("no target button for %s in %v", mv.Text, kb)
	return ""
}

// playByButtons plays mv by two taps under the board photo: Move, the
// piece, the target. It returns the next board photo.
func (h *harness) playByButtons(chatID int64, who tgUser, photo *call, mv rules.Move) *call {
	t := h.t
	t.Helper()
	a, m := h.tap(chatID, who, photo.MsgID, find(t, keyboard(t, photo), "Move"))
	if isAlert(a) {
		t.Fatalf("Move refused: %s", a.Params["text"])
	}
	edit, _ := h.f.waitCall(m, editOf(photo.MsgID))
	a, m = h.tap(chatID, who, photo.MsgID, find(t, keyboard(t, edit), mv.From.String()))
	if isAlert(a) {
		t.Fatalf("piece %s refused: %s", mv.From, a.Params["text"])
	}
	edit, _ = h.f.waitCall(m, editOf(photo.MsgID))
	a, m = h.tap(chatID, who, photo.MsgID, targetButton(t, keyboard(t, edit), mv))
	if isAlert(a) {
		t.Fatalf("target of %s refused: %s", mv.Text, a.Params["text"])
	}
	next, _ := h.f.waitCall(m, sent(chatID, "sendPhoto"))
	return next
}

// TestGameByButtons plays a game with buttons only: Accept, then Move, a
// piece and a target for every move, then Resign and its confirmation.
func TestGameByButtons(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	rng := rand.New(rand.NewPCG(3, 4))
	photo := h.challenge(group, "spanish")
	s := h.look(group)

	// Strangers and the player not to move are refused, and nothing changes.
	if a, _ := h.tap(group, carol, photo.MsgID, find(t, keyboard(t, photo), "Move")); !isAlert(a) || !strings.Contains(a.Params["text"], "not playing") {
		t.Errorf("a stranger's Move press answered %v", a.Params)
	}
	if a, _ := h.tap(group, bob, photo.MsgID, find(t, keyboard(t, photo), "Move")); !isAlert(a) || !strings.Contains(a.Params["text"], "alice's turn") {
		t.Errorf("Move out of turn answered %v", a.Params)
	}

	for plies := 0; plies < 30 && s != nil; plies++ {
		who := users[s.Player(s.Turn()).Name]
		mv := moveOf(t, s, pick(rng, s))
		photo = h.playByButtons(group, who, photo, mv)
		next := h.look(group)
		if next != nil {
			acts := next.Record.Actions
			if len(acts) != plies+1 || acts[len(acts)-1].Text != mv.Text {
				t.Fatalf("ply %d: the record holds %d actions, the last %v; want %s", plies, len(acts), acts[len(acts)-1], mv.Text)
			}
		}
		checkCaption(t, photo, next)
		s = next
	}
	if s == nil {
		t.Fatal("the game ended before the resignation")
	}
	// Resign asks first; No puts the game's buttons back; Yes resigns.
	who := users[s.Player(s.Turn()).Name]
	a, m := h.tap(group, who, photo.MsgID, find(t, keyboard(t, photo), "Resign"))
	if isAlert(a) {
		t.Fatalf("Resign refused: %s", a.Params["text"])
	}
	edit, _ := f.waitCall(m, editOf(photo.MsgID))
	_, m = h.tap(group, who, photo.MsgID, find(t, keyboard(t, edit), "No, play on"))
	edit, _ = f.waitCall(m, editOf(photo.MsgID))
	find(t, keyboard(t, edit), "Move")
	if h.look(group) == nil {
		t.Fatal("No resigned the game")
	}
	_, m = h.tap(group, who, photo.MsgID, find(t, keyboard(t, photo), "Resign"))
	edit, _ = f.waitCall(m, editOf(photo.MsgID))
	_, m = h.tap(group, who, photo.MsgID, find(t, keyboard(t, edit), "Yes, resign"))
	end, _ := f.waitCall(m, sent(group, "sendPhoto"))
	if !strings.Contains(end.Params["caption"], "resigns") || !strings.Contains(end.Params["caption"], "Game over") {
		t.Errorf("the resignation's caption: %q", end.Params["caption"])
	}
	if h.look(group) != nil {
		t.Error("the game goes on after the resignation")
	}
}

// TestChallengeWrongUser: only the named user may accept; with seats open
// to anyone (four-player Halma), anyone but the challenger may take them.
func TestChallengeWrongUser(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	c, _ := h.say(group, alice, "/play spanish @bob")
	acc := find(t, keyboard(t, c), "Accept")
	for _, u := range []tgUser{carol, dave, alice} {
		a, _ := h.tap(group, u, c.MsgID, acc)
		if !isAlert(a) {
			t.Errorf("%s's Accept was not refused: %v", u.first, a.Params)
		}
		if u != alice && !strings.Contains(a.Params["text"], "@bob") {
			t.Errorf("%s's refusal does not name @bob: %q", u.first, a.Params["text"])
		}
	}
	if a, _ := h.tap(group, carol, c.MsgID, find(t, keyboard(t, c), "Decline")); !isAlert(a) {
		t.Errorf("carol declined bob's challenge: %v", a.Params)
	}
	r, _ := h.say(group, carol, "/accept")
	if r.Params["reply_to_message_id"] == "" || !strings.Contains(r.Params["text"], "@bob") {
		t.Errorf("carol's /accept answered %v", r.Params)
	}
	if s := h.look(group); s == nil || s.Phase() != sessions.PhaseChallenge {
		t.Fatalf("the challenge changed: %v", s)
	}
	m := f.mark()
	if a, _ := h.tap(group, bob, c.MsgID, acc); isAlert(a) {
		t.Fatalf("bob's Accept refused: %s", a.Params["text"])
	}
	f.waitCall(m, sent(group, "sendPhoto"))
	s := h.look(group)
	if s.Phase() != sessions.PhasePlaying || s.Record.SeatsOf(bob.sessionUser()) == nil {
		t.Fatalf("bob is not seated: %+v", s.Record.Seats)
	}
	// The challenge's buttons are gone.
	f.waitCall(m, editOf(c.MsgID))

	// Four-player Halma: bob is named, the other two seats are open.
	const group2 int64 = -1005678
	eve := tgUser{5, "eve", "Eve"}
	c, _ = h.say(group2, alice, "/play halma players=4 @bob")
	acc = find(t, keyboard(t, c), "Accept")
	for i, step := range []struct {
		u  tgUser
		ok bool
	}{{carol, true}, {alice, false}, {dave, true}, {eve, false}, {bob, true}} {
		m := f.mark()
		a, _ := h.tap(group2, step.u, c.MsgID, acc)
		if isAlert(a) == step.ok {
			t.Fatalf("step %d: %s's Accept answered %v", i, step.u.first, a.Params)
		}
		if step.ok {
			f.waitCall(m, sent(group2, "sendMessage", "sendPhoto"))
		}
	}
	s = h.look(group2)
	if s == nil || s.Phase() != sessions.PhasePlaying {
		t.Fatalf("the four-player game has not started: %+v", s)
	}
	// A few moves of four-player Halma by buttons.
	photo, _ := f.waitCall(0, sent(group2, "sendPhoto"))
	rng := rand.New(rand.NewPCG(9, 10))
	byID := map[string]tgUser{}
	for _, u := range []tgUser{alice, bob, carol, dave} {
		byID[strconv.FormatInt(u.id, 10)] = u
	}
	for ply := 0; ply < 8; ply++ {
		who := byID[s.Player(s.Turn()).ID]
		photo = h.playByButtons(group2, who, photo, moveOf(t, s, pick(rng, s)))
		s = h.look(group2)
		checkCaption(t, photo, s)
	}
	if n := len(s.Record.Actions); n != 8 {
		t.Errorf("%d actions after 8 moves by buttons", n)
	}
}

// TestOldKeyboard: a press on a keyboard of an earlier position is refused
// with an alert, its keyboard removed, and nothing played.
func TestOldKeyboard(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	photo1 := h.challenge(group, "spanish")
	s := h.look(group)
	mv := s.State.Moves()[0]
	photo2, _ := h.say(group, alice, "/move "+mv.Text, "sendPhoto")

	// The first board's keyboard went when the second board came; a
	// press made on it before that reached bob's screen is refused, and
	// the keyboard is not taken off twice (Telegram would refuse that
	// edit: the fake fails the test).
	edit, _ := f.waitCall(0, editOf(photo1.MsgID))
	if kb := keyboard(t, edit); len(kb) != 0 {
		t.Errorf("the old keyboard was replaced by %v, not removed", kb)
	}
	a, _ := h.tap(group, bob, photo1.MsgID, find(t, keyboard(t, photo1), "Move"))
	if !isAlert(a) || !strings.Contains(a.Params["text"], "out of date") {
		t.Errorf("a press on the first board answered %v", a.Params)
	}

	// bob opens his targets, then plays by text; the open keyboard is old.
	s = h.look(group)
	mv = s.State.Moves()[0]
	_, m := h.tap(group, bob, photo2.MsgID, find(t, keyboard(t, photo2), "Move"))
	edit, _ = f.waitCall(m, editOf(photo2.MsgID))
	_, m = h.tap(group, bob, photo2.MsgID, find(t, keyboard(t, edit), mv.From.String()))
	edit, _ = f.waitCall(m, editOf(photo2.MsgID))
	targets := keyboard(t, edit)
	h.say(group, bob, "/move "+mv.Text, "sendPhoto")
	s = h.look(group)
	n := len(s.Record.Actions)
	m = f.mark()
	a, _ = h.tap(group, alice, photo2.MsgID, targetButton(t, targets, mv))
	if !isAlert(a) {
		t.Errorf("a press on an old target answered %v", a.Params)
	}
	for _, c := range f.callsSince(m, 100*time.Millisecond) {
		if c.Method == "sendPhoto" || c.Method == "sendMessage" {
			t.Errorf("the old keyboard's press sent %s %v", c.Method, c.Params)
		}
	}
	if got := len(h.look(group).Record.Actions); got != n {
		t.Errorf("%d actions after the old press, want %d", got, n)
	}
}

// TestDuplicateUpdate: an update delivered twice, and a button press
// delivered twice under two update ids, are applied once.
func TestDuplicateUpdate(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	h.challenge(group, "spanish")
	s := h.look(group)
	up := text(group, alice, "/move "+s.State.Moves()[0].Text)
	up["update_id"] = 4242
	again := map[string]any{"update_id": 4242, "message": up["message"]}
	m := f.mark()
	f.push(up, again)
	photo, _ := f.waitCall(m, sent(group, "sendPhoto"))
	for _, c := range f.callsSince(m, 200*time.Millisecond) {
		if c.Method == "sendMessage" || (c.Method == "sendPhoto" && c != photo) {
			t.Errorf("the second delivery sent %s %v", c.Method, c.Params)
		}
	}
	if n := len(h.look(group).Record.Actions); n != 1 {
		t.Fatalf("%d actions after a move delivered twice", n)
	}

	// bob's target press, delivered twice with different update ids.
	s = h.look(group)
	mv := s.State.Moves()[0]
	_, m = h.tap(group, bob, photo.MsgID, find(t, keyboard(t, photo), "Move"))
	edit, _ := f.waitCall(m, editOf(photo.MsgID))
	_, m = h.tap(group, bob, photo.MsgID, find(t, keyboard(t, edit), mv.From.String()))
	edit, _ = f.waitCall(m, editOf(photo.MsgID))
	p := press(group, bob, photo.MsgID, targetButton(t, keyboard(t, edit), mv))
	m = f.mark()
	f.push(p, map[string]any{"callback_query": p["callback_query"]})
	f.waitCall(m, sent(group, "sendPhoto"))
	answers := 0
	for _, c := range f.callsSince(m, 200*time.Millisecond) {
		if c.Method == "answerCallbackQuery" {
			answers++
		}
		if c.Method == "sendMessage" {
			t.Errorf("the second press sent %v", c.Params)
		}
	}
	if answers != 1 {
		t.Errorf("%d answers to one press delivered twice", answers)
	}
	if n := len(h.look(group).Record.Actions); n != 2 {
		t.Errorf("%d actions after a press delivered twice, want 2", n)
	}
}

// TestRetryAfter: a 429 answer is waited out for its retry_after and the
// photo sent again.
func TestRetryAfter(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	f.failNext("sendPhoto", 1)
	f.failNext("answerCallbackQuery", 1)
	m := f.mark()
	photo := h.challenge(group, "spanish")
	refused, _ := f.waitCall(m, func(c *call) bool { return c.Method == "sendPhoto" && c.Status == http.StatusTooManyRequests })
	if wait := photo.At.Sub(refused.At); wait < time.Second {
		t.Errorf("sent again %v after a 429 with retry_after 1", wait)
	}
	if photo.Image == nil {
		t.Error("the photo sent again has no picture")
	}
	if s := h.look(group); s == nil || s.Phase() != sessions.PhasePlaying {
		t.Error("the game has not started")
	}
}

// TestRestart: the bot stops mid-game and starts again on the same
// database; the game goes on, and the keyboard of the last board still
// works.
func TestRestart(t *testing.T) {
	f := newFake(t)
	path := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, f, path, nil)
	rng := rand.New(rand.NewPCG(5, 6))
	photo := h.challenge(group, "dame")
	s := h.look(group)
	for i := 0; i < 4; i++ {
		photo, _ = h.say(group, users[s.Player(s.Turn()).Name], "/move "+pick(rng, s), "sendPhoto")
		s = h.look(group)
	}
	fen := s.State.FEN()
	h.stop()

	h = startBot(t, f, path, nil)
	s = h.look(group)
	if s == nil || s.State.FEN() != fen || len(s.Record.Actions) != 4 {
		t.Fatalf("after the restart: %+v", s)
	}
	mv := moveOf(t, s, pick(rng, s))
	photo = h.playByButtons(group, users[s.Player(s.Turn()).Name], photo, mv)
	s = h.look(group)
	for i := 0; i < 4 && s != nil; i++ {
		photo, _ = h.say(group, users[s.Player(s.Turn()).Name], "/m "+pick(rng, s), "sendPhoto")
		s = h.look(group)
	}
	if s == nil || len(s.Record.Actions) != 9 {
		t.Fatalf("the game did not go on after the restart: %+v", s)
	}
	checkCaption(t, photo, s)
}

// TestJunk: updates of unknown kinds, edits, stickers, empty and huge
// texts, other bots' commands and bad button data change nothing, and the
// bot keeps answering.
func TestJunk(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	m := f.mark()
	const chatJS = `"chat":{"id":-1001234,"type":"supergroup","title":"g"},"from":{"id":1,"is_bot":false,"first_name":"A","username":"alice"}`
	f.pushRaw(`{"update_id":%d,"poll":{"id":"p","question":"?","options":[]}}`)
	f.pushRaw(`{"update_id":%d,"edited_message":{"message_id":1,"date":1,` + chatJS + `,"text":"/play spanish"}}`)
	f.pushRaw(`{"update_id":%d,"message":{"message_id":2,"date":1,` + chatJS + `,"sticker":{"file_id":"s","file_unique_id":"u","width":1,"height":1}}}`)
	f.pushRaw(`{"update_id":%d,"message":"not an object"}`)
	f.pushRaw(`{"update_id":%d}`)
	f.pushRaw(`{"update_id":%d,"channel_post":{"message_id":3,"date":1,"chat":{"id":-1009,"type":"channel"},"text":"/play spanish"}}`)
	f.pushRaw(`{"update_id":%d,"message":{"message_id":4,"date":1,"chat":{"id":-1001234,"type":"supergroup"},"from":{"id":77,"is_bot":true,"first_name":"B"},"text":"/play spanish"}}`)
	f.pushRaw(`{"update_id":%d,"callback_query":{"id":"x1","from":{"id":1,"first_name":"A"},"chat_instance":"c","inline_message_id":"i","data":"c:0:accept"}}`)
	f.push(text(group, alice, ""), text(group, alice, "   "), text(group, alice, "hello everyone"),
		text(group, alice, "/play@OtherBot spanish"), text(group, alice, "/play\u0000 spanish"))
	huge := text(group, alice, "/move "+strings.Repeat("x", 100000))
	f.push(huge)
	// Presses with data the bot never made, on a message with buttons
	// (Telegram delivers presses on buttons only; the fake knows no
	// keyboard of message 4242, and takes the bot's taking it off).
	f.push(press(group, alice, 4242, "zz:bad:data"), press(group, alice, 4242, ""), press(group, alice, 4242, strings.Repeat("c:", 40)),
		press(group, alice, 4242, "c:0:play spanish"))
	f.push(text(group, carol, "/help@boardbot"))
	f.waitCall(m, func(c *call) bool {
		return sent(group, "sendMessage")(c) && strings.Contains(c.Params["text"], "/move")
	})
	hugeID := strconv.Itoa(huge["message"].(map[string]any)["message_id"].(int))
	for _, c := range f.callsSince(m, 200*time.Millisecond) {
		switch c.Method {
		case "sendMessage":
			if c.Params["reply_to_message_id"] == hugeID || strings.Contains(c.Params["text"], "/move") {
				continue
			}
			if strings.Contains(c.Params["text"], "control characters") {
				continue // "/play\x00 spanish" is a command with a bad character
			}
			t.Errorf("junk answered with %v", c.Params)
		case "sendPhoto", "sendAnimation", "sendDocument":
			t.Errorf("junk answered with %s %v", c.Method, c.Params)
		}
	}
	if s := h.look(group); s != nil {
		t.Errorf("junk started a session: %+v", s.Record)
	}
	if s, _ := h.svc.Look(context.Background(), sessions.Key{Platform: telegram.Platform, Channel: "-1009"}); s != nil {
		t.Errorf("a channel post started a session")
	}

	// A forum topic is a session of its own, answered in its topic.
	topic := text(group, alice, "/play spanish @bob")
	msg := topic["message"].(map[string]any)
	msg["message_thread_id"], msg["is_topic_message"] = 7, true
	m = f.mark()
	f.push(topic)
	c, _ := f.waitCall(m, sent(group, "sendMessage"))
	if c.Params["message_thread_id"] != "7" {
		t.Errorf("the answer in a topic went to thread %q", c.Params["message_thread_id"])
	}
	if s, _ := h.svc.Look(context.Background(), sessions.Key{Platform: telegram.Platform, Channel: strconv.FormatInt(group, 10), Thread: "7"}); s == nil {
		t.Error("no session for the topic")
	}
	if h.look(group) != nil {
		t.Error("the topic's challenge landed in the chat's session")
	}
}

// TestPings: /notify on, only after a private /start; turn pings by
// private message with a link back to the game.
func TestPings(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	c, _ := h.say(group, dave, "/notify on")
	if !strings.Contains(c.Params["text"], "https://t.me/BoardBot?start=notify") || c.Params["reply_to_message_id"] == "" {
		t.Errorf("/notify on before /start answered %v", c.Params)
	}
	h.say(int64(bob.id), bob, "/start")
	c, _ = h.say(group, bob, "/notify on")
	if !strings.Contains(c.Params["text"], "on") {
		t.Errorf("/notify on answered %q", c.Params["text"])
	}
	h.challenge(group, "spanish")
	s := h.look(group)
	m := f.mark()
	photo, _ := h.say(group, alice, "/move "+s.State.Moves()[0].Text, "sendPhoto")
	ping, _ := f.waitCall(m, sent(int64(bob.id), "sendMessage"))
	if !strings.Contains(ping.Params["text"], "Your turn") || !strings.Contains(ping.Params["text"], "Board &lt;games&gt; &amp; co") {
		t.Errorf("the ping says %q", ping.Params["text"])
	}
	kb := keyboard(t, ping)
	if want := "https://t.me/c/1234/" + strconv.Itoa(photo.MsgID); len(kb) != 1 || kb[0][0].URL == nil || *kb[0][0].URL != want {
		t.Errorf("the ping's button: %+v, want a link to the board after the move, %s", kb, want)
	}
	// alice asked for no pings.
	h.say(group, bob, "/move "+h.look(group).State.Moves()[0].Text, "sendPhoto")
	for _, c := range f.callsSince(m, 100*time.Millisecond) {
		if c.Params["chat_id"] == strconv.FormatInt(alice.id, 10) {
			t.Errorf("alice got a ping: %v", c.Params)
		}
	}
	// bob blocks the bot: the next ping is refused, and no more are tried.
	f.mu.Lock()
	f.blocked[strconv.FormatInt(bob.id, 10)] = true
	f.mu.Unlock()
	bobID := strconv.FormatInt(bob.id, 10)
	for i := range 2 {
		m = f.mark()
		h.say(group, alice, "/move "+h.look(group).State.Moves()[0].Text, "sendPhoto")
		if i == 0 {
			f.waitCall(m, func(c *call) bool { return c.Params["chat_id"] == bobID && c.Status == http.StatusForbidden })
		}
		h.say(group, bob, "/move "+h.look(group).State.Moves()[0].Text, "sendPhoto")
	}
	tries := 0
	for _, c := range f.callsSince(0, 100*time.Millisecond) {
		if c.Params["chat_id"] == bobID && c.Status == http.StatusForbidden {
			tries++
		}
	}
	if tries != 1 {
		t.Errorf("%d pings tried after bob blocked the bot, want 1", tries)
	}
	// The bot may no longer write to bob: /notify on sends the link again.
	c, _ = h.say(group, bob, "/notify on")
	if !strings.Contains(c.Params["text"], "?start=notify") {
		t.Errorf("/notify on after blocking answered %q", c.Params["text"])
	}
}

// TestPingsAfterRestart: the choices of turn pings are kept in the
// database: after a restart an opted-in player still gets his pings by
// private message, one who opted out gets none, and one who blocked the
// bot is not tried again.
func TestPingsAfterRestart(t *testing.T) {
	f := newFake(t)
	path := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, f, path, nil)
	h.say(int64(bob.id), bob, "/start notify")
	h.say(int64(alice.id), alice, "/start")
	h.say(group, alice, "/notify on")
	if c, _ := h.say(group, alice, "/notify off"); !strings.Contains(c.Params["text"], "Turn pings are off") {
		t.Errorf("/notify off answered %q", c.Params["text"])
	}
	h.stop()

	h = startBot(t, f, path, nil)
	for _, c := range []struct {
		who  tgUser
		want string
	}{{bob, "pings are on"}, {alice, "pings are off"}} {
		if r, _ := h.say(group, c.who, "/notify"); !strings.Contains(r.Params["text"], c.want) {
			t.Errorf("/notify by %s after the restart answered %q, want %q", c.who.user, r.Params["text"], c.want)
		}
	}
	h.challenge(group, "spanish")
	m := f.mark()
	h.say(group, alice, "/move "+h.look(group).State.Moves()[0].Text, "sendPhoto")
	if ping, _ := f.waitCall(m, sent(int64(bob.id), "sendMessage")); !strings.Contains(ping.Params["text"], "Your turn") {
		t.Errorf("bob's ping after the restart says %q", ping.Params["text"])
	}
	m = f.mark()
	h.say(group, bob, "/move "+h.look(group).State.Moves()[0].Text, "sendPhoto")
	aliceID, bobID := strconv.FormatInt(alice.id, 10), strconv.FormatInt(bob.id, 10)
	for _, c := range f.callsSince(m, 150*time.Millisecond) {
		if c.Params["chat_id"] == aliceID {
			t.Errorf("alice opted out before the restart and got %s %v", c.Method, c.Params)
		}
	}

	// bob blocks the bot: his pings are turned off, in the database too.
	f.mu.Lock()
	f.blocked[bobID] = true
	f.mu.Unlock()
	m = f.mark()
	h.say(group, alice, "/move "+h.look(group).State.Moves()[0].Text, "sendPhoto")
	f.waitCall(m, func(c *call) bool { return c.Params["chat_id"] == bobID && c.Status == http.StatusForbidden })
	h.stop()

	h = startBot(t, f, path, nil)
	m = f.mark()
	h.say(group, bob, "/move "+h.look(group).State.Moves()[0].Text, "sendPhoto")
	h.say(group, alice, "/move "+h.look(group).State.Moves()[0].Text, "sendPhoto")
	for _, c := range f.callsSince(m, 150*time.Millisecond) {
		if c.Params["chat_id"] == bobID || c.Params["chat_id"] == aliceID {
			t.Errorf("a ping after the second restart: %s %v", c.Method, c.Params)
		}
	}
}

// failingPrefs is a store of preferences that fails.
type failingPrefs struct{ readErr error }

func (p failingPrefs) SetNotify(ctx context.Context, platform, userID string, on bool) error {
	return errors.New("disk full")
}

func (p failingPrefs) NotifyPrefs(ctx context.Context, platform string) (map[string]bool, error) {
	return map[string]bool{}, p.readErr
}

// TestPingsNotSaved: a choice that cannot be stored is said so (and holds
// until the restart); a store that cannot be read stops New; without
// Prefs the choices last until the restart only.
func TestPingsNotSaved(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", func(c *telegram.Config) { c.Prefs = failingPrefs{} })
	c, _ := h.say(int64(bob.id), bob, "/start notify")
	if !strings.Contains(c.Params["text"], "could not save") || strings.Contains(c.Params["text"], "disk full") {
		t.Errorf("/start notify with a failing store answered %q", c.Params["text"])
	}
	if c, _ := h.say(group, bob, "/notify"); !strings.Contains(c.Params["text"], "pings are on") {
		t.Errorf("/notify after a failed save answered %q", c.Params["text"])
	}
	if c, _ := h.say(group, bob, "/notify off"); !strings.Contains(c.Params["text"], "could not save") {
		t.Errorf("/notify off with a failing store answered %q", c.Params["text"])
	}
	if !strings.Contains(h.logs.String(), "disk full") {
		t.Error("the failed save is not logged")
	}
	h.stop()

	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})
	_, err := telegram.New(telegram.Config{Token: "x", Prefs: failingPrefs{readErr: errors.New("bad record")}},
		chat.New(chat.Config{Sessions: svc}), svc, render.New(), nil)
	if err == nil || !strings.Contains(err.Error(), "bad record") {
		t.Errorf("New with unreadable prefs: %v", err)
	}

	path := filepath.Join(t.TempDir(), "bot.db")
	noPrefs := func(c *telegram.Config) { c.Prefs = nil }
	h = startBot(t, f, path, noPrefs)
	h.say(int64(bob.id), bob, "/start notify")
	h.stop()
	h = startBot(t, f, path, noPrefs)
	if c, _ := h.say(group, bob, "/notify"); !strings.Contains(c.Params["text"], "pings are off") {
		t.Errorf("/notify after a restart without Prefs answered %q", c.Params["text"])
	}
}

// TestGroupLimit: at most GroupLimit messages per GroupWindow go into a
// group; the rest wait, none is dropped.
func TestGroupLimit(t *testing.T) {
	f := newFake(t)
	const n, window = 3, 400 * time.Millisecond
	h := startBot(t, f, "", func(c *telegram.Config) { c.GroupLimit, c.GroupWindow = n, window })
	m := f.mark()
	for _, c := range []string{"move", "moves", "board", "play", "draw", "resign", "games"} {
		f.push(text(group, alice, "/help "+c)) // seven different answers: none merged
	}
	var at []time.Time
	for from := m; len(at) < 7; {
		var c *call
		c, from = f.waitCall(from, sent(group, "sendMessage"))
		at = append(at, c.At)
	}
	for i := n; i < len(at); i++ {
		if d := at[i].Sub(at[i-n]); d < window-20*time.Millisecond {
			t.Errorf("messages %d and %d went %v apart, within one window of %v", i-n, i, d, window)
		}
	}
	_ = h
}

// TestWebhook: setWebhook with the secret token, requests without it
// refused, updates served, and a clean shutdown.
func TestWebhook(t *testing.T) {
	f := newFake(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := startBot(t, f, "", func(c *telegram.Config) {
		c.Webhook = &telegram.WebhookConfig{URL: "https://bot.example.org/tg/hook", SecretToken: "s3cret_token", Listener: ln}
	})
	set, _ := f.waitCall(0, method("setWebhook"))
	if set.Params["url"] != "https://bot.example.org/tg/hook" || set.Params["secret_token"] != "s3cret_token" {
		t.Errorf("setWebhook %v", set.Params)
	}
	url := "http://" + ln.Addr().String() + "/tg/hook"
	post := func(secret, body string) int {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if secret != "" {
			req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return -1
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	body := `{"update_id":1,"message":{"message_id":9,"date":1,"chat":{"id":-1001234,"type":"supergroup"},"from":{"id":1,"first_name":"A","username":"alice"},"text":"/games"}}`
	m := f.mark()
	if code := post("", body); code != http.StatusUnauthorized {
		t.Errorf("no secret: %d", code)
	}
	if code := post("wrong", body); code != http.StatusUnauthorized {
		t.Errorf("a wrong secret: %d", code)
	}
	if code := post("s3cret_token", body); code != http.StatusOK {
		t.Errorf("the right secret: %d", code)
	}
	c, _ := f.waitCall(m, sent(group, "sendMessage"))
	if !strings.Contains(c.Params["text"], "spanish") {
		t.Errorf("/games by webhook answered %q", c.Params["text"])
	}
	if code := post("s3cret_token", body); code != http.StatusOK {
		t.Errorf("a second delivery: %d", code)
	}
	for _, c := range f.callsSince(m, 100*time.Millisecond) {
		if c.Method == "getUpdates" {
			t.Error("getUpdates called in webhook mode")
		}
	}
	if n := len(f.callsSince(m, 0)); n != 1 {
		t.Errorf("%d calls after two deliveries of one update", n)
	}
	h.stop()
	if code := post("s3cret_token", body); code != -1 {
		t.Errorf("the webhook still answers after Run returned: %d", code)
	}
}

// TestShutdown: Run returns soon after its context is cancelled, in the
// middle of a long poll.
func TestShutdown(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", func(c *telegram.Config) { c.PollTimeout = 30 * time.Second })
	f.waitCall(0, func(c *call) bool { return c.Method == "getMe" })
	testwait.Until(5*time.Second, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return len(f.polls) > 0
	})
	start := time.Now()
	h.stop()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Run took %v to return", d)
	}
	if f.polls[0].timeout != 30 {
		t.Errorf("getUpdates timeout %d, want 30", f.polls[0].timeout)
	}
}

// TestNewAndToken: bad configurations are refused by New; a refused
// token makes Run fail, with one "telegram: " prefix and without the token
// in the error.
func TestNewAndToken(t *testing.T) {
	f := newFake(t)
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})
	h := chat.New(chat.Config{Sessions: svc})
	r := render.New()
	for _, c := range []telegram.Config{
		{},
		{Token: "x", APIEndpoint: "ftp://host"},
		{Token: "x", APIEndpoint: "http://host/%d"},
		{Token: "x", Webhook: &telegram.WebhookConfig{URL: "not a url", Listen: ":1"}},
		{Token: "x", Webhook: &telegram.WebhookConfig{URL: "https://h/p"}},
		{Token: "x", Webhook: &telegram.WebhookConfig{URL: "https://h/p", Listen: ":1", SecretToken: "bad token!"}},
	} {
		_, err := telegram.New(c, h, svc, r, nil)
		if err == nil {
			t.Errorf("New(%+v) took it", c)
			continue
		}
		if !onePrefix(err) {
			t.Errorf("New(%+v): %q, want one \"telegram: \" prefix", c, err)
		}
	}
	b, err := telegram.New(telegram.Config{Token: "999:wrong", APIEndpoint: f.srv.URL}, h, svc, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = b.Run(ctx)
	if err == nil || !strings.Contains(err.Error(), "Unauthorized") || strings.Contains(err.Error(), "999:wrong") {
		t.Errorf("a wrong token: %v", err)
	}
	if err != nil && !onePrefix(err) {
		t.Errorf("a wrong token: %q, want one \"telegram: \" prefix", err)
	}
}

// onePrefix reports whether err says "telegram: " first and only there
// (not "telegram: telegram: ..." nor "telegram: ...: telegram getMe: ...").
func onePrefix(err error) bool {
	rest, ok := strings.CutPrefix(err.Error(), "telegram: ")
	return ok && !regexp.MustCompile(`telegram[ :]`).MatchString(rest)
}

// TestComputerAndClock: the computer's replies come as board photos after
// the photo of the move they answer; a reminder is a mention in the group
// for players without pings.
func TestComputerAndClock(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	key := sessions.Key{Platform: telegram.Platform, Channel: strconv.FormatInt(group, 10)}
	ctx := context.Background()
	start, _ := h.say(group, alice, "/play spanish bot color=white level=1")
	if start.Method != "sendPhoto" || !strings.Contains(start.Params["caption"], "Game on") {
		t.Fatalf("/play spanish bot answered %s %v", start.Method, start.Params)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for ply := 0; ply < 6; ply += 2 {
		s := h.look(group)
		if s == nil || s.Turn() != 0 {
			t.Fatalf("ply %d: not alice's turn: %+v", ply, s)
		}
		mv := pick(rng, s)
		m := f.mark()
		f.push(text(group, alice, "/move "+mv))
		mine, next := f.waitCall(m, sent(group, "sendPhoto"))
		if !strings.Contains(mine.Params["caption"], "alice (White) played "+mv) {
			t.Fatalf("ply %d: the first photo after alice's move says %q", ply, mine.Params["caption"])
		}
		reply, _ := f.waitCall(next, sent(group, "sendPhoto"))
		if !strings.Contains(reply.Params["caption"], "Computer (Black) played") {
			t.Fatalf("ply %d: the computer's photo says %q", ply, reply.Params["caption"])
		}
		testwait.Until(time.Second, func() bool { return h.look(group).Turn() == 0 })
		checkCaption(t, reply, h.look(group))
		find(t, keyboard(t, reply), "Move")
	}

	s := h.look(group)
	m := f.mark()
	h.bot.Notify(ctx, sessions.Notice{Kind: sessions.NoticeMoved, Key: key, Session: s, Seat: 1, Move: s.Last, Auto: true})
	c, _ := f.waitCall(m, sent(group, "sendPhoto"))
	if !strings.Contains(c.Params["caption"], "ran out of time: the computer played "+s.Last.Text) {
		t.Errorf("an auto-move's caption: %q", c.Params["caption"])
	}
	m = f.mark()
	h.bot.Notify(ctx, sessions.Notice{Kind: sessions.NoticeReminder, Key: key, To: alice.sessionUser(), Session: s, Seat: 0, Left: 90 * time.Minute})
	c, _ = f.waitCall(m, sent(group, "sendMessage"))
	if !strings.Contains(c.Params["text"], `<a href="tg://user?id=1">alice</a>, 1h 30m left`) {
		t.Errorf("the reminder says %q", c.Params["text"])
	}
}

// TestMentionAndFileID: the player to move is a text mention with the name
// escaped, even without a username; a board sent again is sent by its
// file_id, not uploaded again.
func TestMentionAndFileID(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	zed := tgUser{6, "", "<i>Zed</i> & co"}
	c, _ := h.say(group, alice, "/play spanish color=black time=1d")
	m := f.mark()
	if a, _ := h.tap(group, zed, c.MsgID, find(t, keyboard(t, c), "Accept")); isAlert(a) {
		t.Fatalf("Zed's Accept refused: %s", a.Params["text"])
	}
	photo, _ := f.waitCall(m, sent(group, "sendPhoto"))
	want := `<a href="tg://user?id=6">&lt;i&gt;Zed&lt;/i&gt; &amp; co</a> (White) to move`
	if !strings.Contains(photo.Params["caption"], want) {
		t.Errorf("caption %q lacks %q", photo.Params["caption"], want)
	}
	if photo.Image == nil {
		t.Fatal("the first board was not uploaded")
	}
	if !strings.Contains(photo.Params["caption"], "Move by ") {
		t.Errorf("the caption of a game with a clock has no deadline: %q", photo.Params["caption"])
	}
	again, _ := h.say(group, zed, "/board", "sendPhoto")
	if again.Image != nil || again.Params["photo"] != "photo-"+strconv.Itoa(photo.MsgID) {
		t.Errorf("the same board was not sent by its file_id: photo=%q, uploaded=%v", again.Params["photo"], again.Image != nil)
	}
}

// TestReplyMove: in a group, a move typed as a reply to the bot's board is
// played; chatter in reply to it is left alone.
func TestReplyMove(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	photo := h.challenge(group, "spanish")
	replyTo := func(u tgUser, s string) map[string]any {
		up := text(group, u, s)
		up["message"].(map[string]any)["reply_to_message"] = map[string]any{"message_id": photo.MsgID, "date": 1,
			"chat": chatJSON(group), "from": map[string]any{"id": 999, "is_bot": true, "first_name": "Board", "username": "BoardBot"}}
		return up
	}
	m := f.mark()
	f.push(replyTo(alice, "nice board"), replyTo(alice, "gg"))
	mv := h.look(group).State.Moves()[0].Text
	f.push(replyTo(alice, mv))
	c, _ := f.waitCall(m, sent(group, "sendMessage", "sendPhoto"))
	if c.Method != "sendPhoto" || !strings.Contains(c.Params["caption"], "played "+mv) {
		t.Errorf("a move in reply to the board answered %s %v", c.Method, c.Params)
	}
	if n := len(h.look(group).Record.Actions); n != 1 {
		t.Errorf("%d actions after one move in reply", n)
	}
}

// TestPictureTheme: the theme chosen in config is the one the players see.
func TestPictureTheme(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", func(c *telegram.Config) { c.Picture = render.Options{Theme: render.Dark} })
	photo := h.challenge(group, "spanish")
	if photo.Image == nil {
		t.Fatal("no board uploaded")
	}
	s := h.look(group)
	r := render.New()
	for _, tc := range []struct {
		theme render.Theme
		same  bool
	}{{render.Dark, true}, {render.Light, false}} {
		data, err := r.PNG(s.State.View(), s.Last, 0, render.Options{Theme: tc.theme, Numbers: true})
		if err != nil {
			t.Fatal(err)
		}
		want, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if same := samePixels(photo.Image, want); same != tc.same {
			t.Errorf("board photo same as the %s theme's picture: %v, want %v", tc.theme, same, tc.same)
		}
	}
}

func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y += 3 {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x += 3 {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				return false
			}
		}
	}
	return true
}

// TestPingDraw: the private message at the end of a drawn game (alice's
// offer, accepted by bob) says it was a draw, in the same words as the group's.
func TestPingDraw(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	h.say(int64(alice.id), alice, "/start")
	h.say(group, alice, "/notify on")
	h.challenge(group, "spanish")
	h.say(group, alice, "/draw")
	m := f.mark()
	h.say(group, bob, "/draw")
	ping, _ := f.waitCall(m, func(c *call) bool {
		return c.Method == "sendMessage" && c.Params["chat_id"] == strconv.FormatInt(alice.id, 10) && strings.Contains(c.Params["text"], "is over")
	})
	if !strings.Contains(ping.Params["text"], "Game over: draw (draw agreed).") {
		t.Errorf("the end-of-game ping says %q", ping.Params["text"])
	}
	board, _ := f.waitCall(m, sent(group, "sendPhoto"))
	if want := "Not rated: a draw counts once each player made more than 10 moves."; !strings.Contains(board.Params["caption"], want) {
		t.Errorf("the final board's caption lacks %q: %q", want, board.Params["caption"])
	}
}
