package chat_test

import (
	"errors"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// observed is what an Observer was told: "platform command outcome".
type observed []string

func (o *observed) Handled(platform, command string, out chat.Outcome) {
	*o = append(*o, platform+" "+command+" "+map[chat.Outcome]string{chat.Applied: "applied", chat.Refused: "refused",
		chat.RateLimited: "rate_limited", chat.Failed: "failed"}[out])
}

// TestObserver: every command answered is told to the Observer once, by
// its name (an alias by the command's; "" for none of the language), with
// what became of it: applied, refused (the user's mistake), rate_limited
// (the notice, and each command dropped after it), failed (the store).
// Empty messages answer nothing and count nothing.
func TestObserver(t *testing.T) {
	var o observed
	store := sessionstest.NewMemoryStore()
	svc := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	clk := sessionstest.NewClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	h := chat.New(chat.Config{Sessions: svc, Rate: chat.DefaultRate(), Now: clk.Now, Observer: &o})
	k := sessions.Key{Platform: "telegram", Channel: "-100"}
	say := func(name, text string) { h.Handle(ctx, chat.Message{Key: k, User: user(name), Text: text}) }
	say("alice", "/play count @bob color=white target=9")
	say("bob", "/accept")
	say("bob", "/m 1")       // not bob's turn
	say("alice", "/m@bot 1") // an alias, addressed to the bot
	say("alice", "hello")    // no command
	say("alice", "   ")      // nothing at all
	store.Fail = func(*sessions.Change) error { return errors.New("disk full") }
	say("bob", "/move 1")
	store.Fail = nil
	for range 8 {
		say("carol", "/board")
	}
	say("carol", "/moves@bot") // the notice
	say("carol", "/nonsense")  // dropped
	want := observed{"telegram play applied", "telegram accept applied", "telegram move refused", "telegram move applied",
		"telegram  refused", "telegram move failed"}
	for range 8 {
		want = append(want, "telegram board applied")
	}
	want = append(want, "telegram moves rate_limited", "telegram  rate_limited")
	if len(o) != len(want) {
		t.Fatalf("told %d times, want %d:\n%q", len(o), len(want), o)
	}
	for i := range want {
		if o[i] != want[i] {
			t.Errorf("#%d: %q, want %q", i+1, o[i], want[i])
		}
	}
}
