package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
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
		"Spanish draughts: alice (White) vs bob (Black), 1 move played; no clock, rated.\nLast move: b3-a4.\nbob (Black) to move",
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
// everything else succeeds; but it refuses the first down calls of getMe
// (401, as Telegram answers while a token is not valid yet). It counts
// the methods called.
func fakeTelegram(t *testing.T, down int) (*httptest.Server, func(method string) int) {
	t.Helper()
	var mu sync.Mutex
	calls := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		method := parts[len(parts)-1]
		mu.Lock()
		calls[method]++
		refuse := method == "getMe" && down > 0
		if refuse {
			down--
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if !strings.HasSuffix(parts[0], "good-token") || refuse {
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
// stops cleanly when asked.
func TestRunServesTelegram(t *testing.T) {
	srv, calls := fakeTelegram(t, 0)
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
}

// pauses is the restartPause of the tests: it records each pause, sends
// its number on paused, and returns at once (or, past stopAt pauses,
// cancels the run).
type pauses struct {
	mu     sync.Mutex
	got    []time.Duration
	stopAt int
	cancel context.CancelFunc
}

func (p *pauses) sleep(ctx context.Context, d time.Duration) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.got = append(p.got, d)
	if p.stopAt > 0 && len(p.got) >= p.stopAt {
		p.cancel()
		return false
	}
	return true
}

func (p *pauses) all() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Duration(nil), p.got...)
}

// TestRunRetriesTelegram: when the Bot API refuses the bot at first,
// `bot run` does not stop: it starts Telegram again after growing pauses,
// one log line per attempt (with no doubled "telegram: telegram:"), and
// serves once the API answers.
func TestRunRetriesTelegram(t *testing.T) {
	srv, calls := fakeTelegram(t, 3)
	c := defaultConfig()
	c.Storage.Path = filepath.Join(t.TempDir(), "bot.db")
	c.Telegram.Token, c.Telegram.APIEndpoint = "good-token", srv.URL
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &pauses{}
	var log syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- runPlatforms(ctx, c, &log, restartPause{first: time.Second, most: time.Minute, sleep: p.sleep})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for calls("getUpdates") == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the bot never polled: getMe %d, pauses %v\n%s", calls("getMe"), p.all(), log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("runPlatforms: %v", err)
	}
	out := log.String()
	if n := strings.Count(out, "platform down"); n != len(p.all()) || n == 0 {
		t.Errorf("%d restarts logged, %d pauses taken (%v):\n%s", n, len(p.all()), p.all(), out)
	}
	for i, d := range p.all() {
		if want := time.Second << i; d != want {
			t.Errorf("pause %d: %v, want %v", i+1, d, want)
		}
	}
	if strings.Contains(out, "telegram: telegram:") {
		t.Errorf("doubled prefix in the log:\n%s", out)
	}
}

// TestRunRefusedTokenKeepsTrying: a refused token does not stop the bot
// (another platform may be serving): it logs why, without the token, and
// tries again until it is stopped.
func TestRunRefusedTokenKeepsTrying(t *testing.T) {
	srv, _ := fakeTelegram(t, 0)
	c := defaultConfig()
	c.Storage.Path = filepath.Join(t.TempDir(), "bot.db")
	c.Telegram.Token, c.Telegram.APIEndpoint = "secret-token-value", srv.URL
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &pauses{stopAt: 2, cancel: cancel}
	var log syncBuffer
	if err := runPlatforms(ctx, c, &log, restartPause{first: time.Second, most: time.Minute, sleep: p.sleep}); err != nil {
		t.Fatalf("runPlatforms: %v", err)
	}
	out := log.String()
	if n := strings.Count(out, "platform down"); n != 2 || !strings.Contains(out, "platform=telegram") {
		t.Errorf("%d restarts logged, want 2:\n%s", n, out)
	}
	if strings.Contains(out, "secret-token-value") {
		t.Fatal("the token was logged")
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

// TestKeepRunning: a platform that fails (an error, a panic, a return
// before the end) is started again after pauses that double up to the cap,
// with one log line each, while another platform keeps serving; both stop
// when the context ends.
func TestKeepRunning(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	steadyUp, steadyDown := make(chan struct{}), make(chan struct{})
	steadyRuns := 0
	steady := platform{name: "steady", run: func(ctx context.Context) error {
		steadyRuns++
		close(steadyUp)
		<-ctx.Done()
		close(steadyDown)
		return nil
	}}
	flakyUp := make(chan struct{})
	runs := 0
	flaky := platform{name: "flaky", run: func(ctx context.Context) error {
		runs++
		switch runs {
		case 1, 2:
			return errors.New("discord: connecting to the gateway: 503 Service Unavailable")
		case 3:
			panic("lost")
		case 4:
			return nil // returned before the end
		}
		close(flakyUp)
		<-ctx.Done()
		return nil
	}}
	p := &pauses{}
	var log syncBuffer
	l := slog.New(slog.NewTextHandler(&log, nil))
	pause := restartPause{first: time.Second, most: 3 * time.Second, sleep: p.sleep}
	var wg sync.WaitGroup
	for _, pl := range []platform{steady, flaky} {
		wg.Add(1)
		go func() { defer wg.Done(); keepRunning(ctx, pl, pause, l) }()
	}
	<-steadyUp
	<-flakyUp
	select {
	case <-steadyDown:
		t.Fatal("the steady platform stopped while the other one failed")
	default:
	}
	cancel()
	wg.Wait()
	if steadyRuns != 1 {
		t.Errorf("the steady platform ran %d times, want 1", steadyRuns)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second}
	if got := p.all(); !slices.Equal(got, want) {
		t.Errorf("pauses %v, want %v", got, want)
	}
	out := log.String()
	for i, w := range []string{"503 Service Unavailable", "503 Service Unavailable", "panic: lost", "stopped by itself"} {
		line := fmt.Sprintf("platform=flaky attempt=%d in=%v", i+1, want[i])
		if !strings.Contains(out, line) || !strings.Contains(out, w) {
			t.Errorf("no log line %q with %q:\n%s", line, w, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 4 {
		t.Errorf("%d log lines, want 4 (one per restart):\n%s", n, out)
	}
}

// TestRunAdapterErrorsOnePrefix: an adapter that cannot be built stops
// `bot run` with its reason, prefixed once by its platform.
func TestRunAdapterErrorsOnePrefix(t *testing.T) {
	c := defaultConfig()
	c.Storage.Path = filepath.Join(t.TempDir(), "bot.db")
	c.Discord.Token, c.Discord.ShardID, c.Discord.ShardCount = "token", 5, 2
	err := runPlatforms(context.Background(), c, io.Discard, restartPause{first: time.Second, most: time.Minute})
	if err == nil || !strings.HasPrefix(err.Error(), "discord: shard_id 5") {
		t.Fatalf("got %v, want the bad shard_id, prefixed once", err)
	}
}

// TestConsoleScriptNotRateLimited: a script feeds the console faster than
// a person types; every command is answered (the console has no other
// users to protect from a flood: limits.* hold for shared platforms).
func TestConsoleScriptNotRateLimited(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	var out, log bytes.Buffer
	in := strings.Repeat("/games\n", 30) + "/play spanish @bob\n"
	if err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(in), &out, &log, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "Slow down") {
		t.Fatalf("the console's script met the rate limit:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "alice challenges bob to Spanish draughts") {
		t.Fatalf("the 31st command was not answered:\n%s", out.String())
	}
}
