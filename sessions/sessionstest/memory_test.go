package sessionstest_test

import (
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

func TestMemoryStore(t *testing.T) {
	sessionstest.TestStore(t, func(t *testing.T) sessions.Store { return sessionstest.NewMemoryStore() })
}

func TestMemoryLinkGenerations(t *testing.T) {
	sessionstest.TestLinkGenerations(t, func(t *testing.T) sessions.LinkGenerations { return sessionstest.NewMemoryStore() }, nil)
}
