package bolt_test

import (
	"path/filepath"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/bolt"
)

// TestStoreContract runs the contract of sessions.Store on the bbolt store,
// in each commit mode.
func TestStoreContract(t *testing.T) {
	for name, mode := range map[string]bolt.Mode{"group": bolt.ModeGroup, "update": bolt.ModeUpdate} {
		t.Run(name, func(t *testing.T) {
			sessionstest.TestStore(t, func(t *testing.T) sessions.Store {
				s, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"), bolt.Options{Mode: mode, NoSync: true})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				return s
			})
		})
	}
}
