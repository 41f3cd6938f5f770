package telegram_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/chat"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestRateLimitInAGroup: a member who floods a group with commands,
// those the chat handler answers and those the adapter answers itself
// (/notify, /start, an Accept that is not theirs), has 8 answered, gets
// one slow-down notice as a reply, and then nothing; the players' game
// goes on.
func TestRateLimitInAGroup(t *testing.T) {
	f := newFake(t)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC) // the rate limit's clock stands still
	h := runBotChat(t, f, sessionstest.NewMemoryStore(), nil, func() error { return nil }, nil, nil,
		chat.Config{Rate: chat.DefaultRate(), Now: func() time.Time { return now }})
	h.challenge(group, "spanish")
	from := f.mark()
	flood := []string{"/board", "/help", "/notify", "/moves", "/start", "/accept", "/nonsense", "/board"}
	for range 5 {
		for _, s := range flood {
			f.push(text(group, carol, s))
		}
	}
	// The chat's updates are handled in order: alice's move comes after
	// all of carol's.
	f.push(text(group, alice, "/move b3-a4"))
	board, _ := f.waitCall(from, func(c *call) bool {
		return c.Method == "sendPhoto" && strings.Contains(c.Params["caption"], "b3-a4")
	})
	var answers, notices int
	for _, c := range f.callsSince(from, 0) {
		if c == board {
			break
		}
		if c.Params["chat_id"] != strconv.FormatInt(group, 10) || !strings.HasPrefix(c.Method, "send") {
			continue
		}
		if strings.Contains(c.Params["text"], "Slow down") {
			notices++
			if c.Params["reply_to_message_id"] == "" && c.Params["reply_parameters"] == "" {
				t.Errorf("the notice is not a reply to carol's command: %v", c.Params)
			}
			continue
		}
		answers++
	}
	if answers != 8 || notices != 1 {
		t.Errorf("carol's 40 commands: %d answers and %d notices before alice's board, want 8 and 1", answers, notices)
	}
	if s := h.look(group); s == nil || len(s.Record.Actions) != 1 {
		t.Fatalf("alice's move was not played")
	}
}
