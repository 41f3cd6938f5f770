package telegram_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/gif"
	"image/png"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/internal/tokenbucket"
)

// fakeAPI is a Bot API server for the tests: it answers getMe, long-polls
// getUpdates honouring offset and timeout, and records every call
// (sendMessage, sendPhoto with its decoded PNG, answerCallbackQuery, ...).
type fakeAPI struct {
	t     testing.TB
	srv   *httptest.Server
	token string

	mu        sync.Mutex
	changed   chan struct{} // closed and replaced at every change
	updates   []pending
	nextID    int
	nextMsg   int
	calls     []*call
	fail      map[string][]int // method -> retry_after of the 429s to answer
	broken    map[string][]int // method -> the failures to answer: an HTTP status, or 0 to drop the connection
	delivered map[int]time.Time
	polls     []poll
	fileIDs   map[string]bool
	blocked   map[string]bool // chat ids whose sends get 403 (the user blocked the bot)
	// forums are the chat ids of forum supergroups; topics their topics
	// (created by createForumTopic), members the chat members whose
	// status is not plain "member" (getChatMember).
	forums    map[int64]bool
	topics    map[int64][]topic
	nextTopic int
	members   map[[2]int64]map[string]any
	// markup is the keyboard of each message sent ("chat/id" -> its
	// reply_markup, normalised), for refusing the edits that change nothing.
	markup map[string]string
	// now is the time of the calls (call.Clock): time.Now, or a test's
	// clock (useClock, enforce).
	now func() time.Time
	// limits, when set, are Telegram's limits, which the fake enforces
	// with 429 answers (enforce).
	limits *fakeLimits
	// closed are the topics closed by closeForumTopic: a send there is
	// refused (TOPIC_CLOSED), as Telegram refuses it, and fails the test.
	closed map[closedTopic]bool
}

// topic is a forum topic the bot created.
type topic struct {
	id   int
	name string
}

// closedTopic names a closed topic: its chat and its id.
type closedTopic struct {
	chat int64
	id   int
}

// botID is the fake bot's user id (getMe).
const botID = 999

type pending struct {
	id  int
	raw json.RawMessage
}

type poll struct {
	offset, timeout int
}

// call is one recorded call.
type call struct {
	Method string
	Params map[string]string
	// Files holds the uploaded files by field name.
	Files map[string][]byte
	// Image is the decoded upload of a sendPhoto; Frames the number of
	// frames of a sendAnimation's GIF.
	Image  image.Image
	Frames int
	At     time.Time
	// Status is the HTTP status of the answer; MsgID the id of a message
	// sent; Refusal the description of a refusal.
	Status  int
	MsgID   int
	Refusal string
	// Clock is the time of the call on the fake's clock (useClock), else
	// At.
	Clock time.Time
}

// newFake starts a fake Bot API. When the test ends, it fails the test
// for every call Telegram would have refused as a mistake of the bot (an
// edit that changes nothing).
func newFake(t testing.TB) *fakeAPI {
	f := &fakeAPI{t: t, token: "123456:TEST-token", changed: make(chan struct{}), nextID: 1000, nextMsg: 1,
		fail: map[string][]int{}, broken: map[string][]int{}, delivered: map[int]time.Time{}, fileIDs: map[string]bool{}, blocked: map[string]bool{},
		forums: map[int64]bool{}, topics: map[int64][]topic{}, nextTopic: 7000, members: map[[2]int64]map[string]any{},
		markup: map[string]string{}, now: time.Now, closed: map[closedTopic]bool{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(func() {
		f.srv.Close()
		f.mu.Lock()
		defer f.mu.Unlock()
		for i, c := range f.calls {
			if c.Status == http.StatusBadRequest && strings.Contains(c.Refusal, "not modified") {
				t.Errorf("fake API: call %d, %s %v, refused: %s", i, c.Method, c.Params, c.Refusal)
			}
		}
	})
	return f
}

// broadcast wakes the waiters; f.mu is held.
func (f *fakeAPI) broadcast() {
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *fakeAPI) reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	method, ok := strings.CutPrefix(r.URL.Path, "/bot"+f.token+"/")
	if !ok {
		f.reply(w, http.StatusUnauthorized, map[string]any{"ok": false, "error_code": 401, "description": "Unauthorized"})
		return
	}
	c := &call{Method: method, Params: map[string]string{}, Files: map[string][]byte{}, At: at, Status: http.StatusOK}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "multipart/form-data" {
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			f.t.Errorf("fake API: %s: bad multipart body: %v", method, err)
		}
		if r.MultipartForm != nil {
			for k, v := range r.MultipartForm.Value {
				c.Params[k] = v[0]
			}
			for k, fhs := range r.MultipartForm.File {
				fh, _ := fhs[0].Open()
				b, _ := io.ReadAll(fh)
				fh.Close()
				c.Files[k] = b
			}
		}
	} else {
		_ = r.ParseForm()
		for k, v := range r.PostForm {
			c.Params[k] = v[0]
		}
	}
	f.mu.Lock()
	c.Clock = f.now()
	if q := f.broken[method]; len(q) > 0 {
		f.broken[method] = q[1:]
		c.Status = q[0]
		f.calls = append(f.calls, c)
		f.broadcast()
		f.mu.Unlock()
		if q[0] == 0 {
			// The network is down: the connection drops without an answer.
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				f.t.Errorf("fake API: hijacking the connection: %v", err)
				return
			}
			conn.Close()
			return
		}
		f.reply(w, q[0], map[string]any{"ok": false, "error_code": q[0], "description": http.StatusText(q[0])})
		return
	}
	f.mu.Unlock()
	if method == "getUpdates" {
		f.getUpdates(w, r, c)
		return
	}
	f.mu.Lock()
	if q := f.fail[method]; len(q) > 0 {
		f.fail[method] = q[1:]
		c.Status = http.StatusTooManyRequests
		f.calls = append(f.calls, c)
		f.broadcast()
		f.mu.Unlock()
		f.reply(w, http.StatusTooManyRequests, map[string]any{"ok": false, "error_code": 429,
			"description": fmt.Sprintf("Too Many Requests: retry after %d", q[0]), "parameters": map[string]any{"retry_after": q[0]}})
		return
	}
	if wait := f.limits.admit(method, c); wait > 0 {
		c.Status = http.StatusTooManyRequests
		f.calls = append(f.calls, c)
		f.broadcast()
		f.mu.Unlock()
		f.reply(w, http.StatusTooManyRequests, map[string]any{"ok": false, "error_code": 429,
			"description": fmt.Sprintf("Too Many Requests: retry after %d", wait), "parameters": map[string]any{"retry_after": wait}})
		return
	}
	if strings.HasPrefix(method, "send") && f.blocked[c.Params["chat_id"]] {
		c.Status = http.StatusForbidden
		f.calls = append(f.calls, c)
		f.broadcast()
		f.mu.Unlock()
		f.reply(w, http.StatusForbidden, map[string]any{"ok": false, "error_code": 403, "description": "Forbidden: bot was blocked by the user"})
		return
	}
	refusal := f.checkMarkup(c)
	if method == "setChatMenuButton" && refusal == "" {
		refusal = f.checkMenuButton(c)
	}
	if thread := c.Params["message_thread_id"]; strings.HasPrefix(method, "send") && thread != "" && refusal == "" {
		chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
		id, _ := strconv.Atoi(thread)
		if f.forums[chatID] && !slices.ContainsFunc(f.topics[chatID], func(t topic) bool { return t.id == id }) {
			refusal = "Bad Request: message thread not found"
		}
		if f.closed[closedTopic{chatID, id}] {
			refusal = "Bad Request: TOPIC_CLOSED"
			f.t.Errorf("fake API: %s into the closed topic %d of chat %d: %v", method, id, chatID, c.Params)
		}
	}
	f.mu.Unlock()
	var result any = true
	switch method {
	case "getMe":
		result = map[string]any{"id": botID, "is_bot": true, "first_name": "Board", "username": "BoardBot"}
	case "getChat":
		chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
		m := map[string]any{"id": chatID, "type": chatType(chatID)}
		f.mu.Lock()
		if f.forums[chatID] {
			m["is_forum"] = true
		}
		f.mu.Unlock()
		result = m
	case "getChatMember":
		chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
		userID, _ := strconv.ParseInt(c.Params["user_id"], 10, 64)
		result = f.member(chatID, userID)
	case "createForumTopic":
		chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
		bot := f.member(chatID, botID)
		f.mu.Lock()
		switch {
		case !f.forums[chatID]:
			refusal = "Bad Request: the chat is not a forum"
		case bot["status"] != "creator" && (bot["status"] != "administrator" || bot["can_manage_topics"] != true):
			refusal = "Bad Request: not enough rights to create a topic"
		default:
			f.nextTopic++
			t := topic{id: f.nextTopic, name: c.Params["name"]}
			f.topics[chatID] = append(f.topics[chatID], t)
			result = map[string]any{"message_thread_id": t.id, "name": t.name, "icon_color": 7322096}
		}
		f.mu.Unlock()
	case "closeForumTopic":
		chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
		id, _ := strconv.Atoi(c.Params["message_thread_id"])
		f.mu.Lock()
		// The bot created every topic of the fake: it may close it
		// without the right to manage topics.
		if slices.ContainsFunc(f.topics[chatID], func(t topic) bool { return t.id == id }) {
			f.closed[closedTopic{chatID, id}] = true
		} else {
			refusal = "Bad Request: message thread not found"
		}
		f.mu.Unlock()
	case "sendMessage", "sendPhoto", "sendAnimation", "sendDocument":
		if refusal != "" {
			break
		}
		chatID, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
		f.mu.Lock()
		c.MsgID = f.nextMsg
		f.nextMsg++
		f.markup[c.Params["chat_id"]+"/"+strconv.Itoa(c.MsgID)] = markupOf(c.Params["reply_markup"])
		f.mu.Unlock()
		m := map[string]any{"message_id": c.MsgID, "date": at.Unix(), "chat": map[string]any{"id": chatID, "type": chatType(chatID)}}
		if thread, err := strconv.Atoi(c.Params["message_thread_id"]); err == nil {
			m["message_thread_id"], m["is_topic_message"] = thread, true
		}
		switch method {
		case "sendMessage":
			m["text"] = c.Params["text"]
		case "sendPhoto":
			fileID := c.Params["photo"]
			if b, ok := c.Files["photo"]; ok {
				img, err := png.Decode(bytes.NewReader(b))
				if err != nil {
					f.t.Errorf("fake API: sendPhoto: the upload is not a PNG: %v", err)
				}
				c.Image = img
				fileID = fmt.Sprintf("photo-%d", c.MsgID)
				f.mu.Lock()
				f.fileIDs[fileID] = true
				f.mu.Unlock()
			} else {
				f.mu.Lock()
				known := f.fileIDs[fileID]
				f.mu.Unlock()
				if !known {
					f.t.Errorf("fake API: sendPhoto by an unknown file_id %q", fileID)
				}
			}
			m["photo"] = []map[string]any{
				{"file_id": fileID + "-small", "file_unique_id": "s", "width": 90, "height": 90},
				{"file_id": fileID, "file_unique_id": "b", "width": 800, "height": 800}}
			m["caption"] = c.Params["caption"]
		case "sendAnimation":
			if b, ok := c.Files["animation"]; ok {
				g, err := gif.DecodeAll(bytes.NewReader(b))
				if err != nil {
					f.t.Errorf("fake API: sendAnimation: the upload is not a GIF: %v", err)
				} else {
					c.Frames = len(g.Image)
				}
			}
			m["animation"] = map[string]any{"file_id": fmt.Sprintf("anim-%d", c.MsgID)}
		case "sendDocument":
			m["document"] = map[string]any{"file_id": fmt.Sprintf("doc-%d", c.MsgID)}
		}
		result = m
	case "editMessageReplyMarkup":
		f.mu.Lock()
		ref := c.Params["chat_id"] + "/" + c.Params["message_id"]
		if old, known := f.markup[ref]; known && old == markupOf(c.Params["reply_markup"]) {
			refusal = "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"
		} else {
			f.markup[ref] = markupOf(c.Params["reply_markup"])
		}
		f.mu.Unlock()
	case "answerCallbackQuery", "setMyCommands", "deleteWebhook", "setWebhook",
		"editMessageText", "editMessageCaption", "editMessageMedia", "setChatMenuButton":
	default:
		c.Status = http.StatusNotFound
	}
	if refusal != "" {
		c.Status, c.Refusal = http.StatusBadRequest, refusal
	}
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.broadcast()
	f.mu.Unlock()
	if refusal != "" {
		f.reply(w, http.StatusBadRequest, map[string]any{"ok": false, "error_code": 400, "description": refusal})
		return
	}
	if c.Status == http.StatusNotFound {
		f.reply(w, http.StatusNotFound, map[string]any{"ok": false, "error_code": 404, "description": "Not Found"})
		return
	}
	f.reply(w, http.StatusOK, map[string]any{"ok": true, "result": result})
}

// buttonFields are the fields of the Bot API's InlineKeyboardButton; a
// button has its text and exactly one of the others.
var buttonFields = []string{"url", "callback_data", "web_app", "login_url", "switch_inline_query",
	"switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text", "callback_game", "pay"}

// checkMarkup checks a call's reply_markup as the Bot API takes it: an
// inline keyboard whose buttons have a text and exactly one action; a url
// is http(s) or tg:// and not a local address (Telegram refuses those);
// a web_app button has an https URL and is refused outside private chats.
// It returns Telegram's refusal ("" for none); a field the API does not
// take fails the test.
func (f *fakeAPI) checkMarkup(c *call) string {
	raw := c.Params["reply_markup"]
	if raw == "" {
		return ""
	}
	var kb map[string][][]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &kb); err != nil {
		f.t.Errorf("fake API: %s: reply_markup %q is not an inline keyboard: %v", c.Method, raw, err)
		return "Bad Request: can't parse reply keyboard markup JSON object"
	}
	for k := range kb {
		if k != "inline_keyboard" {
			f.t.Errorf("fake API: %s: reply_markup has %q, which an inline keyboard does not take", c.Method, k)
		}
	}
	for _, row := range kb["inline_keyboard"] {
		for _, b := range row {
			actions := 0
			for k := range b {
				switch {
				case k == "text":
				case slices.Contains(buttonFields, k):
					actions++
				default:
					f.t.Errorf("fake API: %s: a button has %q, which the Bot API does not take", c.Method, k)
				}
			}
			if actions != 1 {
				return "Bad Request: inline keyboard button must have exactly one optional field"
			}
			var text string
			if json.Unmarshal(b["text"], &text) != nil || text == "" {
				return "Bad Request: text buttons are unallowed in the inline keyboard"
			}
			if u, ok := b["url"]; ok {
				var link string
				_ = json.Unmarshal(u, &link)
				if !telegramURL(link, false) {
					return "Bad Request: BUTTON_URL_INVALID"
				}
			}
			if wa, ok := b["web_app"]; ok {
				if refusal := f.checkWebApp(c.Method, wa); refusal != "" {
					return refusal
				}
				if chatType(parseID(c.Params["chat_id"])) != "private" {
					return "Bad Request: BUTTON_TYPE_INVALID"
				}
			}
		}
	}
	return ""
}

// checkWebApp checks a WebAppInfo: {"url": an https URL}.
func (f *fakeAPI) checkWebApp(method string, raw json.RawMessage) string {
	var wa map[string]json.RawMessage
	if err := json.Unmarshal(raw, &wa); err != nil {
		f.t.Errorf("fake API: %s: web_app %s is not an object", method, raw)
		return "Bad Request: can't parse WebAppInfo"
	}
	for k := range wa {
		if k != "url" {
			f.t.Errorf("fake API: %s: web_app has %q, which WebAppInfo does not take", method, k)
		}
	}
	var link string
	_ = json.Unmarshal(wa["url"], &link)
	if !telegramURL(link, true) {
		return "Bad Request: BUTTON_URL_INVALID"
	}
	return ""
}

// checkMenuButton checks setChatMenuButton's parameters: chat_id (a
// private chat's) and menu_button, a MenuButton object.
func (f *fakeAPI) checkMenuButton(c *call) string {
	for k := range c.Params {
		if k != "chat_id" && k != "menu_button" {
			f.t.Errorf("fake API: setChatMenuButton has %q, which it does not take", k)
		}
	}
	if id := c.Params["chat_id"]; id != "" && chatType(parseID(id)) != "private" {
		return "Bad Request: chat not found"
	}
	var mb map[string]json.RawMessage
	if err := json.Unmarshal([]byte(c.Params["menu_button"]), &mb); err != nil {
		return "Bad Request: can't parse menu button"
	}
	var typ, text string
	_ = json.Unmarshal(mb["type"], &typ)
	_ = json.Unmarshal(mb["text"], &text)
	switch typ {
	case "commands", "default":
		if len(mb) != 1 {
			f.t.Errorf("fake API: a %s menu button has other fields: %v", typ, c.Params["menu_button"])
		}
	case "web_app":
		for k := range mb {
			if k != "type" && k != "text" && k != "web_app" {
				f.t.Errorf("fake API: a web_app menu button has %q, which MenuButtonWebApp does not take", k)
			}
		}
		if text == "" {
			return "Bad Request: menu button text is empty"
		}
		return f.checkWebApp("setChatMenuButton", mb["web_app"])
	default:
		return "Bad Request: unsupported menu button type"
	}
	return ""
}

// telegramURL reports whether Telegram takes link in a button: http(s)
// (https only when httpsOnly) or tg://, not a local address.
func telegramURL(link string, httpsOnly bool) bool {
	u, err := url.Parse(link)
	if err != nil {
		return false
	}
	switch {
	case u.Scheme == "tg" && !httpsOnly:
		return true
	case u.Scheme == "https", u.Scheme == "http" && !httpsOnly:
	default:
		return false
	}
	h := u.Hostname()
	return h != "" && h != "localhost" && net.ParseIP(h) == nil
}

func parseID(s string) int64 {
	id, _ := strconv.ParseInt(s, 10, 64)
	return id
}

// member is the ChatMember object of a user: as set by setMember, or a
// plain member.
func (f *fakeAPI) member(chatID, userID int64) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := map[string]any{"status": "member"}
	for k, v := range f.members[[2]int64{chatID, userID}] {
		m[k] = v
	}
	m["user"] = map[string]any{"id": userID, "is_bot": userID == botID, "first_name": "x"}
	return m
}

// setForum makes a chat a forum supergroup (getChat's is_forum), or not.
func (f *fakeAPI) setForum(chatID int64, forum bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forums[chatID] = forum
}

// setMember sets a user's status in a chat ("creator", "administrator",
// "member", ...) and the rights named (can_manage_topics, ...), each true.
func (f *fakeAPI) setMember(chatID, userID int64, status string, rights ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := map[string]any{"status": status}
	for _, r := range rights {
		m[r] = true
	}
	f.members[[2]int64{chatID, userID}] = m
}

// isClosed reports whether a chat's topic was closed.
func (f *fakeAPI) isClosed(chatID int64, id int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed[closedTopic{chatID, id}]
}

// topicsOf returns the topics created in a chat, in order.
func (f *fakeAPI) topicsOf(chatID int64) []topic {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.topics[chatID])
}

func chatType(id int64) string {
	if id > 0 {
		return "private"
	}
	return "supergroup"
}

// getUpdates answers the updates from offset on, waiting up to timeout
// seconds for one; updates before offset are confirmed and forgotten.
func (f *fakeAPI) getUpdates(w http.ResponseWriter, r *http.Request, c *call) {
	offset, _ := strconv.Atoi(c.Params["offset"])
	timeout, _ := strconv.Atoi(c.Params["timeout"])
	deadline := time.NewTimer(time.Duration(timeout) * time.Second)
	defer deadline.Stop()
	for {
		f.mu.Lock()
		if len(f.polls) == 0 || f.polls[len(f.polls)-1] != (poll{offset, timeout}) {
			f.polls = append(f.polls, poll{offset, timeout})
		}
		if offset > 0 {
			keep := f.updates[:0]
			for _, u := range f.updates {
				if u.id >= offset {
					keep = append(keep, u)
				}
			}
			f.updates = keep
		}
		if len(f.updates) > 0 {
			out := make([]json.RawMessage, len(f.updates))
			now := time.Now()
			for i, u := range f.updates {
				out[i] = u.raw
				if _, ok := f.delivered[u.id]; !ok {
					f.delivered[u.id] = now
				}
			}
			f.mu.Unlock()
			f.reply(w, http.StatusOK, map[string]any{"ok": true, "result": out})
			return
		}
		ch := f.changed
		f.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			f.reply(w, http.StatusOK, map[string]any{"ok": true, "result": []any{}})
			return
		case <-r.Context().Done():
			return
		}
	}
}

// push queues updates (all at once, so that they arrive in one batch);
// each gets the next update id unless it has one. It returns the ids.
func (f *fakeAPI) push(ups ...map[string]any) []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []int
	for _, u := range ups {
		id, ok := u["update_id"].(int)
		if !ok {
			id = f.nextID
			u["update_id"] = id
		}
		f.nextID = max(f.nextID, id+1)
		raw, err := json.Marshal(u)
		if err != nil {
			f.t.Fatal(err)
		}
		f.updates = append(f.updates, pending{id, raw})
		ids = append(ids, id)
	}
	f.broadcast()
	return ids
}

// pushRaw queues an update as raw JSON with the next id.
func (f *fakeAPI) pushRaw(format string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.nextID
	f.nextID++
	f.updates = append(f.updates, pending{id, json.RawMessage(fmt.Sprintf(format, id))})
	f.broadcast()
	return id
}

// failNext makes the next call of method answer 429 with retry_after.
func (f *fakeAPI) failNext(method string, retryAfter int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[method] = append(f.fail[method], retryAfter)
}

// breakNext makes the next calls of method fail, one per status: an
// HTTP status with the Bot API's error body, or 0 to drop the connection.
func (f *fakeAPI) breakNext(method string, statuses ...int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.broken[method] = append(f.broken[method], statuses...)
}

// confirmed returns the highest offset a getUpdates asked for: the
// updates below it are confirmed.
func (f *fakeAPI) confirmed() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	top := 0
	for _, p := range f.polls {
		top = max(top, p.offset)
	}
	return top
}

// mark returns the number of calls so far, to wait for calls after it.
func (f *fakeAPI) mark() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

// waitCall waits for a call from index from on that matches; it fails the
// test after a few seconds.
func (f *fakeAPI) waitCall(from int, match func(c *call) bool) (*call, int) {
	f.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		f.mu.Lock()
		for i := from; i < len(f.calls); i++ {
			if match(f.calls[i]) {
				c := f.calls[i]
				f.mu.Unlock()
				return c, i + 1
			}
		}
		ch := f.changed
		f.mu.Unlock()
		select {
		case <-ch:
		case <-timeout:
			f.t.Fatalf("fake API: no matching call after 10s; calls since %d:\n%s", from, f.dump(from))
		}
	}
}

// callsSince returns the calls from index from on, after waiting for a
// quiet moment.
func (f *fakeAPI) callsSince(from int, quiet time.Duration) []*call {
	time.Sleep(quiet)
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*call(nil), f.calls[from:]...)
}

func (f *fakeAPI) dump(from int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for i := from; i < len(f.calls); i++ {
		c := f.calls[i]
		fmt.Fprintf(&b, "  %d %s %d %v\n", i, c.Method, c.Status, c.Params)
	}
	return b.String()
}

// deliveredAt returns when an update was first handed out by getUpdates.
func (f *fakeAPI) deliveredAt(id int) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.delivered[id]
}

func method(name string) func(c *call) bool {
	return func(c *call) bool { return c.Method == name && c.Status == http.StatusOK }
}

// sent matches a successful send of one of the methods into chat.
func sent(chatID int64, methods ...string) func(c *call) bool {
	return func(c *call) bool {
		if c.Status != http.StatusOK || c.Params["chat_id"] != strconv.FormatInt(chatID, 10) {
			return false
		}
		for _, m := range methods {
			if c.Method == m {
				return true
			}
		}
		return false
	}
}

// kbButton is a button of an inline keyboard as the bot sent it.
type kbButton struct {
	Text         string  `json:"text"`
	CallbackData *string `json:"callback_data"`
	URL          *string `json:"url"`
	WebApp       *struct {
		URL string `json:"url"`
	} `json:"web_app"`
}

// keyboard decodes the reply_markup of a call.
func keyboard(t testing.TB, c *call) [][]kbButton {
	t.Helper()
	s := c.Params["reply_markup"]
	if s == "" {
		return nil
	}
	var kb struct {
		InlineKeyboard [][]kbButton `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(s), &kb); err != nil {
		t.Fatalf("reply_markup %q: %v", s, err)
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if b.CallbackData != nil && len(*b.CallbackData) > 64 {
				t.Errorf("callback data %q is longer than 64 bytes", *b.CallbackData)
			}
		}
	}
	return kb.InlineKeyboard
}

// find returns the callback data of the button labelled label.
func find(t testing.TB, kb [][]kbButton, label string) string {
	t.Helper()
	for _, row := range kb {
		for _, b := range row {
			if b.Text == label && b.CallbackData != nil {
				return *b.CallbackData
			}
		}
	}
	t.Fatalf("no button %q in %v", label, kb)
	return ""
}

// markupOf is a reply_markup as Telegram keeps it: no keyboard and an
// empty one are the same.
func markupOf(s string) string {
	var kb struct {
		InlineKeyboard [][]json.RawMessage `json:"inline_keyboard"`
	}
	if s == "" || json.Unmarshal([]byte(s), &kb) != nil || len(kb.InlineKeyboard) == 0 {
		return ""
	}
	out, _ := json.Marshal(kb)
	return string(out)
}

// fakeLimits are Telegram's published limits on sending, which the fake
// enforces when set (enforce): at most 20 messages a minute into one
// group, about 30 a second in all, and into one private chat about one a
// second after a short burst (3). A message over a limit is answered 429
// with the retry_after that would let it through, and not counted.
type fakeLimits struct {
	all    []time.Time
	groups map[string][]time.Time
	chats  map[string]*tokenbucket.Bucket
}

// fakeChatRate is the bucket of a private chat: a burst of fakeChatBurst,
// then one a second.
var fakeChatRate = tokenbucket.Rate{Size: fakeChatBurst, Gain: 1, Per: time.Second}

const (
	fakeGroupLimit  = 20
	fakeGlobalLimit = 30
	fakeChatBurst   = 3
)

// useClock times the calls (call.Clock) by now, a test's clock.
func (f *fakeAPI) useClock(now func() time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = now
}

// enforce makes the fake answer 429 at Telegram's limits, on the time of
// now (a test's clock), which also times the calls.
func (f *fakeAPI) enforce(now func() time.Time) {
	f.useClock(now)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.limits = &fakeLimits{groups: map[string][]time.Time{}, chats: map[string]*tokenbucket.Bucket{}}
}

// admit counts a send that the limits let through, and returns 0; or
// the seconds to wait (retry_after) for one they refuse. f.mu is held.
func (l *fakeLimits) admit(method string, c *call) int {
	if l == nil {
		return 0
	}
	now := c.Clock
	switch method {
	case "sendMessage", "sendPhoto", "sendAnimation", "sendDocument":
	default:
		return 0
	}
	within := func(ts []time.Time, per time.Duration) []time.Time {
		i := 0
		for i < len(ts) && !ts[i].Add(per).After(now) {
			i++
		}
		return ts[i:]
	}
	var wait time.Duration
	l.all = within(l.all, time.Second)
	if len(l.all) >= fakeGlobalLimit {
		wait = l.all[len(l.all)-fakeGlobalLimit].Add(time.Second).Sub(now)
	}
	id := c.Params["chat_id"]
	private := !strings.HasPrefix(id, "-")
	var b *tokenbucket.Bucket
	if private {
		if b = l.chats[id]; b == nil {
			b = &tokenbucket.Bucket{}
			l.chats[id] = b
		}
		wait = max(wait, b.Wait(fakeChatRate, now, 1))
	} else {
		l.groups[id] = within(l.groups[id], time.Minute)
		if g := l.groups[id]; len(g) >= fakeGroupLimit {
			wait = max(wait, g[len(g)-fakeGroupLimit].Add(time.Minute).Sub(now))
		}
	}
	if wait > 0 {
		return int((wait + time.Second - 1) / time.Second)
	}
	l.all = append(l.all, now)
	if private {
		b.Take(fakeChatRate, now, 1)
	} else {
		l.groups[id] = append(l.groups[id], now)
	}
	return 0
}
