package ops_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/ops"
	"github.com/boardgamebot/bot/ops/opstest"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

var ctx = context.Background()

// bot is a sessions service and chat handler counted by a Metrics, with
// the metrics served by an httptest server.
type bot struct {
	t     *testing.T
	clock *sessionstest.Clock
	store *sessionstest.MemoryStore
	svc   *sessions.Service
	h     *chat.Handler
	m     *ops.Metrics
	url   string
}

func newBot(t *testing.T) *bot {
	b := &bot{t: t, clock: sessionstest.NewClock(time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)), store: sessionstest.NewMemoryStore()}
	health := ops.NewHealth(b.clock.Now)
	b.m = ops.New(ops.Options{Store: "bbolt", Clocks: health.Loop("clocks", time.Second), Commands: chat.CommandNames()})
	b.svc = sessions.New(sessions.Config{Store: b.store, Games: sessionstest.Games, Rand: func(int) int { return 0 },
		Now: b.clock.Now, ChallengeTTL: time.Hour, Metrics: b.m})
	t.Cleanup(b.svc.Close)
	b.m.Sessions(b.svc)
	b.m.Tournaments(b.store.ActiveTournaments)
	b.h = chat.New(chat.Config{Sessions: b.svc, Observer: chat.LabelObserver(b.m.Handled), Rate: chat.DefaultRate(), Now: b.clock.Now})
	srv := httptest.NewServer(ops.Mux(b.m, health))
	t.Cleanup(srv.Close)
	b.url = srv.URL
	return b
}

func (b *bot) say(k sessions.Key, name, text string) chat.Reply {
	return b.h.Handle(ctx, chat.Message{Key: k, User: sessions.User{ID: "id-" + name, Name: name}, Text: text})
}

func (b *bot) scrape() opstest.Families { return scrape(b.t, b.url) }

// scrape reads the metrics served at base and checks their labels.
func scrape(t *testing.T, base string) opstest.Families {
	t.Helper()
	f := opstest.Scrape(t, base+"/metrics")
	opstest.CheckLabels(t, f, chat.CommandNames())
	return f
}

// want checks the value of one series.
func want(t *testing.T, f opstest.Families, v float64, name string, labels ...string) {
	t.Helper()
	if got, _ := f.Value(name, labels...); got != v {
		t.Errorf("%s%v = %v, want %v", name, labels, got, v)
	}
}

// TestClockMetrics: the clocks' reminder, the move played for a player out
// of time and a challenge that expired each count once under their kind,
// and each pass of the clocks counts.
func TestClockMetrics(t *testing.T) {
	b := newBot(t)
	game := sessions.Key{Platform: "telegram", Channel: "-100"}
	lobby := sessions.Key{Platform: "discord", Channel: "700"}
	b.say(game, "alice", "/play count @bob color=white target=50 time=1h")
	b.say(game, "bob", "/accept")
	b.say(lobby, "carol", "/play count @dave")

	f := b.scrape()
	for _, kind := range []string{"reminder", "auto_move", "expired"} {
		want(t, f, 0, "boardgamebot_clock_deadlines_fired_total", "kind="+kind)
	}
	b.clock.Add(55 * time.Minute) // a tenth of the hour left
	b.svc.Tick(ctx)
	b.clock.Add(10 * time.Minute) // the hour is over; the challenge too
	b.svc.Tick(ctx)
	if err := b.svc.Settle(ctx, game); err != nil {
		t.Fatal(err)
	}
	f = b.scrape()
	want(t, f, 1, "boardgamebot_clock_deadlines_fired_total", "kind=reminder")
	want(t, f, 1, "boardgamebot_clock_deadlines_fired_total", "kind=auto_move")
	want(t, f, 1, "boardgamebot_clock_deadlines_fired_total", "kind=expired")
	want(t, f, 2, "boardgamebot_clock_ticks_total")
	want(t, f, 1, "boardgamebot_moves_committed_total", "store=bbolt") // the clock's move
	want(t, f, 1, "boardgamebot_commands_total", "platform=telegram", "command=accept", "outcome=applied")
	want(t, f, 1, "boardgamebot_commands_total", "platform=discord", "command=play", "outcome=applied")
}

// TestCommandOutcomes: a command the user gets wrong is refused; one the
// store fails is an error; one past the rate limit is rate_limited (its
// notice, and the one dropped after it); a conflict with another process
// a change the store cannot tell it saved, and a failure of the store
// count apart. A command or a platform the bot does not know
// counts as "other", never under what was typed.
func TestCommandOutcomes(t *testing.T) {
	b := newBot(t)
	k := sessions.Key{Platform: "console", Channel: "terminal"}
	b.say(k, "alice", "/play count @bob color=white target=9")
	b.say(k, "bob", "/accept")
	b.say(k, "bob", "/move 1") // not bob's turn
	b.store.Fail = func(*sessions.Change) error { return errors.New("disk full") }
	b.say(k, "alice", "/move 1")
	b.store.Fail = func(*sessions.Change) error { return sessions.ErrConflict }
	b.say(k, "alice", "/m 1")
	b.store.Fail = func(*sessions.Change) error {
		return fmt.Errorf("etcd: the answer was lost: %w", sessions.ErrUnknownOutcome)
	}
	b.say(k, "alice", "/m 1")
	b.store.Fail = nil
	b.say(k, "alice", "/m 1")
	b.say(sessions.Key{Platform: "irc", Channel: "#x"}, "eve", "/xyzzy")
	for range 10 { // past the rate limit: 8 answered, a notice, one dropped
		b.say(k, "mallory", "/board")
	}

	f := b.scrape()
	want(t, f, 1, "boardgamebot_commands_total", "platform=console", "command=move", "outcome=refused")
	want(t, f, 3, "boardgamebot_commands_total", "platform=console", "command=move", "outcome=error")
	want(t, f, 1, "boardgamebot_commands_total", "platform=console", "command=move", "outcome=applied")
	want(t, f, 1, "boardgamebot_moves_committed_total", "store=bbolt")
	want(t, f, 1, "boardgamebot_commit_failures_total", "store=bbolt", "reason=error")
	// a conflict is judged again once: two commits, both in conflict
	want(t, f, 2, "boardgamebot_commit_failures_total", "store=bbolt", "reason=conflict")
	want(t, f, 1, "boardgamebot_commit_failures_total", "store=bbolt", "reason=unknown")
	want(t, f, 7, "boardgamebot_commit_duration_seconds", "store=bbolt")
	want(t, f, 1, "boardgamebot_sessions_resident")
	want(t, f, 0, "boardgamebot_tournaments", "status=running")
	want(t, f, 1, "boardgamebot_commands_total", "platform=other", "command=other", "outcome=refused")
	want(t, f, 8, "boardgamebot_commands_total", "platform=console", "command=board", "outcome=applied")
	want(t, f, 2, "boardgamebot_commands_total", "platform=console", "command=board", "outcome=rate_limited")
}
