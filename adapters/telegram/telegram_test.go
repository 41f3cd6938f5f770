package telegram_test

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"regexp"
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
	"github.com/boardgamebot/bot/storage/bolt"
)

// tgUser is a Telegram user of the tests.
type tgUser struct {
	id    int64
	user  string // username, may be empty
	first string
}

var (
	alice = tgUser{1, "alice", "Alice"}
	bob   = tgUser{2, "bob", "Bob"}
	carol = tgUser{3, "carol", "Carol"}
	// dave has no username, and "bob" as his first name: he must not pass
	// for @bob.
	dave = tgUser{4, "", "bob"}
)

// group is a supergroup's chat id.
const group int64 = -1001234

func (u tgUser) json() map[string]any {
	m := map[string]any{"id": u.id, "is_bot": false, "first_name": u.first}
	if u.user != "" {
		m["username"] = u.user
	}
	return m
}

func (u tgUser) sessionUser() sessions.User {
	name := u.user
	if name == "" {
		name = u.first
	}
	return sessions.User{ID: strconv.FormatInt(u.id, 10), Name: name}
}

func chatJSON(id int64) map[string]any {
	if id > 0 {
		return map[string]any{"id": id, "type": "private", "first_name": "x"}
	}
	return map[string]any{"id": id, "type": "supergroup", "title": "Board <games> & co"}
}

// msgIDs counts the messages of the tests, numbered from 50001.
var msgIDs atomic.Int64

// text is a text message update.
func text(chatID int64, u tgUser, s string) map[string]any {
	return map[string]any{"message": map[string]any{
		"message_id": 50000 + int(msgIDs.Add(1)), "date": 1, "from": u.json(), "chat": chatJSON(chatID), "text": s}}
}

var cbIDs atomic.Int64

// press is a button press on message msgID.
func press(chatID int64, u tgUser, msgID int, data string) map[string]any {
	return map[string]any{"callback_query": map[string]any{
		"id": "cb" + strconv.FormatInt(cbIDs.Add(1), 10), "from": u.json(), "chat_instance": "ci",
		"message": map[string]any{"message_id": msgID, "date": 1, "chat": chatJSON(chatID)},
		"data":    data}}
}

// notifier forwards the notices of the sessions service to the bot made
// after it.
type notifier struct {
	mu sync.Mutex
	b  *telegram.Bot
}

func (n *notifier) Notify(ctx context.Context, no sessions.Notice) {
	n.mu.Lock()
	b := n.b
	n.mu.Unlock()
	if b != nil {
		b.Notify(ctx, no)
	}
}

// harness is a bot running against the fake API on a bbolt database.
type harness struct {
	t     testing.TB
	f     *fakeAPI
	svc   *sessions.Service
	bot   *telegram.Bot
	stop  func()
	logs  *syncBuffer
	start time.Time
}

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

// startBot runs a bot on the database at path (a new one in t.TempDir()
// when empty), which also keeps the choices of turn pings.
func startBot(t testing.TB, f *fakeAPI, path string, tweak func(c *telegram.Config)) *harness {
	t.Helper()
	return startBotWith(t, f, path, tweak, nil)
}

// startBotWith is startBot with setup called on the bot before it runs.
func startBotWith(t testing.TB, f *fakeAPI, path string, tweak func(c *telegram.Config), setup func(b *telegram.Bot)) *harness {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "bot.db")
	}
	store, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return runBot(t, f, store, store, store.Close, tweak, setup, nil)
}

// startMemoryBot runs a bot on sessionstest's in-memory store (which
// keeps tournaments), without stored turn-ping choices.
func startMemoryBot(t testing.TB, f *fakeAPI) *harness {
	t.Helper()
	return startMemoryBotOn(t, f, sessionstest.NewMemoryStore(), nil)
}

// startMemoryBotOn is startMemoryBot on store, its sessions on the clock
// now (nil: the real one).
func startMemoryBotOn(t testing.TB, f *fakeAPI, store sessions.Store, now func() time.Time) *harness {
	t.Helper()
	return runBot(t, f, store, nil, func() error { return nil }, nil, nil, now)
}

// runBot runs a bot on store, with prefs (may be nil) keeping the turn
// pings, its sessions on the clock now (nil: the real one); closeStore is
// called when the bot has stopped.
func runBot(t testing.TB, f *fakeAPI, store sessions.Store, prefs telegram.Prefs, closeStore func() error,
	tweak func(c *telegram.Config), setup func(b *telegram.Bot), now func() time.Time) *harness {
	t.Helper()
	return runBotChat(t, f, store, prefs, closeStore, tweak, setup, now, chat.Config{})
}

// runBotChat is runBot with a configuration of the chat handler (its
// Sessions and Log are the bot's).
func runBotChat(t testing.TB, f *fakeAPI, store sessions.Store, prefs telegram.Prefs, closeStore func() error,
	tweak func(c *telegram.Config), setup func(b *telegram.Bot), now func() time.Time, cc chat.Config) *harness {
	t.Helper()
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	n := &notifier{}
	// The bot's places are filled in once it is made (no tournament
	// resumes before: the tests start none before a restart).
	places := sessions.PlaceSet{}
	svc := sessions.New(sessions.Config{Store: store, Notifier: n, Log: log, Places: places, Now: now})
	if _, err := svc.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	cfg := telegram.Config{Token: f.token, APIEndpoint: f.srv.URL, PollTimeout: time.Second,
		RetryPause: 50 * time.Millisecond, GroupLimit: -1, ChatEvery: -1, Prefs: prefs}
	if tweak != nil {
		tweak(&cfg)
	}
	cc.Sessions, cc.Log = svc, log
	bot, err := telegram.New(cfg, chat.New(cc), svc, render.New(), log)
	if err != nil {
		t.Fatal(err)
	}
	places[telegram.Platform] = bot.Places()
	if setup != nil {
		setup(bot)
	}
	n.mu.Lock()
	n.b = bot
	n.mu.Unlock()
	mark := f.mark()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- bot.Run(ctx) }()
	h := &harness{t: t, f: f, svc: svc, bot: bot, logs: logs, start: time.Now()}
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Errorf("Run did not return 10s after its context was cancelled")
			}
			if err := closeStore(); err != nil {
				t.Errorf("closing the store: %v", err)
			}
			if t.Failed() {
				t.Logf("bot log:\n%s", logs.String())
			}
		})
	}
	t.Cleanup(h.stop)
	f.waitCall(mark, method("setMyCommands"))
	return h
}

func (h *harness) look(chatID int64) *sessions.Snapshot {
	h.t.Helper()
	s, err := h.svc.Look(context.Background(), sessions.Key{Platform: telegram.Platform, Channel: strconv.FormatInt(chatID, 10)})
	if err != nil {
		return nil
	}
	return s
}

// say sends a text and waits for the bot's next send into the chat.
func (h *harness) say(chatID int64, u tgUser, s string, methods ...string) (*call, int) {
	h.t.Helper()
	if len(methods) == 0 {
		methods = []string{"sendMessage", "sendPhoto"}
	}
	m := h.f.mark()
	id := h.f.push(text(chatID, u, s))[0]
	c, _ := h.f.waitCall(m, sent(chatID, methods...))
	_ = id
	return c, m
}

// tap presses a button and waits for the bot's answer to the press.
func (h *harness) tap(chatID int64, u tgUser, msgID int, data string) (answer *call, from int) {
	h.t.Helper()
	m := h.f.mark()
	up := press(chatID, u, msgID, data)
	id := up["callback_query"].(map[string]any)["id"].(string)
	h.f.push(up)
	c, _ := h.f.waitCall(m, func(c *call) bool {
		return c.Method == "answerCallbackQuery" && c.Params["callback_query_id"] == id
	})
	return c, m
}

// challenge has alice challenge bob to game (with alice White) and bob
// accept by button; it returns the photo of the start.
func (h *harness) challenge(chatID int64, game string) *call {
	h.t.Helper()
	c, _ := h.say(chatID, alice, "/play "+game+" @bob color=white")
	kb := keyboard(h.t, c)
	m := h.f.mark()
	if a, _ := h.tap(chatID, bob, c.MsgID, find(h.t, kb, "Accept")); a.Params["show_alert"] == "true" {
		h.t.Fatalf("accepting: %s", a.Params["text"])
	}
	photo, _ := h.f.waitCall(m, sent(chatID, "sendPhoto"))
	return photo
}

var users = map[string]tgUser{"alice": alice, "bob": bob, "carol": carol}

// pick chooses a move: a capture when there is one, else at random.
func pick(rng *rand.Rand, s *sessions.Snapshot) string {
	moves := s.State.Moves()
	var caps []string
	for _, m := range moves {
		if len(m.Captured) > 0 {
			caps = append(caps, m.Text)
		}
	}
	if len(caps) > 0 {
		return caps[rng.IntN(len(caps))]
	}
	return moves[rng.IntN(len(moves))].Text
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// checkCaption checks that a board's caption mentions the player to move.
func checkCaption(t testing.TB, c *call, s *sessions.Snapshot) {
	t.Helper()
	if c.Image == nil && c.Params["photo"] == "" {
		t.Errorf("photo %d has no picture", c.MsgID)
	}
	if s == nil || s.Turn() < 0 {
		return
	}
	u := s.Player(s.Turn())
	w, err := chat.NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	want := `<a href="tg://user?id=` + u.ID + `">` + u.Name + `</a> (` + w.In("en").SeatLabel(s, s.Turn()) + `) to move`
	if !strings.Contains(c.Params["caption"], want) {
		t.Errorf("caption %q does not mention the player to move (%s)", c.Params["caption"], want)
	}
	if n := strings.Count(c.Params["caption"], ") to move"); n != 1 {
		t.Errorf("caption %q says %d times who is to move", c.Params["caption"], n)
	}
	if c.Params["parse_mode"] != "HTML" {
		t.Errorf("caption sent with parse_mode %q", c.Params["parse_mode"])
	}
}

// TestGameByText plays whole draughts games with /move and /m in a group,
// checking each board photo (a decodable PNG, the player to move
// mentioned) and timing each move from the update's delivery to the photo
// request.
func TestGameByText(t *testing.T) {
	f := newFake(t)
	h := startBot(t, f, "", nil)
	rng := rand.New(rand.NewPCG(1, 2))
	var lat []time.Duration
	var last *call
	for gi, game := range []string{"spanish", "dame"} {
		photo := h.challenge(group, game)
		s := h.look(group)
		checkCaption(t, photo, s)
		if photo.Image == nil || photo.Image.Bounds().Dx() < 100 {
			t.Fatalf("%s: the first board is not a picture", game)
		}
		// An illegal move is refused in a reply to its message.
		bad := text(group, alice, "/move a1-h8")
		m := f.mark()
		f.push(bad)
		c, _ := f.waitCall(m, sent(group, "sendMessage"))
		if c.Params["reply_to_message_id"] != strconv.Itoa(bad["message"].(map[string]any)["message_id"].(int)) || !strings.Contains(c.Params["text"], "Legal moves") {
			t.Errorf("an illegal move answered %v", c.Params)
		}
		plies := 0
		var end *call
		for ; s != nil && plies < 400; plies++ {
			who := users[s.Player(s.Turn()).Name]
			cmd := "/move "
			if plies%2 == 1 {
				cmd = "/m@BoardBot "
			}
			m := f.mark()
			id := f.push(text(group, who, cmd+pick(rng, s)))[0]
			c, _ := f.waitCall(m, sent(group, "sendPhoto", "sendMessage"))
			if c.Method != "sendPhoto" {
				t.Fatalf("%s ply %d: answered %q instead of a board", game, plies, c.Params["text"])
			}
			lat = append(lat, c.At.Sub(f.deliveredAt(id)))
			next := h.look(group)
			checkCaption(t, c, next)
			end = c
			if next == nil {
				if !strings.Contains(c.Params["caption"], "Game over") {
					t.Errorf("%s: the last board's caption %q does not say the game is over", game, c.Params["caption"])
				}
				if kb := keyboard(t, c); len(kb) != 1 || len(kb[0]) != 1 || kb[0][0].Text != "Rematch" {
					t.Errorf("%s: the final board's buttons: %s", game, c.Params["reply_markup"])
				}
			} else if len(next.Record.Actions) != plies+1 {
				t.Fatalf("%s ply %d: %d actions recorded", game, plies, len(next.Record.Actions))
			}
			s = next
		}
		if s != nil {
			t.Logf("%s: no end after %d plies; drawing by agreement", game, plies)
			h.say(group, alice, "/draw")
			c, _ := h.say(group, bob, "/draw")
			end = c
			if !strings.Contains(c.Params["caption"], "Game over") {
				t.Errorf("%s: agreed draw answered %q", game, c.Params["caption"])
			}
		}
		t.Logf("game %d (%s): %d plies", gi, game, plies)
		if gi == 0 {
			checkReplayExport(t, h, end.Params["caption"], plies)
		}
		last = end
	}
	// Rematch from the last board: the same game, colours swapped.
	if kb := keyboard(t, last); len(kb) > 0 {
		a, m := h.tap(group, bob, last.MsgID, find(t, kb, "Rematch"))
		if isAlert(a) {
			t.Fatalf("Rematch refused: %s", a.Params["text"])
		}
		c, _ := f.waitCall(m, sent(group, "sendMessage"))
		m = f.mark()
		if a, _ := h.tap(group, alice, c.MsgID, find(t, keyboard(t, c), "Accept")); isAlert(a) {
			t.Fatalf("accepting the rematch: %s", a.Params["text"])
		}
		f.waitCall(m, sent(group, "sendPhoto"))
		if s := h.look(group); s == nil || s.Game.ID() != "dame" || s.Player(0).Name != "bob" {
			t.Errorf("the rematch: %+v", s)
		}
	}
	t.Logf("update delivered -> sendPhoto request: median %v over %d moves (min %v, max %v)",
		median(lat), len(lat), slices.Min(lat), slices.Max(lat))
}

var gameID = regexp.MustCompile(`game #(\w+)`)

// checkReplayExport asks for the replay and the export of the game whose
// last board has the given caption.
func checkReplayExport(t *testing.T, h *harness, caption string, plies int) {
	t.Helper()
	id := gameID.FindStringSubmatch(caption)
	if id == nil {
		t.Errorf("the last caption %q names no game id", caption)
		return
	}
	c, _ := h.say(group, carol, "/replay "+id[1], "sendAnimation", "sendMessage")
	if c.Method != "sendAnimation" || c.Frames < plies {
		t.Errorf("/replay answered %s with %d frames (%d plies): %v", c.Method, c.Frames, plies, c.Params)
	}
	again, _ := h.say(group, carol, "/replay "+id[1], "sendAnimation", "sendMessage")
	if again.Params["animation"] != "anim-"+strconv.Itoa(c.MsgID) {
		t.Errorf("the same replay was not sent by its file_id: %v", again.Params)
	}
	c, _ = h.say(group, carol, "/export "+id[1], "sendDocument", "sendMessage")
	if c.Method != "sendDocument" || len(c.Files["document"]) == 0 {
		t.Errorf("/export answered %s %v", c.Method, c.Params)
	}
}
