package discord

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/internal/testwait"
	"github.com/gorilla/websocket"
)

// fakeDiscord is a Discord in the test: the REST API on httptest and a
// gateway websocket that says Hello, reads Identify (or Resume), sends
// READY and then dispatches the events a test sends. It records every
// request and keeps the messages, threads and interaction answers.
const (
	fakeApp   = "900" // the application, and the bot's user id
	fakeGuild = "800"
	fakeChan  = "700" // a text channel
)

type fakeReq struct {
	at     time.Time
	method string
	path   string // after /api/v9
	query  url.Values
	body   map[string]any // the JSON payload (payload_json of a multipart body)
	list   []any          // a JSON array payload (bulk overwrite)
	files  []fakeFile
	msgID  string // the message the request created or edited
	status int    // the answer's HTTP status; 0: the connection dropped
}

type fakeFile struct {
	name string
	data []byte
}

type fakeMsg struct {
	id, channel string
	content     string
	components  []any
	flags       int
	files       int
}

type fakeChannel struct {
	typ          int
	parent, name string
	// perms, when set, are the bot's permissions in the channel (its
	// interactions' app_permissions, and what Discord checks when the bot
	// opens threads or posts there); a thread without its own has its
	// parent's; 0: the fake's perms.
	perms int64
	// A forum's tags (available_tags: id and name each), and a post's
	// (applied_tags).
	tags    []fakeTag
	applied []string
	// A thread archived (and locked) takes no message: the fake refuses
	// a send there, and fails the test, as Discord refuses it.
	archived, locked bool
}

// fakeTag is a forum's tag.
type fakeTag struct{ id, name string }

// Discord's channel types the fake knows beyond text channels and
// public threads.
const (
	typeNews  = 5
	typeForum = 15
)

type fakeDiscord struct {
	t   *testing.T
	srv *httptest.Server

	mu         sync.Mutex
	wake       chan struct{} // closed and replaced at every request
	reqs       []*fakeReq
	next       int64
	seq        int
	conn       *websocket.Conn
	wmu        sync.Mutex // guards writes to conn
	identifies []map[string]any
	resumes    int
	messages   map[string]*fakeMsg
	originals  map[string]string // interaction token -> message id
	tokens     map[string]string // interaction token -> channel
	channels   map[string]*fakeChannel
	sent       map[string]time.Time // interaction id -> dispatched
	failThread bool
	omitChan   bool              // interactions without the "channel" object
	perms      int64             // the bot's permissions in interactions; 0: allPerms
	members    map[string]int64  // a user's permissions in interactions (member.permissions)
	refuse     int               // gateway connections to refuse (503) before accepting
	refused    int               // gateway connections refused
	guilds     map[string]string // a channel's server, when not fakeGuild (its threads' too)
	faults     []fault           // requests to fail, the first match first
	held       map[string]bool   // interaction tokens whose answers wait for release
	release    chan struct{}     // closed by releaseHeld
}

// fault is a failure the REST API answers to the next request that
// matches: an HTTP status (a 5xx, a 429), or 0 to drop the connection.
type fault struct {
	match  func(q *fakeReq) bool
	status int
}

func newFakeDiscord(t *testing.T) *fakeDiscord {
	f := &fakeDiscord{t: t, wake: make(chan struct{}), next: 1_000_000_000_000_000_000,
		messages: map[string]*fakeMsg{}, originals: map[string]string{}, tokens: map[string]string{},
		channels: map[string]*fakeChannel{fakeChan: {typ: 0, name: "games"}}, sent: map[string]time.Time{},
		held: map[string]bool{}, release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/ws", f.gateway)
	mux.HandleFunc("/ws/", f.gateway)
	mux.HandleFunc("/api/v9/", f.rest)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// client is the HTTP client the bot uses: every request to discord.com
// goes to the fake.
func (f *fakeDiscord) client() *http.Client {
	u, _ := url.Parse(f.srv.URL)
	return &http.Client{Timeout: 10 * time.Second, Transport: rewrite{host: u.Host, rt: http.DefaultTransport}}
}

// rewrite sends every request to host, over plain HTTP.
type rewrite struct {
	host string
	rt   http.RoundTripper
}

func (r rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme = "http"
	req.URL.Host = r.host
	req.Host = ""
	return r.rt.RoundTrip(req)
}

func (f *fakeDiscord) id() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.newID()
}

func (f *fakeDiscord) newID() string {
	f.next++
	return strconv.FormatInt(f.next, 10)
}

// ---- gateway ----

var upgrader = websocket.Upgrader{}

func (f *fakeDiscord) gateway(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	refuse := f.refuse > 0
	if refuse {
		f.refuse--
		f.refused++
	}
	f.mu.Unlock()
	if refuse {
		http.Error(w, "the gateway is down", http.StatusServiceUnavailable)
		return
	}
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		f.t.Errorf("fake gateway: upgrade: %v", err)
		return
	}
	defer c.Close()
	f.wmu.Lock()
	err = c.WriteJSON(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}})
	f.wmu.Unlock()
	if err != nil {
		return
	}
	var hello struct {
		Op int            `json:"op"`
		D  map[string]any `json:"d"`
	}
	if err := c.ReadJSON(&hello); err != nil {
		return
	}
	f.mu.Lock()
	switch hello.Op {
	case 2:
		f.identifies = append(f.identifies, hello.D)
	case 6:
		f.resumes++
	}
	f.seq++
	seq := f.seq
	f.mu.Unlock()
	ready := map[string]any{"op": 0, "t": "READY", "s": seq, "d": map[string]any{
		"v": 9, "session_id": "fake-session", "resume_gateway_url": "ws://unused",
		"user":        map[string]any{"id": fakeApp, "username": "boardgamebot", "bot": true},
		"application": map[string]any{"id": fakeApp},
		"guilds":      []any{map[string]any{"id": fakeGuild, "unavailable": true}},
	}}
	if hello.Op == 6 {
		ready = map[string]any{"op": 0, "t": "RESUMED", "s": seq, "d": map[string]any{}}
	}
	f.wmu.Lock()
	err = c.WriteJSON(ready)
	f.wmu.Unlock()
	if err != nil {
		return
	}
	f.mu.Lock()
	f.conn = c
	f.mu.Unlock()
	for {
		var m struct {
			Op int `json:"op"`
		}
		if err := c.ReadJSON(&m); err != nil {
			f.mu.Lock()
			if f.conn == c {
				f.conn = nil
			}
			f.mu.Unlock()
			return
		}
		if m.Op == 1 {
			f.wmu.Lock()
			_ = c.WriteJSON(map[string]any{"op": 11})
			f.wmu.Unlock()
		}
	}
}

// dispatch sends an event to the connected bot.
func (f *fakeDiscord) dispatch(t *testing.T, typ string, d map[string]any) {
	t.Helper()
	connected := func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.conn != nil
	}
	if !testwait.Until(5*time.Second, connected) {
		t.Fatalf("fake gateway: no bot connected to dispatch %s", typ)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.seq++
	frame, _ := json.Marshal(map[string]any{"op": 0, "t": typ, "s": f.seq, "d": json.RawMessage(b)})
	c := f.conn
	if id, ok := d["id"].(string); ok && typ == "INTERACTION_CREATE" {
		if _, again := f.sent[id]; !again {
			f.sent[id] = time.Now()
		}
		f.tokens[d["token"].(string)] = d["channel_id"].(string)
	}
	f.mu.Unlock()
	f.wmu.Lock()
	err = c.WriteMessage(websocket.TextMessage, frame)
	f.wmu.Unlock()
	if err != nil {
		t.Fatalf("fake gateway: dispatch: %v", err)
	}
}

// drop closes the gateway connection, as a network failure would.
func (f *fakeDiscord) drop() {
	f.mu.Lock()
	c := f.conn
	f.conn = nil
	f.mu.Unlock()
	if c != nil {
		c.Close()
	}
}

func (f *fakeDiscord) counts() (identifies, resumes int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.identifies), f.resumes
}

// ---- REST ----

func (f *fakeDiscord) rest(w http.ResponseWriter, r *http.Request) {
	req := &fakeReq{at: time.Now(), method: r.Method, path: strings.TrimPrefix(r.URL.Path, "/api/v9"), query: r.URL.Query()}
	if err := readBody(r, req); err != nil {
		f.t.Errorf("fake REST %s %s: %v", r.Method, r.URL.Path, err)
		http.Error(w, err.Error(), 400)
		return
	}
	if r.Header.Get("Authorization") != "Bot test-token" && !strings.HasPrefix(req.path, "/webhooks/") && !strings.HasPrefix(req.path, "/interactions/") {
		f.t.Errorf("fake REST %s %s: authorization %q", r.Method, req.path, r.Header.Get("Authorization"))
	}
	f.mu.Lock()
	for k, ft := range f.faults {
		if !ft.match(req) {
			continue
		}
		f.faults = append(f.faults[:k:k], f.faults[k+1:]...)
		req.status = ft.status
		f.reqs = append(f.reqs, req)
		close(f.wake)
		f.wake = make(chan struct{})
		f.mu.Unlock()
		f.answerFault(w, ft.status)
		return
	}
	status, resp := f.route(req)
	req.status = status
	f.reqs = append(f.reqs, req)
	close(f.wake)
	f.wake = make(chan struct{})
	hold, release := f.holds(req), f.release
	f.mu.Unlock()
	if hold {
		<-release
	}
	if resp == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(resp)
}

// answerFault answers a request with a failure: a dropped connection
// (status 0), a 429 asking for a short wait, or an error status.
func (f *fakeDiscord) answerFault(w http.ResponseWriter, status int) {
	switch status {
	case 0:
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			f.t.Errorf("fake REST: hijacking the connection: %v", err)
			return
		}
		conn.Close()
	case http.StatusTooManyRequests:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": "You are being rate limited.", "retry_after": 0.01, "global": false})
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": http.StatusText(status), "code": 0})
	}
}

// failNext makes the next requests that match fail, one per status: an
// HTTP status, or 0 to drop the connection.
func (f *fakeDiscord) failNext(match func(q *fakeReq) bool, statuses ...int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range statuses {
		f.faults = append(f.faults, fault{match, s})
	}
}

// hold makes the answers to the requests about an interaction (by its
// token) wait until releaseHeld: its answer is on its way for as long.
func (f *fakeDiscord) hold(i map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.held[i["token"].(string)] = true
}

// releaseHeld lets the held answers go.
func (f *fakeDiscord) releaseHeld() {
	f.mu.Lock()
	defer f.mu.Unlock()
	close(f.release)
	f.release = make(chan struct{})
	clear(f.held)
}

// holds reports whether the answer to q waits; f.mu is held.
func (f *fakeDiscord) holds(q *fakeReq) bool {
	p := strings.Split(strings.Trim(q.path, "/"), "/")
	return len(p) >= 3 && p[0] == "webhooks" && f.held[p[2]]
}

func readBody(r *http.Request, req *fakeReq) error {
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "":
		return nil
	case "application/json":
		b, err := io.ReadAll(r.Body)
		if err != nil || len(b) == 0 {
			return err
		}
		if b[0] == '[' {
			return json.Unmarshal(b, &req.list)
		}
		return json.Unmarshal(b, &req.body)
	case "multipart/form-data":
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			b, err := io.ReadAll(p)
			if err != nil {
				return err
			}
			if p.FormName() == "payload_json" {
				if err := json.Unmarshal(b, &req.body); err != nil {
					return err
				}
				continue
			}
			req.files = append(req.files, fakeFile{name: p.FileName(), data: b})
		}
	}
	return fmt.Errorf("content type %q", ct)
}

func (m *fakeMsg) json() map[string]any {
	return map[string]any{"id": m.id, "channel_id": m.channel, "content": m.content, "flags": m.flags}
}

// invalidForm is Discord's answer to a message it refuses.
var invalidForm = map[string]any{"message": "Invalid Form Body", "code": 50035}

// buttonKeys are the fields of Discord's button component.
var buttonKeys = map[string]bool{"type": true, "style": true, "label": true, "emoji": true, "custom_id": true, "url": true, "disabled": true, "sku_id": true}

// checkComponents checks a message's components as Discord takes them:
// at most 5 action rows of 1 to 5 buttons (or one select menu); a link
// button (style 5) has a url (http or https, at most 512 characters) and
// no custom_id, the others a custom_id (at most 100 characters) and no
// url; a label has at most 80 characters. It reports Discord's refusal;
// a field Discord does not take fails the test.
func (f *fakeDiscord) checkComponents(q *fakeReq) bool {
	body := q.body
	if d, ok := body["data"].(map[string]any); ok && strings.HasPrefix(q.path, "/interactions/") {
		body = d
	}
	rows, ok := body["components"].([]any)
	if !ok {
		return true
	}
	if len(rows) > 5 {
		return false
	}
	for _, r := range rows {
		row, _ := r.(map[string]any)
		cs, _ := row["components"].([]any)
		if num(row["type"]) != 1 || len(cs) == 0 || len(cs) > 5 {
			return false
		}
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			if num(cm["type"]) != 2 {
				continue // a select menu: checked by the tests that use one
			}
			for k := range cm {
				if !buttonKeys[k] {
					f.t.Errorf("fake REST %s %s: a button has %q, which Discord does not take", q.method, q.path, k)
				}
			}
			label, _ := cm["label"].(string)
			id, hasID := cm["custom_id"].(string)
			link, hasURL := cm["url"].(string)
			if len([]rune(label)) > 80 {
				return false
			}
			if num(cm["style"]) == 5 {
				if !hasURL || hasID || len(link) > 512 || !(strings.HasPrefix(link, "https://") || strings.HasPrefix(link, "http://")) {
					return false
				}
				continue
			}
			if !hasID || id == "" || len(id) > 100 || hasURL {
				return false
			}
		}
	}
	return true
}

// checkCommands checks application commands as Discord takes them: at
// most 25 options a command (or subcommand), at most 25 choices an
// option, and no choices on an autocompleted option; it says what is
// wrong, "" for nothing.
func checkCommands(list []any) string {
	var walk func(where string, opts []any) string
	walk = func(where string, opts []any) string {
		if len(opts) > 25 {
			return fmt.Sprintf("%s has %d options (25 at most)", where, len(opts))
		}
		for _, o := range opts {
			om, _ := o.(map[string]any)
			name := where + " " + fmt.Sprint(om["name"])
			choices, _ := om["choices"].([]any)
			if len(choices) > 25 {
				return fmt.Sprintf("%s has %d choices (25 at most)", name, len(choices))
			}
			if om["autocomplete"] == true && len(choices) > 0 {
				return name + " has choices and autocomplete"
			}
			if sub, ok := om["options"].([]any); ok {
				if why := walk(name, sub); why != "" {
					return why
				}
			}
		}
		return ""
	}
	for _, c := range list {
		cm, _ := c.(map[string]any)
		opts, _ := cm["options"].([]any)
		if why := walk("/"+fmt.Sprint(cm["name"]), opts); why != "" {
			return why
		}
	}
	return ""
}

// route answers a request; f.mu is held.
func (f *fakeDiscord) route(q *fakeReq) (int, any) {
	if !f.checkComponents(q) {
		return 400, invalidForm
	}
	p := strings.Split(strings.Trim(q.path, "/"), "/")
	at := func(i int) string {
		if i < len(p) {
			return p[i]
		}
		return ""
	}
	switch {
	case q.method == "GET" && q.path == "/gateway":
		return 200, map[string]any{"url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws"}
	case q.method == "PUT" && at(0) == "applications" && p[len(p)-1] == "commands":
		if why := checkCommands(q.list); why != "" {
			f.t.Errorf("fake REST: the commands are refused: %s", why)
			return 400, invalidForm
		}
		for _, c := range q.list {
			c.(map[string]any)["id"] = f.newID()
		}
		return 200, q.list
	case q.method == "POST" && at(0) == "interactions" && at(3) == "callback":
		token := at(2)
		typ := int(num(q.body["type"]))
		if why := f.closedTo(f.tokens[token]); why != "" && (typ == 4 || typ == 5) && !ephemeralBody(q.body) {
			f.t.Errorf("fake REST: an answer posted in %s: %s", f.tokens[token], why)
			return 400, map[string]any{"message": why, "code": 50083}
		}
		if typ == 4 || typ == 5 {
			m := &fakeMsg{id: f.newID(), channel: f.tokens[token]}
			f.apply(m, q)
			f.messages[m.id] = m
			f.originals[token] = m.id
		}
		if typ == 7 {
			if m := f.messages[f.originals[token]]; m != nil {
				f.apply(m, q)
			}
		}
		return 204, nil
	case at(0) == "webhooks" && at(3) == "messages" && at(4) == "@original":
		m := f.messages[f.originals[at(2)]]
		if m == nil {
			return 404, map[string]any{"message": "Unknown Message", "code": 10008}
		}
		switch q.method {
		case "PATCH":
			f.apply(m, q)
		case "DELETE":
			delete(f.messages, m.id)
			return 204, nil
		}
		return 200, m.json()
	case q.method == "POST" && at(0) == "webhooks" && len(p) == 3:
		if why := f.closedTo(f.tokens[at(2)]); why != "" && int(num(q.body["flags"]))&64 == 0 {
			f.t.Errorf("fake REST: a follow-up posted in %s: %s", f.tokens[at(2)], why)
			return 400, map[string]any{"message": why, "code": 50083}
		}
		m := &fakeMsg{id: f.newID(), channel: f.tokens[at(2)]}
		q.msgID = m.id
		f.apply(m, q)
		f.messages[m.id] = m
		return 200, m.json()
	case q.method == "POST" && at(0) == "channels" && at(2) == "messages" && at(4) == "threads":
		if f.failThread {
			return 403, map[string]any{"message": "Missing Permissions", "code": 50013}
		}
		parent, msg := at(1), at(3)
		name, _ := q.body["name"].(string)
		f.channels[msg] = &fakeChannel{typ: 11, parent: parent, name: name}
		return 201, map[string]any{"id": msg, "type": 11, "parent_id": parent, "name": name, "guild_id": fakeGuild}
	case q.method == "POST" && at(0) == "channels" && at(2) == "threads" && len(p) == 3:
		// A thread without a message (a tournament game's), or a forum's
		// post with its starting message.
		parent, id := at(1), f.newID()
		pc := f.channels[parent]
		forum := pc != nil && pc.typ == typeForum
		need := int64(1 << 35) // Create Public Threads
		if forum {
			need = 1 << 11 // Create Posts: Send Messages in a forum
		}
		if f.failThread || f.botPerms(parent)&need == 0 {
			return 403, map[string]any{"message": "Missing Permissions", "code": 50013}
		}
		msg, hasMsg := q.body["message"].(map[string]any)
		if forum != hasMsg {
			f.t.Errorf("fake REST: a thread in channel %s (forum %v) with a starting message %v", parent, forum, hasMsg)
			return 400, map[string]any{"message": "Invalid Form Body", "code": 50035}
		}
		name, _ := q.body["name"].(string)
		typ := int(num(q.body["type"]))
		if typ == 0 {
			typ = 12 // Discord's default: a private thread
		}
		c := &fakeChannel{typ: typ, parent: parent, name: name}
		out := map[string]any{"id": id, "type": typ, "parent_id": parent, "name": name, "guild_id": fakeGuild}
		if forum {
			c.typ = 11 // a forum's posts are public threads
			for _, tg := range asList(q.body["applied_tags"]) {
				tag, _ := tg.(string)
				if !slices.ContainsFunc(pc.tags, func(x fakeTag) bool { return x.id == tag }) {
					f.t.Errorf("fake REST: post %q tagged %q, not a tag of forum %s", name, tag, parent)
				}
				c.applied = append(c.applied, tag)
			}
			// The starting message has the post's id.
			m := &fakeMsg{id: id, channel: id}
			f.apply(m, &fakeReq{body: msg, files: q.files})
			f.messages[id] = m
			out["type"], out["applied_tags"] = 11, c.applied
		}
		f.channels[id] = c
		q.msgID = id
		return 201, out
	case q.method == "PATCH" && at(0) == "channels" && len(p) == 2:
		// A thread archived or locked.
		c := f.channels[at(1)]
		if c == nil || (c.typ != 11 && c.typ != 12) {
			f.t.Errorf("fake REST: PATCH of channel %s, not a thread: %v", at(1), q.body)
			return 404, map[string]any{"message": "Unknown Channel", "code": 10003}
		}
		if l, ok := q.body["locked"].(bool); ok && l && f.botPerms(c.parent)&(1<<34) == 0 {
			return 403, map[string]any{"message": "Missing Permissions", "code": 50013} // Manage Threads
		}
		if a, ok := q.body["archived"].(bool); ok {
			c.archived = a
		}
		if l, ok := q.body["locked"].(bool); ok {
			c.locked = l
		}
		return 200, map[string]any{"id": at(1), "type": c.typ, "parent_id": c.parent, "name": c.name,
			"thread_metadata": map[string]any{"archived": c.archived, "locked": c.locked}}
	case q.method == "POST" && at(0) == "channels" && at(2) == "messages" && len(p) == 3:
		if why := f.closedTo(at(1)); why != "" {
			f.t.Errorf("fake REST: a message sent to %s: %s", at(1), why)
			return 400, map[string]any{"message": why, "code": 50083}
		}
		m := &fakeMsg{id: f.newID(), channel: at(1)}
		q.msgID = m.id
		f.apply(m, q)
		f.messages[m.id] = m
		return 200, m.json()
	case q.method == "PATCH" && at(0) == "channels" && at(2) == "messages" && len(p) == 4:
		if why := f.closedTo(at(1)); why != "" {
			f.t.Errorf("fake REST: a message edited in %s: %s", at(1), why)
			return 400, map[string]any{"message": why, "code": 50083}
		}
		m := f.messages[at(3)]
		if m == nil {
			return 404, map[string]any{"message": "Unknown Message", "code": 10008}
		}
		f.apply(m, q)
		return 200, m.json()
	case q.method == "GET" && at(0) == "channels" && len(p) == 2:
		c := f.channels[at(1)]
		if c == nil {
			return 404, map[string]any{"message": "Unknown Channel", "code": 10003}
		}
		out := map[string]any{"id": at(1), "type": c.typ, "name": c.name, "guild_id": fakeGuild}
		if c.parent != "" {
			out["parent_id"] = c.parent
		}
		if c.typ == typeForum {
			var tags []any
			for _, tg := range c.tags {
				tags = append(tags, map[string]any{"id": tg.id, "name": tg.name, "moderated": false})
			}
			out["available_tags"] = tags
		}
		if c.typ == 11 || c.typ == 12 {
			out["thread_metadata"] = map[string]any{"archived": c.archived, "locked": c.locked}
			out["applied_tags"] = c.applied
		}
		return 200, out
	}
	f.t.Errorf("fake REST: unexpected %s %s", q.method, q.path)
	return 404, map[string]any{"message": "404: Not Found", "code": 0}
}

// botPerms are the bot's permissions in a channel: its own, a thread's
// parent's, or the fake's; f.mu is held.
func (f *fakeDiscord) botPerms(ch string) int64 {
	for c := f.channels[ch]; c != nil; c = f.channels[c.parent] {
		if c.perms != 0 {
			return c.perms
		}
		if c.parent == "" {
			break
		}
	}
	if f.perms != 0 {
		return f.perms
	}
	return allPerms
}

// closedTo says why nothing may be posted in a channel: an archived
// thread, or a forum (which holds posts, not messages); "" when it takes
// messages. f.mu is held.
func (f *fakeDiscord) closedTo(ch string) string {
	switch c := f.channels[ch]; {
	case c == nil:
		return ""
	case c.archived:
		return "Thread is archived"
	case c.typ == typeForum:
		return "Cannot send messages in a forum channel"
	}
	return ""
}

// ephemeralBody reports whether an interaction callback's message is
// ephemeral (only its user sees it: nothing is posted in the channel).
func ephemeralBody(body map[string]any) bool {
	d, _ := body["data"].(map[string]any)
	return int(num(d["flags"]))&64 != 0
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// thread returns a copy of a channel as the fake holds it.
func (f *fakeDiscord) thread(id string) fakeChannel {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c := f.channels[id]; c != nil {
		return *c
	}
	return fakeChannel{}
}

// apply sets the fields a request gives to a message.
func (f *fakeDiscord) apply(m *fakeMsg, q *fakeReq) {
	body := q.body
	if d, ok := body["data"].(map[string]any); ok && strings.HasPrefix(q.path, "/interactions/") {
		body = d
	}
	if c, ok := body["content"].(string); ok {
		m.content = c
	}
	if c, ok := body["components"].([]any); ok {
		m.components = c
	}
	if fl, ok := body["flags"]; ok {
		m.flags = int(num(fl))
	}
	m.files += len(q.files)
}

func num(v any) float64 {
	x, _ := v.(float64)
	return x
}

// ---- what the tests use ----

// mark returns the number of requests so far: waits look after it.
func (f *fakeDiscord) mark() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// waitFor returns the first request after from that matches.
func (f *fakeDiscord) waitFor(t *testing.T, from int, what string, match func(q *fakeReq) bool) *fakeReq {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		f.mu.Lock()
		for _, q := range f.reqs[min(from, len(f.reqs)):] {
			if match(q) {
				f.mu.Unlock()
				return q
			}
		}
		wake := f.wake
		f.mu.Unlock()
		select {
		case <-wake:
		case <-deadline:
			t.Fatalf("fake Discord: no %s after request %d; requests:\n%s", what, from, f.dump(from))
		}
	}
}

// since returns the requests after from that match.
func (f *fakeDiscord) since(from int, match func(q *fakeReq) bool) []*fakeReq {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*fakeReq
	for _, q := range f.reqs[min(from, len(f.reqs)):] {
		if match(q) {
			out = append(out, q)
		}
	}
	return out
}

func (f *fakeDiscord) dump(from int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for i, q := range f.reqs {
		if i < from {
			continue
		}
		body, _ := json.Marshal(q.body)
		fmt.Fprintf(&b, "  %d %s %s %s files=%d\n", i, q.method, q.path, clip(string(body), 300), len(q.files))
	}
	return b.String()
}

func (f *fakeDiscord) message(id string) fakeMsg {
	f.mu.Lock()
	defer f.mu.Unlock()
	if m := f.messages[id]; m != nil {
		return *m
	}
	return fakeMsg{}
}

// original is the message id of an interaction's answer.
func (f *fakeDiscord) original(token string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.originals[token]
}

func (f *fakeDiscord) dispatchedAt(id string) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sent[id]
}

// person is a Discord user of the tests.
type person struct{ id, name string }

var (
	alice = person{"101", "alice"}
	bob   = person{"102", "bob"}
	carol = person{"103", "carol"}
)

// allPerms are the permissions the bot has in the test channel.
const allPerms = int64(1<<10 | 1<<11 | 1<<14 | 1<<15 | 1<<16 | 1<<35 | 1<<38)

// interaction builds an interaction in channel ch.
func (f *fakeDiscord) interaction(typ int, ch string, u person, data map[string]any) map[string]any {
	id := f.id()
	f.mu.Lock()
	perms := f.botPerms(ch)
	member := f.members[u.id]
	f.mu.Unlock()
	if member == 0 {
		member = int64(1<<10 | 1<<11) // view the channel, send messages
	}
	f.mu.Lock()
	guild := fakeGuild
	if g := f.guilds[ch]; g != "" {
		guild = g
	} else if c := f.channels[ch]; c != nil && f.guilds[c.parent] != "" {
		guild = f.guilds[c.parent]
	}
	f.mu.Unlock()
	d := map[string]any{"id": id, "application_id": fakeApp, "type": typ, "token": "tok" + id, "version": 1,
		"guild_id": guild, "channel_id": ch, "app_permissions": strconv.FormatInt(perms, 10),
		"member": map[string]any{"user": map[string]any{"id": u.id, "username": u.name}, "roles": []any{},
			"permissions": strconv.FormatInt(member, 10)},
		"data": data, "locale": "en-US"}
	f.mu.Lock()
	c := f.channels[ch]
	omit := f.omitChan
	f.mu.Unlock()
	if c != nil && !omit {
		obj := map[string]any{"id": ch, "type": c.typ, "name": c.name}
		if c.parent != "" {
			obj["parent_id"] = c.parent
		}
		d["channel"] = obj
	}
	return d
}

// addChannel adds a text channel ch of the server guild.
func (f *fakeDiscord) addChannel(ch, guild string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.channels[ch] = &fakeChannel{typ: 0, name: "games-" + ch}
	if f.guilds == nil {
		f.guilds = map[string]string{}
	}
	f.guilds[ch] = guild
}

// opt is an option of a slash command.
type opt struct {
	name string
	typ  int
	val  any
}

func str(name, v string) opt { return opt{name, 3, v} }
func usr(name string, p person) opt {
	return opt{name, 6, p.id}
}

// slash sends a slash command; it returns the interaction.
func (f *fakeDiscord) slash(t *testing.T, ch string, u person, name string, opts ...opt) map[string]any {
	t.Helper()
	i := f.command(ch, u, name, opts...)
	f.dispatch(t, "INTERACTION_CREATE", i)
	return i
}

// command builds the interaction of a slash command, to dispatch.
func (f *fakeDiscord) command(ch string, u person, name string, opts ...opt) map[string]any {
	var os []any
	users := map[string]any{}
	for _, o := range opts {
		os = append(os, map[string]any{"name": o.name, "type": o.typ, "value": o.val})
		if o.typ == 6 {
			for _, p := range []person{alice, bob, carol, {fakeApp, "boardgamebot"}} {
				if p.id == o.val {
					users[p.id] = map[string]any{"id": p.id, "username": p.name}
				}
			}
		}
	}
	return f.interaction(2, ch, u, map[string]any{"id": "cmd" + name, "name": name, "type": 1, "options": os,
		"resolved": map[string]any{"users": users}})
}

// press presses a component of a message; values are a select menu's.
func (f *fakeDiscord) press(t *testing.T, msgID string, u person, customID string, values ...string) map[string]any {
	t.Helper()
	m := f.message(msgID)
	data := map[string]any{"custom_id": customID, "component_type": 2}
	if values != nil {
		data["component_type"] = 3
		data["values"] = values
	}
	i := f.interaction(3, m.channel, u, data)
	i["message"] = map[string]any{"id": msgID, "channel_id": m.channel, "content": m.content, "flags": m.flags}
	f.mu.Lock()
	f.originals[i["token"].(string)] = msgID
	f.mu.Unlock()
	f.dispatch(t, "INTERACTION_CREATE", i)
	return i
}

// complete asks for the autocompletion of a /move being typed.
func (f *fakeDiscord) complete(t *testing.T, ch string, u person, typed string) map[string]any {
	t.Helper()
	i := f.interaction(4, ch, u, map[string]any{"id": "cmdmove", "name": "move", "type": 1,
		"options": []any{map[string]any{"name": "move", "type": 3, "value": typed, "focused": true}}})
	f.dispatch(t, "INTERACTION_CREATE", i)
	return i
}

// customIDs lists the components of a message: label (or placeholder) -> custom id.
func customIDs(m fakeMsg) map[string]string {
	out := map[string]string{}
	var walk func(cs []any)
	walk = func(cs []any) {
		for _, c := range cs {
			cm, _ := c.(map[string]any)
			if sub, ok := cm["components"].([]any); ok {
				walk(sub)
			}
			id, _ := cm["custom_id"].(string)
			if l, ok := cm["label"].(string); ok && l != "" {
				out[l] = id
			} else if ph, ok := cm["placeholder"].(string); ok {
				out[ph] = id
			}
		}
	}
	walk(m.components)
	return out
}

// menuOptions lists the options of the select menu whose placeholder starts with prefix.
func menuOptions(m fakeMsg, prefix string) (customID string, labels, values []string) {
	for _, row := range m.components {
		for _, c := range row.(map[string]any)["components"].([]any) {
			cm := c.(map[string]any)
			ph, _ := cm["placeholder"].(string)
			if !strings.HasPrefix(ph, prefix) {
				continue
			}
			customID = cm["custom_id"].(string)
			for _, o := range cm["options"].([]any) {
				om := o.(map[string]any)
				labels = append(labels, om["label"].(string))
				values = append(values, om["value"].(string))
			}
			return
		}
	}
	return
}
