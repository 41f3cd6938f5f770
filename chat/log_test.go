package chat_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestLogLinesAboutGames: every log line about a game, from the sessions
// service and from the chat handler, carries the session's key and its
// platform as attributes (in JSON: "session" and "platform"), so that an
// operator can follow one game and filter by platform; what the players
// typed is never in them.
func TestLogLinesAboutGames(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	store := sessionstest.NewMemoryStore()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	svc := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }, Log: log,
		Now: func() time.Time { return now }, ChallengeTTL: time.Hour})
	defer svc.Close()
	h := chat.New(chat.Config{Sessions: svc, Log: log})
	say := func(k sessions.Key, name, text string) chat.Reply {
		return h.Handle(ctx, chat.Message{Key: k, User: user(name), Text: text})
	}
	lobby := sessions.Key{Platform: "telegram", Channel: "-100"}
	game := sessions.Key{Platform: "discord", Channel: "700", Thread: "701"}

	// A challenge nobody answers expires (an info line).
	say(lobby, "alice", "/play count @bob target=9")
	now = now.Add(2 * time.Hour)
	svc.Tick(ctx)
	// A store that fails: the commit and the command fail (error lines).
	say(game, "alice", "/play count @bob color=white target=9")
	say(game, "bob", "/accept")
	store.Fail = func(*sessions.Change) error { return errors.New("disk on fire") }
	if r := say(game, "alice", "/move 2"); !r.Error {
		t.Fatalf("move on a failing store: %q", r.Text())
	}

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := map[string]sessions.Key{"challenge expired": lobby, "commit failed": game, "command failed": game}
	for _, l := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		msg, _ := rec["msg"].(string)
		k, ok := want[msg]
		if !ok {
			continue
		}
		delete(want, msg)
		if rec["session"] != k.String() || rec["platform"] != k.Platform {
			t.Errorf("%q: session %v, platform %v; want %q and %q", msg, rec["session"], rec["platform"], k.String(), k.Platform)
		}
		if strings.Contains(l, "/move") || strings.Contains(l, "@bob") {
			t.Errorf("%q carries what a player typed: %s", msg, l)
		}
	}
	if len(want) > 0 {
		t.Errorf("lines missing: %v\nlog:\n%s", want, buf.String())
	}
}
