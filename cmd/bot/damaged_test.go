package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.etcd.io/bbolt"
)

// TestDamagedDatabase: each command that opens a damaged or foreign
// database file says so in one line that names the file, what is wrong
// and what to do, exits with status 1, and leaves the file as it was.
func TestDamagedDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	var out, log bytes.Buffer
	in := "/play spanish @bob color=white\n/as bob\n/accept\n/as alice\n/move b3-a4\n/as bob\n/move a6-b5\n/resign\n"
	if err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(in), &out, &log, false); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, want string
	}{
		{"cut short", string(good[:12<<10]), "restore the copy that bot backup made, or move the file aside"},
		{"a text file", strings.Repeat("notes\n", 2000), "is not a bbolt database"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.db")
			if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("BOT_STORAGE_PATH", path)
			for _, args := range [][]string{{"run"}, {"console"}, {"export", "1"}, {"backup", filepath.Join(t.TempDir(), "copy.db")}} {
				var stdout, stderr bytes.Buffer
				code := runMain(context.Background(), args, &stdout, &stderr)
				msg := stderr.String()
				if code != 1 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, path) || !strings.Contains(msg, tc.want) ||
					!strings.Contains(msg, "move the file aside") {
					t.Errorf("bot %s: exit %d, %q; want one line naming the file, with %q and what to do", args[0], code, msg, tc.want)
				}
				if now, _ := os.ReadFile(path); string(now) != tc.file {
					t.Fatalf("bot %s changed the file", args[0])
				}
			}
		})
	}
}

// TestStartWithDamagedRecord: the record of one live game is damaged: the
// bot starts, resumes the other game, logs the damaged one, and a command
// in its channel answers that its record is damaged.
func TestStartWithDamagedRecord(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	var out, log bytes.Buffer
	for _, ch := range []string{"one", "two"} {
		c := consoleConfig(t, db)
		c.Console.Channel = ch
		in := "/play spanish @bob color=white\n/as bob\n/accept\n"
		if err := runConsole(context.Background(), c, strings.NewReader(in), &out, &log, false); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bbolt.Open(db, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bbolt.Tx) error {
		live := tx.Bucket([]byte("live"))
		k, _ := live.Cursor().Seek([]byte("console\x00two\x00"))
		if k == nil {
			t.Fatal("no live record of channel two")
		}
		return live.Put(k, []byte(`{"v":1,"game":"spanish","seats":[{"id"`))
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	for ch, want := range map[string]string{"one": "alice (White) vs bob (Black)", "two": "This record is damaged in the bot's database"} {
		out.Reset()
		log.Reset()
		c := consoleConfig(t, db)
		c.Console.Channel = ch
		if err := runConsole(context.Background(), c, strings.NewReader("/board\n"), &out, &log, false); err != nil {
			t.Fatalf("channel %s: %v", ch, err)
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("channel %s: no %q in:\n%s", ch, want, out.String())
		}
		if !strings.Contains(log.String(), "live_sessions=1") || strings.Count(log.String(), "storage: damaged data") != 1 ||
			!strings.Contains(log.String(), "console:two") {
			t.Errorf("channel %s: the log does not say once that console:two was skipped:\n%s", ch, log.String())
		}
	}
}
