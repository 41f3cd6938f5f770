package telegram_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestRateLimitInAGroup: a member who floods a group with 40 commands,
// those the chat handler answers and those the adapter answers itself
// (/notify), has the first 8 answered, gets
// one slow-down notice, as a reply to the 9th, and then no answer at all;
// the players' game goes on. (Every command here gets a reply of its own,
// with a text of its own, so that each answer is counted whatever the
// order the chat's queue sends them in.)
func TestRateLimitInAGroup(t *testing.T) {
	f := newFake(t)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC) // the rate limit's clock stands still
	h := runBotChat(t, f, sessionstest.NewMemoryStore(), nil, func() error { return nil }, nil, nil, nil,
		chat.Config{Rate: chat.DefaultRate(), Now: func() time.Time { return now }})
	h.challenge(group, "spanish")
	from := f.mark()
	var ids []int
	for n := 1; n <= 40; n++ {
		s := fmt.Sprintf("/x%d", n) // an unknown command
		switch n {
		case 1, 12:
			s = "/notify"
		case 2, 13:
			s = "/accept"
		}
		up := text(group, carol, s)
		ids = append(ids, up["message"].(map[string]any)["message_id"].(int))
		f.push(up)
	}
	// The chat's updates are handled in order: alice's move comes after
	// all of carol's.
	f.push(text(group, alice, "/move b3-a4"))
	f.waitCall(from, func(c *call) bool { return c.Method == "sendPhoto" && strings.Contains(c.Params["caption"], "b3-a4") })
	replyTo := func(id int) func(c *call) bool {
		return func(c *call) bool {
			return c.Method == "sendMessage" && c.Params["chat_id"] == strconv.FormatInt(group, 10) && c.Params["reply_to_message_id"] == strconv.Itoa(id)
		}
	}
	for n, id := range ids[:8] {
		c, _ := f.waitCall(from, replyTo(id))
		if strings.Contains(c.Params["text"], "Slow down") {
			t.Errorf("command %d of 8 got the notice: %s", n+1, c.Params["text"])
		}
	}
	notice, _ := f.waitCall(from, replyTo(ids[8]))
	if !strings.Contains(notice.Params["text"], "Slow down") || !strings.Contains(notice.Params["text"], "Try again in 10 seconds") {
		t.Errorf("the 9th command answered %q, want the notice", notice.Params["text"])
	}
	// A last command of alice's, answered after anything carol's could
	// have been: then nothing more was sent to carol.
	last := text(group, alice, "/y")
	f.push(last)
	f.waitCall(from, replyTo(last["message"].(map[string]any)["message_id"].(int)))
	calls := f.callsSince(from, 0)
	for n, id := range ids[9:] {
		for _, c := range calls {
			if replyTo(id)(c) {
				t.Errorf("command %d (after the notice) answered %q, want nothing", n+10, c.Params["text"])
			}
		}
	}
	if s := h.look(group); s == nil || len(s.Record.Actions) != 1 {
		t.Fatalf("alice's move was not played")
	}
}
