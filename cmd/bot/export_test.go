package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/storage/bolt"
)

// TestExport: a game played in the console comes out of `bot export` as
// PDN; a wrong id, a missing database and a database held by a running bot
// each give one line saying what to do. Ids are per platform: game 1 of
// the console is no Telegram game.
func TestExport(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	in := "/play spanish @bob color=white\n/as bob\n/accept\n/as alice\n/move b3-a4\n/as bob\n/move a6-b5\n/resign\n"
	var out, log bytes.Buffer
	if err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(in), &out, &log, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Saved as game #1") {
		t.Fatalf("the game was not saved:\n%s", out.String())
	}
	t.Setenv("BOT_STORAGE_PATH", db)
	var stdout, stderr bytes.Buffer
	if code := runMain(context.Background(), []string{"export", "1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	pdn := stdout.String()
	for _, want := range []string{`[GameType "24,W,8,8,N1,1"]`, `[White "alice"]`, `[Black "bob"]`, `[Result "1-0"]`, "1. 12-16 24-20 1-0"} {
		if !strings.Contains(pdn, want) {
			t.Errorf("the export lacks %q:\n%s", want, pdn)
		}
	}
	file := filepath.Join(t.TempDir(), "g.pdn")
	stdout.Reset()
	if code := runMain(context.Background(), []string{"export", "--db", db, "--out", file, "1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("--out: exit %d: %s", code, stderr.String())
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != pdn {
		t.Errorf("--out wrote %q (%v), want the same PDN", b, err)
	}

	held, err := bolt.Open(db, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--db", filepath.Join(t.TempDir(), "none.db"), "1"}, "there is no database at"},
		{[]string{"export", "1"}, "is in use by the running bot: export from a backup"},
		{[]string{"export"}, "usage: bot export"},
		{[]string{"export", "--platform", "irc", "1"}, `--platform "irc" is not console, telegram or discord`},
	} {
		stderr.Reset()
		if code := runMain(context.Background(), tc.args, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), tc.want) ||
			strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want one line with %q", tc.args, code, stderr.String(), tc.want)
		}
	}
	held.Close()
	stderr.Reset()
	if code := runMain(context.Background(), []string{"export", "--platform", "telegram", "1"}, &stdout, &stderr); code != 1 || strings.Count(stderr.String(), "\n") != 1 ||
		!strings.Contains(stderr.String(), "no finished game with that id") {
		t.Errorf("unknown id: exit %d, %q", code, stderr.String())
	}
}
