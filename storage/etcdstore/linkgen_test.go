package etcdstore_test

import (
	"context"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/dump"
)

// TestLinkGenerations runs the contract of sessions.LinkGenerations on
// the etcd store (a second store on the same keys sees them, as another
// process would), and its dump carries them.
func TestLinkGenerations(t *testing.T) {
	s := open(t)
	sessionstest.TestLinkGenerations(t, func(t *testing.T) sessions.LinkGenerations { return s },
		func(t *testing.T) sessions.LinkGenerations { return open(t) })
	n := 0
	if err := s.Export(context.Background(), func(it dump.Item) error {
		if it.Kind == dump.KindLinkGeneration {
			n++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("exported %d link generations, want 2", n)
	}
}
