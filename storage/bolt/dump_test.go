package bolt_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/boardgamebot/bot/storage/dump"
)

// TestReadOnlyOpen: a read-only Open (bot migrate's source) writes
// nothing: a database of schema 1 is refused (an upgrade would write)
// and left as it was; one of this schema is exported, and stays the
// same byte for byte; changes fail.
func TestReadOnlyOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	if err := scaleCopyFile(path, filepath.Join("testdata", "v1.db")); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bolt.Open(path, bolt.Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "schema 1") {
		t.Fatalf("read-only Open of schema 1: %v, want a refusal naming the schema", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("the refused file changed")
	}
	open(t, path).Close() // upgrades it
	if before, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	s, err := bolt.Open(path, bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := dump.TallyOf(ctx, s)
	if err != nil || tl.Count[dump.KindLive] != len(v1Live) || tl.Count[dump.KindGame] != 2 {
		t.Fatalf("export: %v, %v; want %d live and 2 games", tl.Count, err, len(v1Live))
	}
	if err := s.SetNotify(ctx, "console", "a", true); err == nil {
		t.Fatal("a change in a read-only store succeeded")
	}
	s.Close()
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("a read-only Open changed the file")
	}
	if _, err := bolt.Open(filepath.Join(t.TempDir(), "none.db"), bolt.Options{ReadOnly: true}); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("read-only Open of no file: %v", err)
	}
}
