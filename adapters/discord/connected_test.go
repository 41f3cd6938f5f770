package discord

import (
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestConnectedHook: Config.Connected hears that the gateway is up at
// READY, down when the connection drops, and up again when the session
// resumes (what /readyz reports as connected and retrying).
func TestConnectedHook(t *testing.T) {
	f := newFakeDiscord(t)
	states := make(chan bool, 16)
	b, svc := build(t, f, sessions.Config{Store: sessionstest.NewMemoryStore()}, Config{Connected: func(up bool) { states <- up }})
	e := run(t, f, b, svc)
	defer e.stop()
	next := func() bool {
		t.Helper()
		select {
		case up := <-states:
			return up
		case <-time.After(10 * time.Second):
			t.Fatal("Connected was not called")
		}
		return false
	}
	if !next() {
		t.Fatal("first call: down, want up (READY)")
	}
	f.drop()
	if next() {
		t.Fatal("after the connection dropped: up, want down")
	}
	if !next() {
		t.Fatal("after the session resumed: down, want up")
	}
}
