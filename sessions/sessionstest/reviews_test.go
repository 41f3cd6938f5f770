package sessionstest_test

import (
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

func TestMemoryReviewStore(t *testing.T) {
	sessionstest.TestReviewStore(t, func(t *testing.T) sessions.ReviewStore { return sessionstest.NewMemoryStore() })
}
