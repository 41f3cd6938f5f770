package bolt_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// TestBackupWhileCommitting copies the database while games are being
// stored: the copy opens, passes bbolt's check and holds every game
// committed before the copy began.
func TestBackupWhileCommitting(t *testing.T) {
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "bot.db"))
	defer s.Close()
	ctx := context.Background()
	commit := func(i int) {
		rec := fullRecord(key(fmt.Sprint("c", i)))
		rec.Result = &sessions.Result{Winner: 0, Reason: "test", Ended: t0}
		if err := s.Commit(ctx, &sessions.Change{Key: rec.Key, Finished: rec}); err != nil {
			t.Error(err)
		}
	}
	for i := range 50 {
		commit(i)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 50; ; i++ {
			select {
			case <-stop:
				return
			default:
				commit(i)
			}
		}
	}()
	backup := filepath.Join(dir, "copy.db")
	n, err := s.BackupFile(backup)
	close(stop)
	wg.Wait()
	if err != nil || n == 0 {
		t.Fatalf("backup: %d bytes, %v", n, err)
	}
	if _, err := s.BackupFile(filepath.Join(dir, "bot.db")); err == nil {
		t.Fatal("the backup overwrote the live database")
	}
	c, err := bolt.Open(backup, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 50; i++ {
		if _, err := c.Finished(ctx, fmt.Sprint(i)); err != nil {
			t.Fatalf("game %d missing from the copy: %v", i, err)
		}
	}
}

func TestRequestIDs(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bot.db"))
	defer s.Close()
	ctx := context.Background()
	rec := fullRecord(key("c"))
	if err := s.Commit(ctx, &sessions.Change{Key: rec.Key, Live: rec, Request: "42", At: t0}); err != nil {
		t.Fatal(err)
	}
	err := s.Commit(ctx, &sessions.Change{Key: rec.Key, Live: rec, Request: "42", At: t0})
	if !errors.Is(err, sessions.ErrDuplicate) {
		t.Fatalf("second commit of request 42: %v", err)
	}
	if seen, _ := s.Seen(ctx, "test", "42"); !seen {
		t.Fatal("request 42 not seen")
	}
	if seen, _ := s.Seen(ctx, "other", "42"); seen {
		t.Fatal("request ids are per platform")
	}
	if err := s.Forget(ctx, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if seen, _ := s.Seen(ctx, "test", "42"); seen {
		t.Fatal("request 42 not forgotten")
	}
}
