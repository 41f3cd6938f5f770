package telegram_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestConfirmAtStop: an update handled before the bot stops is confirmed
// to Telegram, so that the next start does not handle it again (a second
// /notify off after the restart would have answered for the first).
func TestConfirmAtStop(t *testing.T) {
	f := newFake(t)
	path := filepath.Join(t.TempDir(), "bot.db")
	for round := range 3 {
		h := startBot(t, f, path, nil)
		up := text(group, bob, "/notify off")
		m := f.mark()
		id := f.push(up)[0]
		f.waitCall(m, sent(group, "sendMessage"))
		h.stop()
		if got := f.confirmed(); got <= id {
			t.Fatalf("round %d: update %d handled, but the bot stopped with offset %d confirmed", round, id, got)
		}
	}
	// Each /notify off was answered once, in its round.
	replies := map[string]int{}
	for _, c := range f.callsSince(0, 0) {
		if sent(group, "sendMessage")(c) {
			replies[c.Params["reply_to_message_id"]]++
		}
	}
	for msg, n := range replies {
		if n != 1 {
			t.Errorf("message %s answered %d times", msg, n)
		}
	}
}

// stallingStore is a store whose commits wait for release, then fail: the
// handling of an update that stops there is cut before its commit, as by a
// kill.
type stallingStore struct {
	sessions.Store
	once    sync.Once
	entered chan struct{}
	release chan struct{}
}

func (s *stallingStore) Commit(ctx context.Context, c *sessions.Change) error {
	s.once.Do(func() { close(s.entered) })
	<-s.release
	return errors.New("killed before the commit")
}

// cuttable is an HTTP transport that a test can cut, as when the process
// is killed: no call reaches Telegram after that.
type cuttable struct{ cut atomic.Bool }

func (c *cuttable) RoundTrip(r *http.Request) (*http.Response, error) {
	if c.cut.Load() {
		return nil, errors.New("the process is gone")
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestKillBeforeCommit: a bot killed while it handles an update, before
// the update's change is committed, has not confirmed it: the next bot
// gets the same update and plays the command.
func TestKillBeforeCommit(t *testing.T) {
	f := newFake(t)
	mem := sessionstest.NewMemoryStore()
	stall := &stallingStore{Store: mem, entered: make(chan struct{}), release: make(chan struct{})}
	wire := &cuttable{}
	svc1 := sessions.New(sessions.Config{Store: stall})
	bot1, err := telegram.New(telegram.Config{Token: f.token, APIEndpoint: f.srv.URL, PollTimeout: time.Second,
		HTTPClient: &http.Client{Transport: wire}, RetryPause: time.Millisecond, ShutdownGrace: 100 * time.Millisecond},
		chat.New(chat.Config{Sessions: svc1}), svc1, render.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx1, cancel1 := context.WithCancel(context.Background())
	done1 := make(chan error, 1)
	m := f.mark()
	go func() { done1 <- bot1.Run(ctx1) }()
	t.Cleanup(func() {
		close(stall.release)
		cancel1()
		select {
		case <-done1:
		case <-time.After(10 * time.Second):
			t.Error("the killed bot's Run did not return")
		}
	})
	f.waitCall(m, method("setMyCommands"))
	id := f.push(text(group, alice, "/play spanish @bob"))[0]
	select {
	case <-stall.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the bot did not reach the commit")
	}
	wire.cut.Store(true) // killed
	if got := f.confirmed(); got > id {
		t.Fatalf("update %d confirmed (offset %d) before its change was committed", id, got)
	}

	// The next bot starts on what was committed: nothing, as on a new
	// database. It gets the update again and plays it.
	m = f.mark()
	h := startBot(t, f, "", nil)
	c, _ := f.waitCall(m, sent(group, "sendMessage"))
	if !strings.Contains(c.Params["text"], "bob") {
		t.Errorf("the challenge after the restart was answered %q", c.Params["text"])
	}
	if s := h.look(group); s == nil || s.Phase() != sessions.PhaseChallenge {
		t.Errorf("the challenge was lost with the killed bot: %+v", s)
	}
}

// pauses records the waits of a bot between failed attempts, without
// waiting them out.
type pauses struct {
	mu sync.Mutex
	ds []time.Duration
	// after, when set, is called after each wait is recorded with their
	// number so far.
	after func(n int)
}

func (p *pauses) sleep(ctx context.Context, d time.Duration) error {
	p.mu.Lock()
	p.ds = append(p.ds, d)
	n := len(p.ds)
	p.mu.Unlock()
	if p.after != nil {
		p.after(n)
	}
	return ctx.Err()
}

func (p *pauses) got() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Duration(nil), p.ds...)
}

// retryLines returns the log lines of failed attempts.
func retryLines(logs string) []string {
	var out []string
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "retrying") {
			out = append(out, l)
		}
	}
	return out
}

// TestNetworkDown: while the network is down or Telegram answers 502,
// every call of the start and of the polling is tried again after a pause
// that doubles, one log line per failed attempt; then the bot serves.
func TestNetworkDown(t *testing.T) {
	f := newFake(t)
	f.breakNext("getMe", 0, 0, http.StatusBadGateway)
	f.breakNext("setMyCommands", http.StatusBadGateway)
	f.breakNext("getUpdates", 0, 0)
	p := &pauses{}
	h := startBotWith(t, f, "", func(c *telegram.Config) { c.RetryPause = time.Second },
		func(b *telegram.Bot) { telegram.SetSleep(b, p.sleep) })
	c, _ := h.say(group, alice, "/games")
	if !strings.Contains(c.Params["text"], "spanish") {
		t.Errorf("/games after the network came back answered %q", c.Params["text"])
	}
	s := time.Second
	want := []time.Duration{s, 2 * s, 4 * s, s, s, 2 * s} // getMe x3, setMyCommands, getUpdates x2
	if got := p.got(); !slices.Equal(got, want) {
		t.Errorf("pauses %v, want %v", got, want)
	}
	lines := retryLines(h.logs.String())
	wantLines := []string{"method=getMe attempt=1 ", "method=getMe attempt=2 ", "method=getMe attempt=3 ",
		"method=setMyCommands attempt=1 ", "attempt=1 ", "attempt=2 "}
	if len(lines) != len(wantLines) {
		t.Fatalf("%d log lines of failed attempts, want %d:\n%s", len(lines), len(wantLines), strings.Join(lines, "\n"))
	}
	for i, l := range lines {
		if !strings.Contains(l, wantLines[i]) || !strings.Contains(l, "retry_in="+want[i].String()) {
			t.Errorf("log line %d: %s\nwant %q and retry_in=%v", i, l, wantLines[i], want[i])
		}
		if strings.Contains(l, f.token) {
			t.Errorf("the token is in the log: %s", l)
		}
	}
}

// TestUnreachable: a server that cannot be reached does not end Run: it
// tries again, the pause doubling up to a minute, until its context is
// done; then it returns nil. The token is in no log line.
func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})
	logs := &syncBuffer{}
	b, err := telegram.New(telegram.Config{Token: "555:secret", APIEndpoint: closed},
		chat.New(chat.Config{Sessions: svc}), svc, render.New(), slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &pauses{after: func(n int) {
		if n == 10 {
			cancel()
		}
	}}
	telegram.SetSleep(b, p.sleep)
	if err := b.Run(ctx); err != nil {
		t.Errorf("Run with the server out of reach: %v, want nil once its context is done", err)
	}
	s := time.Second
	want := []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s, 32 * s, time.Minute, time.Minute, time.Minute, time.Minute}
	if got := p.got(); !slices.Equal(got, want) {
		t.Errorf("pauses %v, want %v", got, want)
	}
	lines := retryLines(logs.String())
	if len(lines) != 10 {
		t.Errorf("%d log lines of failed attempts, want 10:\n%s", len(lines), logs.String())
	}
	for i, l := range lines {
		if !strings.Contains(l, "method=getMe attempt="+strconv.Itoa(i+1)+" ") {
			t.Errorf("log line %d: %s", i, l)
		}
	}
	if strings.Contains(logs.String(), "555:secret") {
		t.Errorf("the token is in the log:\n%s", logs.String())
	}
}

// TestWebhookAnswersOnceHandled: the webhook answers Telegram's request
// (which confirms the update) only once the update's handling is over: a
// bot killed before the commit has not confirmed it.
func TestWebhookAnswersOnceHandled(t *testing.T) {
	f := newFake(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stall := &stallingStore{Store: sessionstest.NewMemoryStore(), entered: make(chan struct{}), release: make(chan struct{})}
	svc := sessions.New(sessions.Config{Store: stall})
	b, err := telegram.New(telegram.Config{Token: f.token, APIEndpoint: f.srv.URL,
		Webhook: &telegram.WebhookConfig{URL: "https://bot.example.org/hook", SecretToken: "s", Listener: ln}},
		chat.New(chat.Config{Sessions: svc}), svc, render.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	var releaseOnce sync.Once
	release := func() { releaseOnce.Do(func() { close(stall.release) }) }
	defer func() {
		release()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	f.waitCall(0, method("setWebhook"))
	answered := make(chan int, 1)
	go func() {
		body := `{"update_id":1,"message":{"message_id":9,"date":1,"chat":{"id":-1001234,"type":"supergroup"},"from":{"id":1,"first_name":"A","username":"alice"},"text":"/play spanish @bob"}}`
		req, _ := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/hook", strings.NewReader(body))
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", "s")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- -1
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	select {
	case <-stall.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the bot did not reach the commit")
	}
	select {
	case code := <-answered:
		t.Fatalf("the webhook answered %d before the update's change was committed", code)
	default:
	}
	release()
	if code := <-answered; code != http.StatusOK {
		t.Errorf("the webhook answered %d once the update was handled", code)
	}
}

// TestRunAgain: a Run that ended (here on a token refused at first, as
// while a new token is not valid yet) may be called again, and the bot
// then answers as it should.
func TestRunAgain(t *testing.T) {
	f := newFake(t)
	f.breakNext("getMe", http.StatusUnauthorized)
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})
	b, err := telegram.New(telegram.Config{Token: f.token, APIEndpoint: f.srv.URL, PollTimeout: time.Second},
		chat.New(chat.Config{Sessions: svc}), svc, render.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.Run(ctx); err == nil || !onePrefix(err) {
		t.Fatalf("the first Run with the token refused: %v", err)
	}
	m := f.mark()
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the second Run: %v", err)
		}
	}()
	f.waitCall(m, method("setMyCommands"))
	m = f.mark()
	f.push(text(group, alice, "/games"))
	if c, _ := f.waitCall(m, sent(group, "sendMessage")); !strings.Contains(c.Params["text"], "spanish") {
		t.Errorf("/games after Run started again answered %q", c.Params["text"])
	}
}
