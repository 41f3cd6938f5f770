package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
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
		"Spanish draughts: alice (White) vs bob (Black), 1 move played.\nLast move: b3-a4.\nbob (Black) to move",
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

// fakeTelegram is the least of a Bot API server: getMe answers for the
// token "good-token" only, getUpdates waits a little and returns nothing,
// everything else succeeds. It counts the methods called.
func fakeTelegram(t *testing.T) (*httptest.Server, func(method string) int) {
	t.Helper()
	var mu sync.Mutex
	calls := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		method := parts[len(parts)-1]
		mu.Lock()
		calls[method]++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if !strings.HasSuffix(parts[0], "good-token") {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"ok":false,"error_code":401,"description":"Unauthorized"}`)
			return
		}
		switch method {
		case "getMe":
			io.WriteString(w, `{"ok":true,"result":{"id":42,"is_bot":true,"first_name":"Board","username":"board_bot"}}`)
		case "getUpdates":
			select {
			case <-r.Context().Done():
			case <-time.After(50 * time.Millisecond):
			}
			io.WriteString(w, `{"ok":true,"result":[]}`)
		default:
			io.WriteString(w, `{"ok":true,"result":true}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func(m string) int { mu.Lock(); defer mu.Unlock(); return calls[m] }
}

// TestRunServesTelegram: with a Telegram token, `bot run` serves Telegram
// (here a fake Bot API on loopback), publishes the commands, polls, and
// stops cleanly when asked; a refused token stops it with one line that
// does not show the token.
func TestRunServesTelegram(t *testing.T) {
	srv, calls := fakeTelegram(t)
	t.Setenv("BOT_TELEGRAM_API_ENDPOINT", srv.URL)
	t.Setenv("BOT_STORAGE_PATH", filepath.Join(t.TempDir(), "bot.db"))
	t.Setenv("BOT_TELEGRAM_TOKEN", "good-token")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	var stdout, stderr bytes.Buffer
	go func() { done <- runMain(ctx, []string{"run"}, &stdout, &stderr) }()
	deadline := time.Now().Add(10 * time.Second)
	for calls("getUpdates") == 0 || calls("setMyCommands") == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the bot never polled: getMe %d, setMyCommands %d, getUpdates %d", calls("getMe"), calls("setMyCommands"), calls("getUpdates"))
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d after Ctrl-C: %s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("bot run did not stop after its context was cancelled")
	}
	if !strings.Contains(stderr.String(), "platforms=telegram") {
		t.Errorf("log does not say what it serves: %s", stderr.String())
	}

	t.Setenv("BOT_TELEGRAM_TOKEN", "secret-token-value")
	stderr.Reset()
	code := runMain(context.Background(), []string{"run"}, &stdout, &stderr)
	last := strings.TrimSpace(stderr.String())
	if i := strings.LastIndex(last, "\n"); i >= 0 {
		last = last[i+1:]
	}
	if code != 1 || !strings.HasPrefix(last, "bot run: telegram:") {
		t.Fatalf("refused token: exit %d, stderr %q", code, stderr.String())
	}
	if strings.Contains(stderr.String()+stdout.String(), "secret-token-value") {
		t.Fatal("the token was printed")
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
	if err == nil || !strings.Contains(err.Error(), "is not a bbolt database") {
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
