package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func consoleConfig(t *testing.T, db string) config {
	c := defaultConfig()
	c.Storage.Path = db
	c.Console.As = "alice"
	c.Console.Pictures = "off"
	return c
}

// TestConsoleResumesAfterRestart plays the first moves, stops, and starts
// again on the same database: the game goes on where it was.
func TestConsoleResumesAfterRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "data", "bot.db") // the directory is created
	var out, log bytes.Buffer
	in := "/play spanish @bob color=white\n/as bob\n/accept\n/as alice\n/move b3-a4\n"
	if err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(in), &out, &log, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "alice (White) played b3-a4.") {
		t.Fatalf("first run:\n%s", out.String())
	}
	out.Reset()
	in = "/board\n/as bob\n/move e6-f5\n"
	if err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(in), &out, &log, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Spanish draughts: alice (White) vs bob (Black), 1 moves played.\nLast move: b3-a4.\nbob (Black) to move",
		"bob (Black) played e6-f5.",
	} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("after the restart, no %q in:\n%s", want, out.String())
		}
	}
	if !strings.Contains(log.String(), "live_sessions=1") {
		t.Fatalf("log: %s", log.String())
	}
}

func TestRunRefusesMissingAdapters(t *testing.T) {
	for _, tc := range []struct{ env, want string }{
		{"BOT_DISCORD_TOKEN", "a token is set for Discord (issue 10), but this build has no such adapter yet"},
		{"BOT_TELEGRAM_TOKEN", "a token is set for Telegram (issue 9), but this build has no such adapter yet"},
	} {
		t.Setenv(tc.env, "secret-token-value")
		t.Setenv("BOT_STORAGE_PATH", filepath.Join(t.TempDir(), "bot.db"))
		var stdout, stderr bytes.Buffer
		code := runMain(context.Background(), []string{"run"}, &stdout, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), tc.want) || strings.Count(stderr.String(), "\n") != 1 {
			t.Fatalf("%s: exit %d, stderr %q", tc.env, code, stderr.String())
		}
		if strings.Contains(stderr.String()+stdout.String(), "secret-token-value") {
			t.Fatal("the token was printed")
		}
		os.Unsetenv(tc.env)
	}
}

func TestRunFlagsAndConfigErrors(t *testing.T) {
	var stdout, stderr bytes.Buffer
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	if code := runMain(context.Background(), []string{"console", "--config", missing}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "no such file") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	stderr.Reset()
	if code := runMain(context.Background(), []string{"run", "extra"}, &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), `unexpected argument "extra"`) {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}

func TestOpenFailsOnForeignFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	junk := bytes.Repeat([]byte("junk"), 4096)
	if err := os.WriteFile(db, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, log bytes.Buffer
	err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(""), &out, &log, false)
	if err == nil || !strings.Contains(err.Error(), "not a bot database") {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(db); !bytes.Equal(b, junk) {
		t.Fatal("the file was changed")
	}
}

// TestInterruptShutsDownCleanly runs the console in a child process (this
// test binary, as main would run it), sends it SIGINT mid-game, and checks
// that it exits with status 0 and leaves a database that opens with the game.
func TestInterruptShutsDownCleanly(t *testing.T) {
	if os.Getenv("BOT_INTERRUPT_CHILD") != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		os.Exit(runMain(ctx, []string{"console", "--as", "alice"}, os.Stdout, os.Stderr))
	}
	db := filepath.Join(t.TempDir(), "bot.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestInterruptShutsDownCleanly$")
	cmd.Env = append(os.Environ(), "BOT_INTERRUPT_CHILD=1", "BOT_STORAGE_PATH="+db, "BOT_CONSOLE_PICTURES=off")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(stdin, "/play spanish @bob color=white\n/as bob\n/accept\n")
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && !strings.Contains(sc.Text(), "Game on") {
	}
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the bot did not exit cleanly: %v", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the bot did not stop after SIGINT")
	}
	var out, log bytes.Buffer
	c := consoleConfig(t, db)
	if err := runConsole(context.Background(), c, strings.NewReader("/board\n"), &out, &log, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "alice (White) to move") {
		t.Fatalf("after the interrupt:\n%s", out.String())
	}
}
