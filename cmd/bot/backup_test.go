package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/storage/bolt"
)

// TestBackupWhileTheBotRuns: the console holds the database; `bot backup`
// gets a checked copy from it through its socket, with the game so far.
func TestBackupWhileTheBotRuns(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "bot.db")
	t.Setenv("BOT_STORAGE_PATH", db)
	t.Setenv("BOT_CONSOLE_PICTURES", "off")
	in, feed := io.Pipe()
	var out, log syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runConsole(ctx, consoleConfig(t, db), in, &out, &log, false) }()
	io.WriteString(feed, "/play spanish @bob color=white\n/as bob\n/accept\n/as alice\n/move b3-a4\n")
	waitFor(t, &out, "alice (White) played b3-a4.")

	var stdout, stderr bytes.Buffer
	backup := filepath.Join(dir, "copy.db")
	if code := runMain(context.Background(), []string{"backup", backup}, &stdout, &stderr); code != 0 {
		t.Fatalf("bot backup: %d %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "(checked)") {
		t.Fatalf("bot backup said %q", stdout.String())
	}
	feed.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The copy holds the live game.
	c, err := bolt.Open(backup, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	live, err := c.Live(context.Background())
	if err != nil || len(live) != 1 || len(live[0].Actions) != 1 {
		t.Fatalf("the copy's live games: %v %v", live, err)
	}
	if _, err := os.Stat(db + ".sock"); err == nil {
		t.Fatal("the backup socket is left behind")
	}
	// With the bot stopped, bot backup opens the database itself.
	stdout.Reset()
	if code := runMain(context.Background(), []string{"backup", filepath.Join(dir, "copy2.db")}, &stdout, &stderr); code != 0 {
		t.Fatalf("bot backup of a stopped bot: %s", stderr.String())
	}
	// Refusals.
	for _, args := range [][]string{{"backup"}, {"backup", db}} {
		stderr.Reset()
		if code := runMain(context.Background(), args, &stdout, &stderr); code == 0 {
			t.Fatalf("bot %v succeeded", args)
		}
	}
	t.Setenv("BOT_STORAGE_PATH", filepath.Join(dir, "none.db"))
	stderr.Reset()
	if runMain(context.Background(), []string{"backup", filepath.Join(dir, "x.db")}, &stdout, &stderr) == 0 ||
		!strings.Contains(stderr.String(), "there is no database") {
		t.Fatalf("backup of a missing database: %s", stderr.String())
	}
}

// TestConsoleAgainstTheComputer: the computer's replies follow each move.
func TestConsoleAgainstTheComputer(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	var out, log bytes.Buffer
	in := "/play spanish bot level=1 color=white\n/move b3-a4\n/board\n"
	if err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(in), &out, &log, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Game on: Spanish draughts, alice (White) vs Computer (Black); no clock, unrated.", "alice (White) played b3-a4.",
		"Computer (Black) played ", "2 moves played"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("no %q in:\n%s", want, out.String())
		}
	}
}

func waitFor(t *testing.T, b *syncBuffer, want string) {
	t.Helper()
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(10 * time.Millisecond) {
		if strings.Contains(b.String(), want) {
			return
		}
	}
	t.Fatalf("no %q in:\n%s", want, b.String())
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
