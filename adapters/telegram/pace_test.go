package telegram_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/adapters/telegram/telegramtest"
)

// TestChatPace: into one private chat the bot sends a burst of three
// messages, then one a second, as Telegram asks: Telegram never has to
// answer 429.
func TestChatPace(t *testing.T) {
	h, f, clock := limitedBot(t, nil)
	me := int64(carol.id)
	cmds := []string{"/help", "/games", "/help move", "/help board", "/help play", "/history", "/top", "/rating"}
	m := f.mark()
	for _, c := range cmds {
		f.push(text(me, carol, c))
	}
	drive(t, h, clock, "the answers", func() bool {
		return len(f.callsOf(m, sent(me, "sendMessage"))) == len(cmds) && telegram.Pending(h.bot) == 0
	})
	got := f.callsOf(m, sent(me, "sendMessage"))
	for i, c := range got {
		if at := c.Clock.Sub(got[0].Clock); i >= 3 && at < time.Duration(i-2)*time.Second {
			t.Errorf("answer %d went %v after the first, before %ds", i, at, i-2)
		}
	}
	if n := len(f.callsOf(m, func(c *call) bool { return c.Status == http.StatusTooManyRequests })); n > 0 {
		t.Errorf("Telegram answered 429 %d times", n)
	}
}

// TestChatsInTurn: the overall pace (here one message a second) serves
// the chats in turn: a chat with a backlog of 40 answers delays another
// chat's answer by one message, not by its backlog.
func TestChatsInTurn(t *testing.T) {
	f := newFake(t)
	clock := telegramtest.NewClock(epoch)
	f.useClock(clock.Now)
	h := startBot(t, f, "", func(c *telegram.Config) { c.Clock, c.GlobalLimit = clock, 1 })
	clock.Advance(time.Second) // the start's answers are out of the pace's memory
	var ups []map[string]any
	for i := range 40 {
		ups = append(ups, text(group, carol, fmt.Sprintf("/q%d", i))) // 40 different refusals
	}
	ids := f.push(ups...)
	until(t, f, clock, "the backlog handled", func() bool { return f.confirmed() > ids[len(ids)-1] })
	m := f.mark()
	id := f.push(text(int64(bob.id), bob, "/games"))[0]
	until(t, f, clock, "bob's answer waiting for its turn", func() bool { return f.confirmed() > id && telegram.InLine(h.bot) == 2 })
	var order []*call
	for len(f.callsOf(m, sent(int64(bob.id), "sendMessage"))) == 0 {
		n := len(f.callsOf(m, func(c *call) bool { return c.Method == "sendMessage" }))
		clock.Advance(time.Second)
		until(t, f, clock, "one message more", func() bool {
			return len(f.callsOf(m, func(c *call) bool { return c.Method == "sendMessage" })) > n
		})
	}
	order = f.callsOf(m, func(c *call) bool { return c.Method == "sendMessage" })
	if len(order) > 2 {
		t.Errorf("bob's answer went after %d of the group's: the chats did not take turns", len(order)-1)
	}
	drive(t, h, clock, "the backlog", func() bool { return telegram.Pending(h.bot) == 0 })
	all := f.callsOf(0, func(c *call) bool { return strings.HasPrefix(c.Method, "send") })
	for i := 1; i < len(all); i++ {
		if d := all[i].Clock.Sub(all[i-1].Clock); d < time.Second {
			t.Errorf("messages %d and %d went %v apart: more than one a second", i-1, i, d)
		}
	}
	if n := len(f.callsOf(0, sent(group, "sendMessage"))); n != 40 {
		t.Errorf("the group got %d answers, want 40", n)
	}
}

// TestSendRetries: a message whose sending fails for a while (the
// connection drops, Telegram answers 5xx) ten times in a row is tried
// again, the pause doubling from RetryPause up to a minute, one log line
// per attempt, and goes once.
func TestSendRetries(t *testing.T) {
	h, f, clock := limitedBot(t, func(c *telegram.Config) { c.RetryPause = time.Second })
	fails := []int{0, http.StatusBadGateway, http.StatusInternalServerError, 0, http.StatusServiceUnavailable,
		http.StatusGatewayTimeout, 0, 0, http.StatusBadGateway, http.StatusInternalServerError}
	f.breakNext("sendMessage", fails...)
	m := f.mark()
	f.push(text(group, alice, "/games"))
	drive(t, h, clock, "the answer", func() bool { return len(f.callsOf(m, sent(group, "sendMessage"))) == 1 })
	tries := f.callsOf(m, func(c *call) bool { return c.Method == "sendMessage" })
	if len(tries) != len(fails)+1 {
		t.Fatalf("%d tries, want %d", len(tries), len(fails)+1)
	}
	pause := time.Second
	for i := 1; i < len(tries); i++ {
		if d := tries[i].Clock.Sub(tries[i-1].Clock); d < pause {
			t.Errorf("try %d came %v after the one before, want %v", i, d, pause)
		}
		pause = min(2*pause, time.Minute)
	}
	if n := strings.Count(h.logs.String(), "method=sendMessage attempt="); n != len(fails) {
		t.Errorf("%d log lines of failed attempts, want %d", n, len(fails))
	}
}

// TestChatGone: when Telegram says the bot may no longer write in a chat
// (403: blocked, removed from the group), the message is given up with
// one log line, and the messages waiting for that chat with it; the chat's
// later messages are tried again.
func TestChatGone(t *testing.T) {
	h, f, clock := limitedBot(t, func(c *telegram.Config) { c.ChatBurst = 1 })
	me := int64(carol.id)
	h.say(me, carol, "/games") // the burst of one is used
	f.mu.Lock()
	f.blocked[strconv.FormatInt(me, 10)] = true
	f.mu.Unlock()
	m := f.mark()
	ids := f.push(text(me, carol, "/help"), text(me, carol, "/help move"), text(me, carol, "/top"), text(me, carol, "/rating"))
	until(t, f, clock, "the answers waiting", func() bool { return f.confirmed() > ids[len(ids)-1] })
	drive(t, h, clock, "the chat's queue", func() bool { return telegram.Pending(h.bot) == 0 })
	if n := len(f.callsOf(m, func(c *call) bool { return c.Params["chat_id"] == strconv.FormatInt(me, 10) })); n != 1 {
		t.Errorf("%d calls into the chat that is gone, want 1", n)
	}
	lines := 0
	for _, l := range strings.Split(h.logs.String(), "\n") {
		if strings.Contains(l, "a message was not sent") {
			lines++
			if !strings.Contains(l, "dropped_with_it=3") {
				t.Errorf("the log line does not count the 3 messages dropped with it: %s", l)
			}
		}
	}
	if lines != 1 {
		t.Errorf("%d log lines for the chat that is gone, want 1:\n%s", lines, h.logs.String())
	}
}
