package bolt_test

import (
	"bytes"
	"errors"
	"maps"
	"path/filepath"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
	"go.etcd.io/bbolt"
)

// TestRoutes: the routes of channels round-trip through a closed and
// reopened file, per platform, the last one winning; DeleteRoute forgets a
// route only while it goes to the key it names; a damaged record is
// skipped; the record carries its version.
func TestRoutes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	game := sessions.Key{Platform: "discord", Channel: "7", Thread: "90"}
	later := sessions.Key{Platform: "discord", Channel: "7", Thread: "91"}
	other := sessions.Key{Platform: "discord", Channel: "8", Thread: "92"}
	for _, r := range []struct {
		channel string
		key     sessions.Key
	}{{"7", game}, {"8", other}, {"7", later}, {"7", game}} {
		if err := s.SaveRoute(ctx, "discord", r.channel, r.key); err != nil {
			t.Fatalf("SaveRoute(%s, %v): %v", r.channel, r.key, err)
		}
	}
	if err := s.SaveRoute(ctx, "disc", "ord", other); err != nil { // a prefix of another platform's keys
		t.Fatal(err)
	}
	want := map[string]sessions.Key{"7": game, "8": other}
	check := func(s *bolt.Store) {
		t.Helper()
		got, err := s.Routes(ctx, "discord")
		if err != nil {
			t.Fatalf("Routes: %v", err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("Routes = %v, want %v", got, want)
		}
	}
	check(s)
	s.Close()
	s = open(t, path)
	check(s)
	// A route that moved on is not deleted by its old key.
	if err := s.DeleteRoute(ctx, "discord", "7", later); err != nil {
		t.Fatal(err)
	}
	check(s)
	if err := s.DeleteRoute(ctx, "discord", "7", game); err != nil {
		t.Fatal(err)
	}
	delete(want, "7")
	check(s)
	if err := s.SaveRoute(ctx, "discord", "", game); err == nil {
		t.Error("SaveRoute of no channel succeeded")
	}
	s.Close()
	if err := s.SaveRoute(ctx, "discord", "7", game); !errors.Is(err, bolt.ErrClosed) {
		t.Errorf("SaveRoute after Close: %v, want ErrClosed", err)
	}

	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket([]byte("routes"))
		if v := b.Get([]byte("discord\x008\x00")); !bytes.Equal(v, []byte(`{"v":1,"key":{"platform":"discord","channel":"8","thread":"92"}}`)) {
			t.Errorf("stored route: %s", v)
		}
		return b.Put([]byte("discord\x009\x00"), []byte(`{"v":2,"key":7}`))
	})
	db.Close()
	s = open(t, path)
	defer s.Close()
	check(s) // the damaged record of channel 9 is skipped
}
