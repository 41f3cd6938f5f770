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

func TestReviewStoreContract(t *testing.T) {
	sessionstest.TestReviewStore(t, func(t *testing.T) sessions.ReviewStore {
		s, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"), bolt.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// TestReviewDumped: a review goes through the dump (bot migrate) and
// reads back from the copy.
func TestReviewDumped(t *testing.T) {
	ctx := context.Background()
	open := func() *bolt.Store {
		s, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"), bolt.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	src, dst := open(), open()
	r := &sessions.ReviewRecord{V: 1, Game: "7", Nodes: 100}
	if err := src.PutReview(ctx, r); err != nil {
		t.Fatal(err)
	}
	tally, err := dump.Copy(ctx, src, dst)
	if err != nil {
		t.Fatal(err)
	}
	if tally.Count[dump.KindReview] != 1 {
		t.Errorf("copied %v, want one review", tally.Count)
	}
	got, err := dst.Review(ctx, "7")
	if err != nil || got.Nodes != 100 {
		t.Errorf("the copy's review: %+v, %v", got, err)
	}
}
