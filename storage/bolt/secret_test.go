package bolt_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/boardgamebot/bot/storage/bolt"
)

// TestSecret: a secret is made once, on first asking, and the same one
// comes back after the file is closed and opened again; a failing maker
// keeps nothing.
func TestSecret(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	made := 0
	gen := func() ([]byte, error) { made++; return []byte{byte(made), 2, 3}, nil }
	boom := errors.New("no randomness")
	if _, err := s.Secret(ctx, "web", func() ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("a failing maker: %v", err)
	}
	first, err := s.Secret(ctx, "web", gen)
	if err != nil || !bytes.Equal(first, []byte{1, 2, 3}) {
		t.Fatalf("first: %v, %v", first, err)
	}
	if again, err := s.Secret(ctx, "web", gen); err != nil || !bytes.Equal(again, first) || made != 1 {
		t.Fatalf("again: %v, %v (made %d)", again, err, made)
	}
	if other, err := s.Secret(ctx, "other", gen); err != nil || bytes.Equal(other, first) {
		t.Fatalf("another name: %v, %v", other, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if after, err := s.Secret(ctx, "web", gen); err != nil || !bytes.Equal(after, first) {
		t.Fatalf("after reopening: %v, %v", after, err)
	}
	if _, err := s.Secret(ctx, "", gen); err == nil {
		t.Fatal("a secret without a name was kept")
	}
}
