package sessions_test

import (
	"context"
	"testing"

	"github.com/boardgamebot/bot/sessions"
)

type countNotices struct{ n int }

func (c *countNotices) Notify(ctx context.Context, n sessions.Notice) { c.n++ }

// TestNotifiers: a *Notifiers handed to the service before the adapters
// exist passes each notice to every adapter added to it afterwards.
func TestNotifiers(t *testing.T) {
	var ns sessions.Notifiers
	var given sessions.Notifier = &ns // what the service holds
	a, b := &countNotices{}, &countNotices{}
	ns = append(ns, a, b)
	given.Notify(context.Background(), sessions.Notice{Kind: sessions.NoticeYourTurn})
	given.Notify(context.Background(), sessions.Notice{Kind: sessions.NoticeGameOver})
	if a.n != 2 || b.n != 2 {
		t.Fatalf("notices reached a %d and b %d times, want 2 each", a.n, b.n)
	}
}
