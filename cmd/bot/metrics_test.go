package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/ops"
	"github.com/boardgamebot/bot/ops/opstest"
)

// console is a console bot running in the test on its own goroutine, with
// its input, its output and its log (the metrics' address is in the log).
type consoleRun struct {
	in       *io.PipeWriter
	out, log *watched
	done     chan error
}

func startConsole(t *testing.T, c config) *consoleRun {
	t.Helper()
	r, w := io.Pipe()
	run := &consoleRun{in: w, out: newWatched(), log: newWatched(), done: make(chan error, 1)}
	go func() { run.done <- runConsole(context.Background(), c, r, run.out, run.log, false) }()
	t.Cleanup(func() { w.Close(); <-run.done })
	return run
}

// say types the lines, then waits until the output holds want.
func (r *consoleRun) say(t *testing.T, lines, want string) {
	t.Helper()
	if _, err := io.WriteString(r.in, lines); err != nil {
		t.Fatal(err)
	}
	r.out.waitFor(t, want)
}

// stop ends the input and waits for the console to stop.
func (r *consoleRun) stop(t *testing.T) {
	t.Helper()
	r.in.Close()
	if err := <-r.done; err != nil {
		t.Fatal(err)
	}
	r.done <- nil
}

var servedAt = regexp.MustCompile(`metrics and health served"? address=(\S+)`)

// address waits for the log line that says where the metrics are served.
func (r *consoleRun) address(t *testing.T) string {
	t.Helper()
	r.log.waitFor(t, "metrics and health served")
	return "http://" + servedAt.FindStringSubmatch(r.log.String())[1]
}

// getJSON gets url and decodes its JSON body into v; it returns the status.
func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return resp.StatusCode
}

// TestMetricsAfterGames plays on the console with metrics.listen set, and
// scrapes /metrics: the commands by command and outcome, the moves
// committed (the players' and the computer's) and the commit latency
// histogram move as the games went; the exposition parses with the
// Prometheus client's own parser, and every label value is in its bounded
// set. /healthz and /readyz answer 200 with their checks. After a restart
// the game loaded from the store counts in sessions_loaded_total.
func TestMetricsAfterGames(t *testing.T) {
	c := consoleConfig(t, filepath.Join(t.TempDir(), "bot.db"))
	c.Metrics.Listen = "127.0.0.1:0"
	run := startConsole(t, c)
	base := run.address(t)

	// Nothing played yet: the counters of the games are at zero.
	before := opstest.Scrape(t, base+"/metrics")
	if v, _ := before.Value("boardgamebot_moves_committed_total", "store=bbolt"); v != 0 {
		t.Fatalf("moves before any game: %v", v)
	}
	// Every command's series is there at 0 from the first scrape.
	for _, p := range ops.Platforms() {
		for _, cmd := range append(chat.CommandNames(), ops.Other) {
			for _, o := range []string{ops.OutcomeApplied, ops.OutcomeRefused, ops.OutcomeRateLimited, ops.OutcomeError} {
				if v, ok := before.Value("boardgamebot_commands_total", "platform="+p, "command="+cmd, "outcome="+o); !ok || v != 0 {
					t.Errorf("at start, commands_total{platform=%q,command=%q,outcome=%q} = %v (listed: %v), want 0 listed", p, cmd, o, v, ok)
				}
			}
		}
	}
	run.say(t, "/play spanish @bob color=white\n/as bob\n/accept\n/as alice\n/move b3-a4\n/as bob\n/move a6-b5\n/as alice\n"+
		"/move b3-c4\n/frobnicate\n/as bob\n/resign\n", "Saved as game #1")
	run.say(t, "/as alice\n/play spanish bot color=white level=1\n/move b3-a4\n/board\n", "FEN:")

	f := opstest.Scrape(t, base+"/metrics")
	opstest.CheckLabels(t, f, chat.CommandNames())
	for _, tc := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"boardgamebot_commands_total", []string{"platform=console", "command=play", "outcome=applied"}, 2},
		{"boardgamebot_commands_total", []string{"platform=console", "command=accept", "outcome=applied"}, 1},
		{"boardgamebot_commands_total", []string{"platform=console", "command=move", "outcome=applied"}, 3},
		{"boardgamebot_commands_total", []string{"platform=console", "command=move", "outcome=refused"}, 1},
		{"boardgamebot_commands_total", []string{"platform=console", "command=other", "outcome=refused"}, 1},
		{"boardgamebot_commands_total", []string{"platform=console", "command=resign", "outcome=applied"}, 1},
		{"boardgamebot_commands_total", []string{"platform=console", "command=board", "outcome=applied"}, 1},
		{"boardgamebot_commands_total", []string{"outcome=error"}, 0},
		// three moves of the players, one of the computer
		{"boardgamebot_moves_committed_total", []string{"store=bbolt"}, 4},
		// two challenges, an acceptance, the four moves, the resignation
		{"boardgamebot_commit_duration_seconds", []string{"store=bbolt"}, 8},
		{"boardgamebot_commit_failures_total", []string{"store=bbolt"}, 0},
		{"boardgamebot_sessions_resident", nil, 1}, // the game against the computer
		{"boardgamebot_sessions_loaded_total", nil, 0},
		{"boardgamebot_build_info", []string{"store=bbolt"}, 1},
		// the computer's reply: one search at level 1, over
		{"boardgamebot_computer_search_duration_seconds", []string{"level=1"}, 1},
		{"boardgamebot_computer_search_wait_seconds", []string{"level=1"}, 1},
		{"boardgamebot_computer_search_duration_seconds", []string{"level=5"}, 0},
		{"boardgamebot_computer_searches_running", nil, 0},
		{"boardgamebot_computer_searches_waiting", nil, 0},
	} {
		if got, ok := f.Value(tc.name, tc.labels...); got != tc.want || (!ok && tc.want != 0) {
			t.Errorf("%s%v = %v (found: %v), want %v", tc.name, tc.labels, got, ok, tc.want)
		}
	}
	if s := f.Sum("boardgamebot_commit_duration_seconds", "store=bbolt"); s <= 0 {
		t.Errorf("commit latency sum %v: the commits took no time", s)
	}
	for _, std := range []string{"go_goroutines", "process_cpu_seconds_total", "process_resident_memory_bytes"} {
		if _, ok := f.Value(std); !ok {
			t.Errorf("no %s: the standard collectors are missing", std)
		}
	}

	var health ops.HealthReport
	if code := getJSON(t, base+"/healthz", &health); code != 200 || !health.Healthy || health.Loops["clocks"] != "turning" || health.Checks["sessions"] != "ok" {
		t.Errorf("/healthz: %d %+v", code, health)
	}
	var ready ops.ReadyReport
	if code := getJSON(t, base+"/readyz", &ready); code != 200 || !ready.Ready || ready.Checks["store"] != "ok" || len(ready.Platforms) != 0 {
		t.Errorf("/readyz: %d %+v", code, ready)
	}
	run.stop(t)

	// Started again, the game against the computer loads from the store
	// at its first command.
	again := startConsole(t, c)
	base = again.address(t)
	again.say(t, "/board\n", "FEN:")
	f = opstest.Scrape(t, base+"/metrics")
	if v, _ := f.Value("boardgamebot_sessions_loaded_total"); v != 1 {
		t.Errorf("sessions loaded after a restart and a /board: %v, want 1", v)
	}
	if v, _ := f.Value("boardgamebot_moves_committed_total", "store=bbolt"); v != 0 {
		t.Errorf("moves of this process: %v, want 0", v)
	}
}

// TestReadyzTelegram: with a Telegram token and metrics.listen, /readyz
// lists telegram: retrying while the bot waits to start Telegram again
// (the Bot API refused it twice; ready all the same: every process would
// be), then connected once it polls; Telegram's messages are counted
// (none yet).
func TestReadyzTelegram(t *testing.T) {
	srv, calls := fakeTelegram(t, 2)
	c := defaultConfig()
	c.Storage.Path = filepath.Join(t.TempDir(), "bot.db")
	c.Telegram.Token, c.Telegram.APIEndpoint = "good-token", srv.URL
	c.Metrics.Listen = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := newWatched()
	base := func() string {
		log.waitFor(t, "metrics and health served")
		return "http://" + servedAt.FindStringSubmatch(log.String())[1]
	}
	var during []ops.ReadyReport
	p := restartPause{first: time.Second, most: time.Minute, sleep: func(ctx context.Context, d time.Duration) bool {
		var r ops.ReadyReport
		getJSON(t, base()+"/readyz", &r)
		during = append(during, r)
		return true
	}}
	done := make(chan error, 1)
	go func() { done <- runPlatforms(ctx, c, log, p) }()
	for deadline := time.Now().Add(10 * time.Second); calls("getUpdates") == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the bot never polled:\n%s", log.String())
		}
	}
	var r ops.ReadyReport
	if code := getJSON(t, base()+"/readyz", &r); code != 200 || r.Platforms["telegram"] != "connected" || r.Checks["store"] != "ok" {
		t.Errorf("/readyz while polling: %d %+v", code, r)
	}
	f := opstest.Scrape(t, base()+"/metrics")
	opstest.CheckLabels(t, f, chat.CommandNames())
	for _, name := range []string{"boardgamebot_messages_waiting", "boardgamebot_messages_sent_total", "boardgamebot_rate_limited_total"} {
		if v, ok := f.Value(name, "platform=telegram"); !ok || v != 0 {
			t.Errorf("%s{platform=telegram}: %v (found: %v), want 0", name, v, ok)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(during) != 2 {
		t.Fatalf("%d pauses, want 2", len(during))
	}
	for i, r := range during {
		if !r.Ready || r.Platforms["telegram"] != "retrying" {
			t.Errorf("/readyz in pause %d: %+v, want ready with telegram retrying", i+1, r)
		}
	}
}

// TestMetricsShareTheWebListener: when metrics.listen is web.listen, the
// web board's server serves /metrics, /healthz and /readyz beside its
// pages, and /readyz counts the board as a platform, connected while it
// serves.
func TestMetricsShareTheWebListener(t *testing.T) {
	c := consoleConfig(t, filepath.Join(t.TempDir(), "bot.db"))
	c.Web.Listen, c.Metrics.Listen = "127.0.0.1:0", "127.0.0.1:0"
	if err := checkWeb(&c); err != nil {
		t.Fatal(err)
	}
	run := startConsole(t, c)
	run.log.waitFor(t, "the web board")
	base := run.address(t)
	if !strings.Contains(run.log.String(), `web board served" address=`+strings.TrimPrefix(base, "http://")) {
		t.Fatalf("the metrics are not on the web board's address:\n%s", run.log.String())
	}
	run.say(t, "/play spanish @bob color=white\n/as bob\n/accept\n", "Game on")
	f := opstest.Scrape(t, base+"/metrics")
	opstest.CheckLabels(t, f, chat.CommandNames())
	if v, _ := f.Value("boardgamebot_commands_total", "command=accept", "outcome=applied"); v != 1 {
		t.Errorf("accept applied: %v, want 1", v)
	}
	var r ops.ReadyReport
	if code := getJSON(t, base+"/readyz", &r); code != 200 || r.Platforms["web"] != "connected" {
		t.Errorf("/readyz: %d %+v", code, r)
	}
	resp, err := http.Get(base + "/s/board.js")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the board's script: %d", resp.StatusCode)
	}
}
