package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

var ctx = context.Background()

// botToken is the Telegram token of the tests' bot, which signs their
// Mini App launch data.
const botToken = "123456:TEST-web-token"

// fixture is a bot with its web board on loopback: a sessions service on
// a store, the chat handler, and the web server.
type fixture struct {
	t       testing.TB
	svc     *sessions.Service
	chat    *chat.Handler
	hub     *web.Hub
	links   *web.Links
	signer  *web.Signer
	server  *web.Server
	srv     *httptest.Server
	notices *noticeLog
	store   sessions.Store
	client  *http.Client
	// streamProto is the protocol of the last stream opened.
	streamProto string

	now *sessionstest.Clock // the web server's clock (token expiry), moved by tests
}

// noticeLog keeps the notices of the service.
type noticeLog struct {
	mu  sync.Mutex
	got []sessions.Notice
}

func (n *noticeLog) Notify(ctx context.Context, no sessions.Notice) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got = append(n.got, no)
}

func (n *noticeLog) kinds(k sessions.NoticeKind) []sessions.Notice {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []sessions.Notice
	for _, no := range n.got {
		if no.Kind == k {
			out = append(out, no)
		}
	}
	return out
}

// fixtureOptions change a fixture.
type fixtureOptions struct {
	store sessions.Store
	poll  time.Duration
	// secret signs the links (a fixed one when empty).
	secret []byte
	// places open tournament games' places.
	places sessions.PlaceSet
	// http2 serves HTTPS and HTTP/2 (where a stream cannot leave the
	// server: the hub writes through the handler's response).
	http2 bool
	// maxStreams and keepAlive are the hub's HubConfig.MaxStreams and
	// KeepAlive.
	maxStreams int
	keepAlive  time.Duration
	// rate is the chat handler's per-user rate limit (none when zero).
	rate chat.Rate
	// hub sets the hub's caps and write timeout (Poll, MaxStreams and
	// KeepAlive come from the fields above); web the server's proxies
	// and request limits.
	hub web.HubConfig
	web web.Config
	// follow makes the hub follow the store's heads (a
	// sessions.HeadWatcher) while the test runs.
	follow bool
}

func newFixture(t testing.TB) *fixture { return newFixtureWith(t, fixtureOptions{}) }

func newFixtureWith(t testing.TB, o fixtureOptions) *fixture {
	t.Helper()
	if o.store == nil {
		o.store = sessionstest.NewMemoryStore()
	}
	if o.secret == nil {
		o.secret = []byte("the tests' secret, 32 bytes long")
	}
	f := &fixture{t: t, notices: &noticeLog{}, now: sessionstest.NewClock(time.Now()), store: o.store}
	hc := o.hub
	hc.Poll, hc.MaxStreams, hc.KeepAlive = o.poll, o.maxStreams, o.keepAlive
	f.hub = web.NewHub(hc)
	if o.follow {
		fctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = f.hub.Follow(fctx, o.store.(sessions.HeadWatcher))
		}()
		t.Cleanup(func() {
			stop()
			<-done
		})
	}
	f.svc = sessions.New(sessions.Config{Store: o.store, Notifier: f.notices, Changed: f.hub.Changed, Places: o.places})
	t.Cleanup(f.svc.Close)
	var err error
	if f.signer, err = web.NewSigner(o.secret); err != nil {
		t.Fatal(err)
	}
	f.srv = httptest.NewUnstartedServer(nil)
	base := "http://" + f.srv.Listener.Addr().String()
	if o.http2 {
		base = "https://" + f.srv.Listener.Addr().String()
	}
	gens, _ := o.store.(sessions.LinkGenerations)
	f.links = web.NewLinks(web.LinksConfig{Base: base, Signer: f.signer, Now: f.clock, MiniApp: true, Generations: gens})
	f.chat = chat.New(chat.Config{Sessions: f.svc, Web: f.links, Rate: o.rate})
	f.server, err = web.New(web.Config{Sessions: f.svc, Chat: f.chat, Hub: f.hub, Links: f.links, Signer: f.signer,
		TelegramToken: botToken, Now: f.clock, TrustedProxies: o.web.TrustedProxies, RequestRate: o.web.RequestRate, RequestBurst: o.web.RequestBurst})
	if err != nil {
		t.Fatal(err)
	}
	f.srv.Config.Handler = f.server.Handler()
	if o.http2 {
		f.srv.EnableHTTP2 = true
		f.srv.StartTLS()
		f.client = f.srv.Client()
	} else {
		f.srv.Start()
		f.client = &http.Client{}
	}
	t.Cleanup(func() {
		f.server.Close()
		f.srv.Close()
	})
	return f
}

func (f *fixture) clock() time.Time { return f.now.Now() }

// advance moves the web server's clock.
func (f *fixture) advance(d time.Duration) {
	f.now.Add(d)
}

// say sends a chat command as user at key and returns the reply.
func (f *fixture) say(key sessions.Key, u sessions.User, text string) chat.Reply {
	f.t.Helper()
	return f.chat.Handle(ctx, chat.Message{Key: key, User: u, Text: text})
}

// must sends a chat command that must not be refused.
func (f *fixture) must(key sessions.Key, u sessions.User, text string) chat.Reply {
	f.t.Helper()
	r := f.say(key, u, text)
	if r.Error {
		f.t.Fatalf("%s says %q: %s", u.Name, text, r.Text())
	}
	return r
}

// game starts a game of id (with options) at key between white and
// black, and returns its session.
func (f *fixture) game(key sessions.Key, white, black sessions.User, play string) *sessions.Snapshot {
	f.t.Helper()
	f.must(key, white, "/play "+play+" @"+black.Name+" color=white")
	f.must(key, black, "/accept")
	s, err := f.svc.Look(ctx, key)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

// look returns the session at key.
func (f *fixture) look(key sessions.Key) *sessions.Snapshot {
	f.t.Helper()
	s, err := f.svc.Look(ctx, key)
	if err != nil {
		f.t.Fatalf("no session at %s: %v", key, err)
	}
	return s
}

// link returns u's own link to the game at key (the watch link for
// someone who does not play).
func (f *fixture) link(key sessions.Key, u sessions.User) string {
	b := f.links.Board(f.look(key), u)
	if b.Play != "" {
		return b.Play
	}
	return b.Watch
}

// parts splits a link into its game's path (/g/<ref>) and its token.
func parts(t testing.TB, link string) (path, token string) {
	t.Helper()
	i := strings.Index(link, "/g/")
	j := strings.IndexAny(link, "?#")
	if i < 0 || j < 0 {
		t.Fatalf("%q is not a board link", link)
	}
	if k := strings.Index(link, "#t="); k >= 0 {
		return link[i:j], link[k+3:]
	}
	if k := strings.Index(link, "?v="); k >= 0 {
		return link[i:j], link[k+3:]
	}
	t.Fatalf("%q is not a board link", link)
	return "", ""
}

// post sends an action of a page: path is the game's (/g/<ref>), token
// the header's ("" for none).
func (f *fixture) post(path, action, token string, body any) (int, map[string]any) {
	f.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", f.srv.URL+path+"/"+action, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("X-Board-Token", token)
	}
	res, err := f.client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		f.t.Fatalf("POST %s/%s answered %d without JSON: %v", path, action, res.StatusCode, err)
	}
	return res.StatusCode, out
}

// get fetches a URL of the server (path and query).
func (f *fixture) get(pathQuery string, header ...string) (int, []byte) {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+pathQuery, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := f.client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// state fetches the state a link's page sees.
func (f *fixture) state(link string) web.State {
	f.t.Helper()
	path, token := parts(f.t, link)
	code, b := f.get(path+"/state", "X-Board-Token", token)
	if code != http.StatusOK {
		f.t.Fatalf("GET %s/state: %d %s", path, code, b)
	}
	var st web.State
	if err := json.Unmarshal(b, &st); err != nil {
		f.t.Fatal(err)
	}
	return st
}

// events is a page's live stream, read event by event.
type events struct {
	res *http.Response
	r   *bufio.Reader
}

// watch opens the live stream of a link's page.
func (f *fixture) watch(link string) *events {
	f.t.Helper()
	path, token := parts(f.t, link)
	// A stream that stops getting what a test waits for fails the test
	// (after a minute) instead of hanging it.
	client := *f.client
	client.Timeout = time.Minute
	res, err := client.Get(f.srv.URL + path + "/events?t=" + token)
	if err != nil {
		f.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		f.t.Fatalf("events: %s", res.Status)
	}
	f.streamProto = res.Proto
	e := &events{res: res, r: bufio.NewReader(res.Body)}
	f.t.Cleanup(func() { res.Body.Close() })
	return e
}

// next returns the next event's name and data (comments skipped).
func (e *events) next(t *testing.T) (string, []byte) {
	t.Helper()
	name := ""
	var data []byte
	for {
		line, err := e.r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("the stream ended: %v", err)
		}
		line = bytes.TrimRight(line, "\n")
		switch {
		case len(line) == 0 && name != "":
			return name, data
		case bytes.HasPrefix(line, []byte("event: ")):
			name = string(line[7:])
		case bytes.HasPrefix(line, []byte("data: ")):
			data = append([]byte(nil), line[6:]...)
		}
	}
}

// nextState returns the next state the stream sends.
func (e *events) nextState(t *testing.T) web.State {
	t.Helper()
	for {
		name, data := e.next(t)
		if name != "state" {
			continue
		}
		var st web.State
		if err := json.Unmarshal(data, &st); err != nil {
			t.Fatal(err)
		}
		return st
	}
}

var (
	alice = sessions.User{ID: "101", Name: "alice"}
	bob   = sessions.User{ID: "102", Name: "bob"}
	carol = sessions.User{ID: "103", Name: "carol"}
)

// here and there are two places of the tests' platform.
var (
	here  = sessions.Key{Platform: "console", Channel: "here"}
	there = sessions.Key{Platform: "console", Channel: "there"}
)

// placed puts a game of id (with options) at key, from the position fen,
// white and black seated, into the store before the service has seen the
// key (the service loads it on first use).
func (f *fixture) placed(key sessions.Key, id string, opts map[string]string, fen string, white, black sessions.User) *sessions.Snapshot {
	f.t.Helper()
	now := time.Now().UTC()
	rec := &sessions.Record{V: sessions.RecordVersion, Key: key, Game: id, Options: opts, Play: sessions.PlayOptions{Color: sessions.ColorWhite},
		Challenger: white, Seats: []sessions.User{white, black}, Start: fen, Created: now, Started: now, Updated: now, Version: 1}
	if err := f.store.Commit(ctx, &sessions.Change{Key: key, Live: rec, At: now}); err != nil {
		f.t.Fatal(err)
	}
	return f.look(key)
}
