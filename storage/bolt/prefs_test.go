package bolt_test

import (
	"bytes"
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/storage/bolt"
	"go.etcd.io/bbolt"
)

// TestNotifyPrefs: choices of turn pings round-trip through a closed and
// reopened file, per platform, the last choice winning; the record carries
// its version.
func TestNotifyPrefs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	sets := []struct {
		platform, user string
		on             bool
	}{
		{"telegram", "42", true},
		{"telegram", "7", true},
		{"telegram", "7", false},
		{"telegram", "420", true},
		{"discord", "42", false},
		{"tele", "gram", true}, // a prefix of another platform's keys
	}
	for _, c := range sets {
		if err := s.SetNotify(ctx, c.platform, c.user, c.on); err != nil {
			t.Fatalf("SetNotify(%s, %s, %v): %v", c.platform, c.user, c.on, err)
		}
	}
	want := map[string]map[string]bool{
		"telegram": {"42": true, "7": false, "420": true},
		"discord":  {"42": false},
		"tele":     {"gram": true},
		"console":  {},
	}
	check := func(s *bolt.Store) {
		t.Helper()
		for platform, w := range want {
			got, err := s.NotifyPrefs(ctx, platform)
			if err != nil {
				t.Fatalf("NotifyPrefs(%s): %v", platform, err)
			}
			if !maps.Equal(got, w) {
				t.Errorf("NotifyPrefs(%s) = %v, want %v", platform, got, w)
			}
		}
	}
	check(s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	check(s)
	if err := s.SetNotify(ctx, "telegram", "42", false); err != nil {
		t.Fatal(err)
	}
	want["telegram"]["42"] = false
	check(s)
	s.Close()

	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *bbolt.Tx) error {
		v := tx.Bucket([]byte("prefs")).Get([]byte("telegram\x00420\x00"))
		if !bytes.Equal(v, []byte(`{"v":1,"notify":true}`)) {
			t.Errorf("stored preferences: %s", v)
		}
		return nil
	})
}

func TestNotifyPrefsErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	for _, c := range [][2]string{{"", "1"}, {"telegram", ""}, {"tele\x00gram", "1"}, {"telegram", "1\x002"}} {
		if err := s.SetNotify(ctx, c[0], c[1], true); err == nil || !strings.HasPrefix(err.Error(), "storage: bad user") {
			t.Errorf("SetNotify(%q, %q): %v", c[0], c[1], err)
		}
	}
	if _, err := s.NotifyPrefs(ctx, ""); err == nil {
		t.Error("NotifyPrefs of no platform succeeded")
	}
	s.Close()
	if err := s.SetNotify(ctx, "telegram", "1", true); !errors.Is(err, bolt.ErrClosed) {
		t.Errorf("SetNotify after Close: %v, want ErrClosed", err)
	}

	// A record of a newer version is refused with the user's id, not
	// overwritten.
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket([]byte("prefs")).Put([]byte("telegram\x009\x00"), []byte(`{"v":2,"notify":true,"more":1}`))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = open(t, path)
	defer s.Close()
	if _, err := s.NotifyPrefs(ctx, "telegram"); err == nil || !strings.Contains(err.Error(), "user 9") || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("NotifyPrefs with a newer record: %v", err)
	}
	if err := s.SetNotify(ctx, "telegram", "9", false); err == nil {
		t.Error("SetNotify overwrote a newer record")
	}
	if got, err := s.NotifyPrefs(ctx, "discord"); err != nil || len(got) != 0 {
		t.Errorf("another platform's prefs: %v, %v", got, err)
	}
}

// TestLangs: the languages chosen with /lang round-trip through a closed
// and reopened file, per platform, next to the turn pings without
// changing them: a user who chose a language only has made no choice of
// pings.
func TestLangs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	if err := s.SetNotify(ctx, "telegram", "42", true); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][3]string{{"telegram", "42", "es"}, {"telegram", "7", "de"}, {"telegram", "7", "tl"}, {"discord", "42", "de"}} {
		if err := s.SetLang(ctx, c[0], c[1], c[2]); err != nil {
			t.Fatalf("SetLang%v: %v", c, err)
		}
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	tg, err := s.Langs(ctx, "telegram")
	if err != nil || !maps.Equal(tg, map[string]string{"42": "es", "7": "tl"}) {
		t.Fatalf("telegram languages %v, %v", tg, err)
	}
	dc, err := s.Langs(ctx, "discord")
	if err != nil || !maps.Equal(dc, map[string]string{"42": "de"}) {
		t.Fatalf("discord languages %v, %v", dc, err)
	}
	pings, err := s.NotifyPrefs(ctx, "telegram")
	if err != nil || !maps.Equal(pings, map[string]bool{"42": true}) {
		t.Fatalf("telegram pings after the languages: %v, %v (want 42 on, 7 not chosen)", pings, err)
	}
}
