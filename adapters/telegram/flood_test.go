package telegram_test

import (
	"context"
	"html"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/adapters/telegram/telegramtest"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// epoch is where the tests' clocks start.
var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// limitedBot runs a bot whose sends keep Telegram's limits (20 a minute
// into a group, about one a second into a chat after a burst of 3, 30 a
// second in all) on a clock the test moves, against a fake that answers
// 429 at those limits on the same clock.
func limitedBot(t testing.TB, tweak func(c *telegram.Config)) (*harness, *fakeAPI, *telegramtest.Clock) {
	t.Helper()
	return limitedBotChat(t, tweak, func(*telegramtest.Clock) chat.Config { return chat.Config{} })
}

// limitedBotChat is limitedBot with the chat handler's configuration
// that cc makes on the test's clock (the users' rate limit).
func limitedBotChat(t testing.TB, tweak func(c *telegram.Config), cc func(clock *telegramtest.Clock) chat.Config) (*harness, *fakeAPI, *telegramtest.Clock) {
	t.Helper()
	f := newFake(t)
	clock := telegramtest.NewClock(epoch)
	f.enforce(clock.Now)
	store, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := runBotChat(t, f, store, store, store.Close, func(c *telegram.Config) {
		c.Clock = clock
		c.GroupLimit, c.ChatEvery = 0, 0 // the defaults: Telegram's limits
		if tweak != nil {
			tweak(c)
		}
	}, nil, nil, cc(clock))
	return h, f, clock
}

// drive moves the clock from one sleeper's deadline to the next, each
// time the bot is making no send, until done reports true: the minutes
// that Telegram's limits take pass in no time. It fails the test when
// nothing moves for 30 s.
func drive(t testing.TB, h *harness, clock *telegramtest.Clock, what string, done func() bool) {
	t.Helper()
	step(t, h.f, clock, what, done, func() bool { return telegram.Working(h.bot) == 0 })
}

// until waits (in real time) until done reports true, checking at every
// change of the fake or the clock; it fails the test when nothing
// changes for 30 s.
func until(t testing.TB, f *fakeAPI, clock *telegramtest.Clock, what string, done func() bool) {
	t.Helper()
	step(t, f, clock, what, done, nil)
}

// step waits until done, moving the clock when idle says the bot waits
// for nothing but time (nil: never).
func step(t testing.TB, f *fakeAPI, clock *telegramtest.Clock, what string, done func() bool, idle func() bool) {
	t.Helper()
	last, lastCalls := time.Now(), -1
	for !done() {
		n, changed := clock.Sleepers()
		if idle != nil && n > 0 && idle() {
			clock.Next()
			last = time.Now()
			continue
		}
		f.mu.Lock()
		fch, calls := f.changed, len(f.calls)
		f.mu.Unlock()
		if calls != lastCalls {
			last, lastCalls = time.Now(), calls
		}
		if time.Since(last) > 30*time.Second {
			t.Fatalf("%s: nothing happened for 30s; calls:\n%s", what, f.dump(0))
		}
		select {
		case <-changed:
		case <-fch:
		case <-time.After(time.Millisecond): // a queue ending changes neither
		}
	}
}

// callsOf returns the calls from index from on that match.
func (f *fakeAPI) callsOf(from int, match func(c *call) bool) []*call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*call
	for _, c := range f.calls[from:] {
		if match(c) {
			out = append(out, c)
		}
	}
	return out
}

// index returns the index of a recorded call, -1 when not recorded.
func (f *fakeAPI) index(c *call) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, x := range f.calls {
		if x == c {
			return i
		}
	}
	return -1
}

// plain is the text of a message sent in HTML, as the chat handler
// worded it: no monospace block, no entities.
func plain(s string) string {
	return html.UnescapeString(strings.NewReplacer("<pre>", "", "</pre>", "").Replace(s))
}

// spam are the read-only commands of the flood, one of each kind of
// answer; their answers are lookups.
var spam = []string{"/board", "/moves", "/help", "/games", "/history", "/top", "/rating", "/xyzzy"}

// TestFloodedGroup: carol, who does not play, sends 500 read-only
// commands into the group where alice and bob play; then alice moves.
// The move's board is the next message into the group, and bob's turn
// ping the next one into his chat, linking that board; carol's answers
// come after, none lost: a /board answer that a newer board made useless
// is dropped, the same answer waiting twice goes once. Without the
// users' rate limit every command of hers is owed an answer; with it
// (the bot's configuration), she gets the first eight and one slow-down
// notice, then nothing.
func TestFloodedGroup(t *testing.T) {
	for _, tc := range []struct {
		name string
		rate bool
	}{{"queue alone", false}, {"rate limit", true}} {
		t.Run(tc.name, func(t *testing.T) { floodGroup(t, tc.rate) })
	}
}

func floodGroup(t *testing.T, rate bool) {
	h, f, clock := limitedBotChat(t, nil, func(clock *telegramtest.Clock) chat.Config {
		if !rate {
			return chat.Config{}
		}
		return chat.Config{Rate: chat.DefaultRate(), Now: clock.Now}
	})
	h.say(int64(bob.id), bob, "/start notify")
	h.challenge(group, "spanish")
	clock.Advance(time.Minute) // the set-up's messages are out of every limit's memory

	var ups []map[string]any
	for i := range 500 {
		ups = append(ups, text(group, carol, spam[i%len(spam)]))
	}
	ids := f.push(ups...)
	until(t, f, clock, "the flood handled", func() bool { return f.confirmed() > ids[len(ids)-1] })
	until(t, f, clock, "the group's queue waiting for its limits", func() bool { n, _ := clock.Sleepers(); return n > 0 })

	// What carol is owed, worded by the chat handler as the bot words it.
	words := chat.New(chat.Config{Sessions: h.svc})
	owed := map[string]string{}
	for _, cmd := range spam[1:] {
		key := sessions.Key{Platform: telegram.Platform, Channel: strconv.FormatInt(group, 10)}
		r := words.Handle(context.Background(), chat.Message{Key: key, Community: telegram.Community(key), User: carol.sessionUser(), Text: cmd})
		owed[r.Text()] = cmd
	}

	s := h.look(group)
	m := f.mark()
	f.push(text(group, alice, "/move "+s.State.Moves()[0].Text))
	board, _ := f.waitCall(m, sent(group, "sendPhoto", "sendMessage"))
	if !strings.Contains(board.Params["caption"], "alice (White) played") {
		t.Fatalf("after the move, the group's next message is %s %v, not the move's board", board.Method, board.Params)
	}
	ping, _ := f.waitCall(m, sent(int64(bob.id), "sendMessage"))
	link := "https://t.me/c/1234/" + strconv.Itoa(board.MsgID)
	if kb := keyboard(t, ping); len(kb) != 1 || kb[0][0].URL == nil || *kb[0][0].URL != link {
		t.Errorf("bob's ping has the buttons %s, want a link to the move's board %s", ping.Params["reply_markup"], link)
	}
	// Nothing went into the group between the board and the ping.
	for _, c := range f.callsOf(f.index(board)+1, sent(group, "sendPhoto", "sendMessage", "sendAnimation", "sendDocument")) {
		if f.index(c) < f.index(ping) {
			t.Errorf("carol's answer %v went between the board and the ping", c.Params)
		}
	}

	// carol's answers come after, as fast as the group's limits allow.
	drive(t, h, clock, "carol's answers", func() bool { return telegram.Pending(h.bot) == 0 })
	h.stop()

	answered, after := map[string]int{}, map[string]int{}
	boards := 0
	for _, c := range f.callsOf(0, sent(group, "sendMessage", "sendPhoto")) {
		if cmd, ok := owed[plain(c.Params["text"]+c.Params["caption"])]; ok {
			answered[cmd]++
			if f.index(c) > f.index(board) {
				if after[cmd]++; after[cmd] > 1 {
					t.Errorf("%s answered twice after the move: the same answer waiting was not merged", cmd)
				}
			}
		}
		if strings.Contains(c.Params["caption"], "FEN: ") {
			boards++
			if f.index(c) > f.index(board) {
				t.Errorf("a /board answer of the position before the move was sent after the move's board")
			}
		}
	}
	for _, cmd := range spam[1:] {
		if answered[cmd] == 0 {
			t.Errorf("%s was never answered", cmd)
		}
	}
	if boards == 0 {
		t.Error("/board was never answered")
	}
	// With the rate limit, carol's ninth command got the one slow-down
	// notice, and none after it an answer.
	notices := 0
	for i, up := range ups {
		id := strconv.Itoa(up["message"].(map[string]any)["message_id"].(int))
		for _, c := range f.callsOf(0, sent(group, "sendMessage")) {
			if c.Params["reply_to_message_id"] != id {
				continue
			}
			switch {
			case rate && i == 8 && strings.HasPrefix(c.Params["text"], "Slow down"):
				notices++
			case rate && i >= 8:
				t.Errorf("carol's command %d (%s) answered %q past the rate limit", i+1, spam[i%len(spam)], c.Params["text"])
			}
		}
	}
	if want := map[bool]int{false: 0, true: 1}[rate]; notices != want {
		t.Errorf("carol got %d slow-down notices, want %d", notices, want)
	}
	if n := len(f.callsOf(0, func(c *call) bool { return c.Status == http.StatusTooManyRequests })); n != 0 {
		t.Errorf("Telegram answered %d times 429: the bot did not keep its limits", n)
	}
}

// BenchmarkFloodedGroup: carol floods the group where alice and bob play
// with 500 read-only commands, then alice moves, against a fake Bot API
// that answers 429 at Telegram's limits. It reports msgs-before-board,
// the messages sent into the group between the move's arrival and its
// board (the goal is at most 1: one answer may be on its way), and
// board-delay-ms, the wall time from the fake handing the move to the bot
// to the board's sendPhoto reaching it. The bot's waits (the group's 20 a
// minute, a chat's burst, the overall pace) run on a test clock that
// stands still while the move is measured: a board that had to wait for a
// limit would never come, and the benchmark would fail; the delay is the
// handling, the commit, the drawing and the upload.
func BenchmarkFloodedGroup(b *testing.B) {
	var before, delay float64
	for range b.N {
		b.StopTimer()
		// carol's answers still queued are not waited for at the end.
		h, f, clock := limitedBot(b, func(c *telegram.Config) { c.ShutdownGrace = time.Millisecond })
		h.say(int64(bob.id), bob, "/start notify")
		h.challenge(group, "spanish")
		clock.Advance(time.Minute)
		var ups []map[string]any
		for i := range 500 {
			ups = append(ups, text(group, carol, spam[i%len(spam)]))
		}
		b.StartTimer()
		ids := f.push(ups...)
		until(b, f, clock, "the flood handled", func() bool { return f.confirmed() > ids[len(ids)-1] })
		until(b, f, clock, "the group's queue waiting for its limits", func() bool { n, _ := clock.Sleepers(); return n > 0 })
		m := f.mark()
		id := f.push(text(group, alice, "/move "+h.look(group).State.Moves()[0].Text))[0]
		board, _ := f.waitCall(m, func(c *call) bool {
			return sent(group, "sendPhoto")(c) && strings.Contains(c.Params["caption"], "alice (White) played")
		})
		b.StopTimer()
		for _, c := range f.callsOf(m, sent(group, "sendPhoto", "sendMessage", "sendAnimation", "sendDocument")) {
			if f.index(c) < f.index(board) {
				before++
			}
		}
		delay += float64(board.At.Sub(f.deliveredAt(id))) / float64(time.Millisecond)
		h.stop()
	}
	b.ReportMetric(before/float64(b.N), "msgs-before-board")
	b.ReportMetric(delay/float64(b.N), "board-delay-ms")
}
