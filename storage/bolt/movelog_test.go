package bolt_test

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/bbolt"
)

// TestDamagedMoveLog: a chunk of a session's older moves that does not
// decode, or one that is missing, makes that session's Load fail with
// ErrDamaged; the other sessions load.
func TestDamagedMoveLog(t *testing.T) {
	for name, spoil := range map[string]func(b *bbolt.Bucket, k []byte) error{
		"bad entry": func(b *bbolt.Bucket, k []byte) error { return b.Put(k, []byte{9, 9}) },
		"hole":      func(b *bbolt.Bucket, k []byte) error { return b.Delete(k) },
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.db")
			s := open(t, path)
			for _, ch := range []string{"bad", "good"} {
				r := &sessions.Record{V: 1, Key: key(ch), Game: "spanish", Seats: []sessions.User{alice, bob}, Started: t0}
				for i := range 40 {
					r.Actions = append(r.Actions, sessions.Action{Kind: sessions.ActMove, Text: strconv.Itoa(i), At: t0})
					if err := s.Commit(ctx, &sessions.Change{Key: r.Key, Live: r.Clone()}); err != nil {
						t.Fatal(err)
					}
				}
			}
			s.Close()
			db, err := bbolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			err = db.Update(func(tx *bbolt.Tx) error {
				k := binary.BigEndian.AppendUint32([]byte("test\x00bad\x00\x00"), 0)
				return spoil(tx.Bucket([]byte("moves")), k)
			})
			db.Close()
			if err != nil {
				t.Fatal(err)
			}
			s = open(t, path)
			defer s.Close()
			if _, err := s.Load(ctx, key("bad")); !errors.Is(err, sessions.ErrDamaged) {
				t.Fatalf("Load of the damaged log: %v, want ErrDamaged", err)
			}
			if r, err := s.Load(ctx, key("good")); err != nil || len(r.Actions) != 40 {
				t.Fatalf("Load of the other session: %v, %v", r, err)
			}
		})
	}
}
