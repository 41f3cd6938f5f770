package main

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// hanging is a store whose next commit hangs until release is closed;
// its reads go on meanwhile (as bbolt's do).
type hanging struct {
	*sessionstest.MemoryStore
	entered, release chan struct{}
}

func (h *hanging) Commit(ctx context.Context, c *sessions.Change) error {
	close(h.entered)
	<-h.release
	return h.MemoryStore.Commit(ctx, c)
}

// TestReadyzStuckCommit: while a commit of the store runs longer than
// storage.commit_watchdog (the store hangs), /readyz is unready and says
// since when; once the commit returns, it is ready again.
func TestReadyzStuckCommit(t *testing.T) {
	c := defaultConfig()
	c.Metrics.Listen = "127.0.0.1:0"
	entered, release := make(chan struct{}), make(chan struct{})
	store := &hanging{MemoryStore: sessionstest.NewMemoryStore(), entered: entered, release: release}
	o, err := newOperations(c, store, "bbolt")
	if err != nil {
		t.Fatal(err)
	}
	defer o.serve(context.Background(), slog.New(slog.DiscardHandler))()
	clock := sessionstest.NewClock(time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC))
	w := sessions.NewWatchdog(sessions.WatchdogConfig{Bound: time.Second, Now: clock.Now})
	svc := sessions.New(sessions.Config{Store: w.Wrap(store), Games: sessionstest.Games, Now: clock.Now})
	defer svc.Close()
	o.watch(svc, w)
	done := make(chan error, 1)
	go func() {
		_, err := svc.Challenge(context.Background(), sessions.Request{Key: sessions.Key{Platform: "console", Channel: "t"}, User: sessions.User{ID: "a", Name: "alice"}},
			sessions.ChallengeSpec{Game: "count", Play: sessions.DefaultPlayOptions()})
		done <- err
	}()
	<-entered
	if r := o.health.Readyz(context.Background()); !r.Ready {
		t.Fatalf("a commit running within its bound: %+v", r)
	}
	clock.Add(2 * time.Second)
	r := o.health.Readyz(context.Background())
	if r.Ready || !strings.HasPrefix(r.Checks["commits"], "a commit has run since 2026-06-01T09:00:00Z, longer than storage.commit_watchdog (1s)") {
		t.Fatalf("a commit stuck: %+v", r)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if r := o.health.Readyz(context.Background()); !r.Ready || r.Checks["commits"] != "ok" {
		t.Fatalf("the commit returned: %+v", r)
	}
}
