package telegram_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// wire sees the calls of several bots to the Bot API, each bot's through
// its own transport: which bot made which call, in order, and whether two
// bots were in getUpdates at the same moment.
type wire struct {
	mu      sync.Mutex
	changed chan struct{}
	calls   []string // "A getUpdates", "B sendMessage", ...
	polling map[string]int
	overlap string
}

func newWire() *wire { return &wire{changed: make(chan struct{}), polling: map[string]int{}} }

// transport is bot name's transport.
func (w *wire) transport(name string) http.RoundTripper {
	return roundTrip(func(r *http.Request) (*http.Response, error) {
		m := path.Base(r.URL.Path)
		w.mu.Lock()
		w.calls = append(w.calls, name+" "+m)
		if m == "getUpdates" {
			w.polling[name]++
			for other, n := range w.polling {
				if other != name && n > 0 && w.overlap == "" {
					w.overlap = name + " and " + other + " polled at the same moment"
				}
			}
		}
		close(w.changed)
		w.changed = make(chan struct{})
		w.mu.Unlock()
		resp, err := http.DefaultTransport.RoundTrip(r)
		if m == "getUpdates" {
			w.mu.Lock()
			w.polling[name]--
			w.mu.Unlock()
		}
		return resp, err
	})
}

type roundTrip func(r *http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// mark is the number of calls so far.
func (w *wire) mark() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.calls)
}

// wait waits for call ("A getUpdates") from index from on and returns the
// index after it.
func (w *wire) wait(t *testing.T, from int, call string) int {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		w.mu.Lock()
		for i := from; i < len(w.calls); i++ {
			if w.calls[i] == call {
				w.mu.Unlock()
				return i + 1
			}
		}
		ch := w.changed
		w.mu.Unlock()
		select {
		case <-ch:
		case <-timeout:
			t.Fatalf("no %q after call %d: %v", call, from, w.since(0))
		}
	}
}

// since returns the calls from index from on.
func (w *wire) since(from int) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.calls[from:]...)
}

func (w *wire) overlapped() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.overlap
}

// process is one bot process on the etcd at endpoint, under prefix,
// calling the fake API through the wire as name.
type process struct {
	store *etcdstore.Store
	svc   *sessions.Service
	bot   *telegram.Bot
	stop  func()
}

func startProcess(t *testing.T, f *fakeAPI, w *wire, endpoint, prefix, name string, webhook *telegram.WebhookConfig) *process {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	p := &process{store: etcdstore.New(cli, etcdstore.Options{Prefix: prefix})}
	n := &notifier{}
	p.svc = sessions.New(sessions.Config{Store: p.store, Notifier: n})
	p.bot, err = telegram.New(telegram.Config{Token: f.token, APIEndpoint: f.srv.URL, PollTimeout: time.Second,
		RetryPause: 50 * time.Millisecond, GroupLimit: -1, ChatEvery: -1, HTTPClient: &http.Client{Transport: w.transport(name)}, Webhook: webhook},
		chat.New(chat.Config{Sessions: p.svc}), p.svc, render.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	n.mu.Lock()
	n.b = p.bot
	n.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	gate := func(ctx context.Context, poll func(context.Context)) {
		p.store.LeadElection(ctx, etcdstore.PollElection, name, etcdstore.LeaderTTL, poll)
	}
	done := make(chan error, 1)
	go func() { done <- p.bot.Run(telegram.WithPollGate(ctx, gate)) }()
	var once sync.Once
	p.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("%s: Run: %v", name, err)
			}
			p.svc.Close()
			cli.Close()
		})
	}
	t.Cleanup(p.stop)
	return p
}

// nextPut waits for the next key put in the watch.
func nextPut(t *testing.T, wc clientv3.WatchChan) string {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case resp := <-wc:
			for _, ev := range resp.Events {
				if ev.Type == clientv3.EventTypePut {
					return string(ev.Kv.Key)
				}
			}
		case <-timeout:
			t.Fatal("no process campaigned in 20 s")
		}
	}
}

// TestOnePollerAtATime runs two bot processes in long-polling mode on
// one etcd: only the one that leads the election "telegram-poll" polls.
// When its lease is lost (revoked here, as when etcd stops hearing from
// it) it stops polling, and the other polls and answers; when that one
// stops, it confirms what it handled and the first polls again, never
// both at once.
func TestOnePollerAtATime(t *testing.T) {
	e, endpoint, err := etcdtest.Start(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx := context.Background()
	election := "/tg/" + etcdstore.PollElection + "/"
	f, w := newFake(t), newWire()

	a := startProcess(t, f, w, endpoint, "/tg/", "A", nil)
	w.wait(t, 0, "A getUpdates")
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	wc := cli.Watch(wctx, election, clientv3.WithPrefix())
	b := startProcess(t, f, w, endpoint, "/tg/", "B", nil)
	nextPut(t, wc) // B campaigns, behind A

	m := w.mark()
	f.push(text(group, alice, "/games"))
	w.wait(t, m, "A sendMessage")
	for _, c := range w.since(0) {
		if c == "B getUpdates" {
			t.Fatalf("B polled while A leads: %v", w.since(0))
		}
	}

	// A loses its lease: it stops polling and campaigns again; B polls.
	leader, err := cli.Get(ctx, election, clientv3.WithFirstCreate()...)
	if err != nil || len(leader.Kvs) != 1 {
		t.Fatalf("the leader's key: %v, %v", leader, err)
	}
	m = w.mark()
	if _, err := cli.Revoke(ctx, clientv3.LeaseID(leader.Kvs[0].Lease)); err != nil {
		t.Fatal(err)
	}
	w.wait(t, m, "B getUpdates")
	nextPut(t, wc) // A campaigns again: it has stopped polling
	m = w.mark()
	last := f.push(text(group, alice, "/games"))[0]
	w.wait(t, m, "B sendMessage")
	for _, c := range w.since(m) {
		if c == "A getUpdates" {
			t.Fatalf("A polled after it lost the lead: %v", w.since(m))
		}
	}

	// B stops: it confirms the update it handled, then A polls, not at
	// the same moment.
	w.mu.Lock()
	w.overlap = ""
	w.mu.Unlock()
	m = w.mark()
	b.stop()
	w.wait(t, m, "A getUpdates")
	if got := f.confirmed(); got <= last {
		t.Fatalf("B stopped having confirmed the updates before %d; it handled %d", got, last)
	}
	m = w.mark()
	f.push(text(group, alice, "/games"))
	w.wait(t, m, "A sendMessage")
	if o := w.overlapped(); o != "" {
		t.Fatal(o)
	}
	a.stop()
	sends := 0
	for _, c := range w.since(0) {
		if strings.HasSuffix(c, " sendMessage") {
			sends++
		}
	}
	if sends != 3 {
		t.Fatalf("%d messages for 3 updates: %v", sends, w.since(0))
	}
}

// TestWebhookDuplicateAppliesOnce runs two bot processes in webhook mode
// on one etcd (no election: both serve) and delivers one update to both
// at once: it applies once (one challenge, one message); the other
// process finds its request id in etcd and says nothing.
func TestWebhookDuplicateAppliesOnce(t *testing.T) {
	e, endpoint, err := etcdtest.Start(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	f, w := newFake(t), newWire()
	var hooks []string
	var procs []*process
	for _, name := range []string{"A", "B"} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		hooks = append(hooks, "http://"+ln.Addr().String()+"/hook")
		m := w.mark()
		procs = append(procs, startProcess(t, f, w, endpoint, "/wh/", name,
			&telegram.WebhookConfig{URL: "https://bot.example.org/hook", SecretToken: "s", Listener: ln}))
		w.wait(t, m, name+" setWebhook")
	}
	post := func(hook string, u map[string]any) error {
		body, err := json.Marshal(u)
		if err != nil {
			return err
		}
		req, _ := http.NewRequest(http.MethodPost, hook, strings.NewReader(string(body)))
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", "s")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("the webhook answered %d", resp.StatusCode)
		}
		return nil
	}
	up := text(group, alice, "/play spanish @bob")
	up["update_id"] = 7001
	errs := make(chan error, 2)
	for _, h := range hooks {
		go func() { errs <- post(h, up) }()
	}
	for range hooks {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// Each process's messages into the group go out in order: once each
	// answered a later /games, what it had to say about the duplicate
	// went out before.
	for i, h := range hooks {
		name := []string{"A", "B"}[i]
		m := w.mark()
		g := text(group, alice, "/games")
		g["update_id"] = 7002 + i
		if err := post(h, g); err != nil {
			t.Fatal(err)
		}
		w.wait(t, m, name+" sendMessage")
	}
	sends := 0
	for _, c := range w.since(0) {
		if strings.Contains(c, " send") {
			sends++
		}
	}
	if sends != 3 {
		t.Fatalf("%d messages for one challenge delivered twice and two /games: %v", sends, w.since(0))
	}
	for _, p := range procs {
		snap, err := p.svc.Look(context.Background(), sessions.Key{Platform: "telegram", Channel: fmt.Sprint(group)})
		if err != nil || snap.Record.Challenger.Name != "alice" {
			t.Fatalf("the challenge: %v, %v", snap, err)
		}
	}
}
