package telegram_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/telegram"
)

// Test429Storm: fifty 429 answers in a row to one message do not lose it:
// each is waited out for its retry_after, none counts as a failed
// attempt, and the message goes once.
func Test429Storm(t *testing.T) {
	h, f, clock := limitedBot(t, nil)
	for range 50 {
		f.failNext("sendMessage", 3)
	}
	m := f.mark()
	f.push(text(group, alice, "/games"))
	drive(t, h, clock, "the answer through 50 429s", func() bool { return telegram.Pending(h.bot) == 0 && f.mark() > m+50 })
	h.stop()
	tries := f.callsOf(m, func(c *call) bool { return c.Method == "sendMessage" })
	got := f.callsOf(m, sent(group, "sendMessage"))
	if len(tries) != 51 || len(got) != 1 || got[0] != tries[50] {
		t.Fatalf("%d tries, %d answers sent; want 50 refused, then one sent", len(tries), len(got))
	}
	for i := 1; i < len(tries); i++ {
		if d := tries[i].Clock.Sub(tries[i-1].Clock); d < 3*time.Second {
			t.Errorf("try %d came %v after a 429 with retry_after 3", i, d)
		}
	}
}

// TestLimitsNoLoss: 40 users each send five commands in their private
// chats and one sends 30 in a group, all at once, against a Telegram that
// answers 429 at its limits (20 a minute into a group, about 30 a second
// in all, about one a second into a chat after a burst): every answer
// arrives, once. The bot keeps the limits itself: Telegram never has to
// answer 429; with the bot's own limits off, the 429s alone pace it, and
// still nothing is lost.
func TestLimitsNoLoss(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tweak func(c *telegram.Config)
		paced bool
	}{
		{"paced", nil, true},
		{"unpaced", func(c *telegram.Config) { c.GroupLimit, c.ChatEvery, c.GlobalLimit = -1, -1, -1 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, f, clock := limitedBot(t, tc.tweak)
			private := []string{"/help", "/games", "/help move", "/help board", "/xyzzy"}
			var ups []map[string]any
			want := map[string]bool{} // chat id and reply_to: an answer owed
			for u := range 40 {
				id := int64(100 + u)
				user := tgUser{id, "user" + strconv.Itoa(u), "U"}
				for _, cmd := range private {
					up := text(id, user, cmd)
					ups = append(ups, up)
					want[owedKey(id, up)] = true
				}
			}
			for i := range 30 {
				up := text(group, carol, fmt.Sprintf("/q%d", i)) // 30 different refusals
				ups = append(ups, up)
				want[owedKey(group, up)] = true
			}
			m := f.mark()
			f.push(ups...)
			drive(t, h, clock, "every answer", func() bool {
				return f.confirmed() > 0 && telegram.Pending(h.bot) == 0 && len(f.callsOf(m, sent(group, "sendMessage"))) >= 30
			})
			h.stop()
			got := map[string]int{}
			for _, c := range f.callsOf(m, func(c *call) bool { return c.Status == http.StatusOK && c.Method == "sendMessage" }) {
				got[c.Params["chat_id"]+"|"+answerTo(c)]++
			}
			lost, twice := 0, 0
			for k := range want {
				switch n := got[k]; {
				case n == 0:
					lost++
				case n > 1:
					twice++
				}
			}
			refused := len(f.callsOf(m, func(c *call) bool { return c.Status == http.StatusTooManyRequests }))
			t.Logf("%d answers owed: %d lost, %d sent twice; Telegram answered 429 %d times; %v on the clock",
				len(want), lost, twice, refused, clock.Now().Sub(epoch))
			if lost > 0 || twice > 0 || len(got) != len(want) {
				t.Errorf("%d answers owed, %d answered: %d lost, %d sent twice", len(want), len(got), lost, twice)
			}
			if tc.paced && refused > 0 {
				t.Errorf("Telegram answered 429 %d times: the bot did not keep its limits", refused)
			}
		})
	}
}

// owedKey names the answer owed to an update: its chat and the command
// ("/help move"), which is unique in its chat.
func owedKey(chatID int64, up map[string]any) string {
	return strconv.FormatInt(chatID, 10) + "|" + up["message"].(map[string]any)["text"].(string)
}

// answerTo names the command an answer answers, from its words: the
// tests' commands are answered each in words of their own.
func answerTo(c *call) string {
	text := c.Params["text"]
	switch {
	case strings.HasPrefix(text, "Commands ("):
		return "/help"
	case strings.HasPrefix(text, "Games:"):
		return "/games"
	case strings.HasPrefix(text, "/move "):
		return "/help move"
	case strings.HasPrefix(text, "/board"):
		return "/help board"
	}
	if rest, ok := strings.CutPrefix(text, "I don&#39;t know the command "); ok {
		cmd, _, _ := strings.Cut(rest, ":")
		return cmd
	}
	return "?" + text
}
