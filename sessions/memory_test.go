package sessions_test

import (
	"context"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestFreedSessionsLeaveMemory: once a session is over and nobody waits for
// it, the service forgets it; a session in play stays.
func TestFreedSessionsLeaveMemory(t *testing.T) {
	ctx := context.Background()
	s := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games})
	alice := sessions.User{ID: "a", Name: "alice"}
	count := s.Resident
	for i, ch := range []string{"c1", "c2", "c3"} {
		r := sessions.Request{Key: sessions.Key{Platform: "t", Channel: ch}, User: alice}
		if _, err := s.Challenge(ctx, r, sessions.ChallengeSpec{Game: "count", Play: sessions.DefaultPlayOptions()}); err != nil {
			t.Fatal(err)
		}
		if got := count(); got != i+1 {
			t.Fatalf("%d sessions in memory, want %d", got, i+1)
		}
	}
	for _, ch := range []string{"c1", "c2"} {
		if _, err := s.Cancel(ctx, sessions.Request{Key: sessions.Key{Platform: "t", Channel: ch}, User: alice}); err != nil {
			t.Fatal(err)
		}
	}
	s.Look(ctx, sessions.Key{Platform: "t", Channel: "never"})
	if got := count(); got != 1 {
		t.Fatalf("%d sessions in memory after two were cancelled, want 1", got)
	}
}
