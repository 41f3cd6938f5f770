package discord

import (
	"testing"
	"time"

	"github.com/boardgamebot/bot/internal/testwait"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestConnected: Connected says whether the gateway connection is up: not
// before Run, up once Run connected, up again once a dropped connection
// resumed, and down after Run returned.
func TestConnected(t *testing.T) {
	f := newFakeDiscord(t)
	b, svc := build(t, f, sessions.Config{Store: sessionstest.NewMemoryStore()}, Config{})
	if b.Connected() {
		t.Fatal("connected before Run")
	}
	e := run(t, f, b, svc)
	// eventually waits for Connected to report up, the first heartbeat
	// sent (discordgo marks the session ready then).
	eventually := func(what string) {
		t.Helper()
		if !testwait.Until(30*time.Second, b.Connected) {
			t.Fatalf("not connected %s", what)
		}
	}
	eventually("after Run connected")
	f.drop()
	if !testwait.Until(30*time.Second, func() bool { _, resumes := f.counts(); return resumes == 1 }) {
		t.Fatal("the dropped connection never resumed")
	}
	eventually("after the connection resumed")
	e.stop()
	if b.Connected() {
		t.Fatal("connected after Run returned")
	}
}
