package bolt_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/boardgamebot/bot/storage/dump"
)

// TestLinkGenerations runs the contract of sessions.LinkGenerations on
// the bbolt store (opened again: the generations outlive a restart), and
// a dump carries them to another store.
func TestLinkGenerations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	var s *bolt.Store
	openAt := func(t *testing.T) sessions.LinkGenerations {
		if s != nil {
			s.Close()
		}
		var err error
		if s, err = bolt.Open(path, bolt.Options{NoSync: true}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	sessionstest.TestLinkGenerations(t, openAt, openAt)
	defer s.Close()
	var items []dump.Item
	if err := s.Export(context.Background(), func(it dump.Item) error {
		if it.Kind == dump.KindLinkGeneration {
			items = append(items, it)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("exported %d link generations, want 2: %+v", len(items), items)
	}
	to, err := bolt.Open(filepath.Join(t.TempDir(), "copy.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer to.Close()
	if err := to.Import(context.Background(), items); err != nil {
		t.Fatal(err)
	}
	if g, err := to.LinkGeneration(context.Background(), "telegram", "1"); err != nil || g != 3 {
		t.Fatalf("the copy's generation of telegram/1: %d, %v", g, err)
	}
}
