package discord

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/internal/testwait"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// computerGame has alice play the computer (level 1, White) from the text
// channel; it returns the game's thread and key.
func computerGame(t *testing.T, f *fakeDiscord) (string, sessions.Key) {
	t.Helper()
	from := f.mark()
	play := f.slash(t, fakeChan, alice, "play", str("game", "spanish"), usr("opponent", person{fakeApp, "boardgamebot"}),
		str("color", "white"), opt{"level", 4, 1.0})
	f.waitFor(t, from, "the /play callback", callback(play))
	thread := f.original(play["token"].(string))
	f.waitFor(t, from, "the first board", posted(thread))
	return thread, sessions.Key{Platform: Platform, Channel: fakeChan, Thread: thread}
}

// readOnly are the read-only commands of a flood.
var readOnly = []string{"board", "moves", "help", "games", "history", "top", "rating"}

// TestGamePostsThroughAFlood: carol floods the thread where alice plays
// the computer with 500 read-only commands, whose answers are all still
// on their way when alice moves: her answer and the computer's move,
// posted mentioning her, go at once, not after carol's answers; then
// carol's answers all arrive.
func TestGamePostsThroughAFlood(t *testing.T) {
	f := newFakeDiscord(t)
	e := start(t, f, sessionstest.NewMemoryStore(), "")
	thread, key := computerGame(t, f)
	t.Cleanup(f.releaseHeld) // a test that fails lets them go before the bot stops
	start := f.mark()
	var flood []map[string]any
	for n := range 500 {
		i := f.command(thread, carol, readOnly[n%len(readOnly)])
		f.hold(i)
		f.dispatch(t, "INTERACTION_CREATE", i)
		flood = append(flood, i)
	}
	answered := func() int { // carol's commands whose answer reached Discord
		tokens := map[string]bool{}
		for _, i := range flood {
			tokens[i["token"].(string)] = false
		}
		for _, q := range f.since(start, func(q *fakeReq) bool { return q.method == "PATCH" && strings.HasSuffix(q.path, "/@original") }) {
			if p := strings.Split(q.path, "/"); len(p) > 3 {
				if _, ok := tokens[p[3]]; ok {
					tokens[p[3]] = true
				}
			}
		}
		n := 0
		for _, ok := range tokens {
			if ok {
				n++
			}
		}
		return n
	}
	if !testwait.Until(60*time.Second, func() bool { return answered() >= len(flood) }) {
		t.Fatalf("%d of carol's %d answers on their way after 60s", answered(), len(flood))
	}

	// Every answer to carol is on its way (held at Discord): alice moves.
	from := f.mark()
	move := f.slash(t, thread, alice, "move", str("move", greedy(look(t, e.svc, key).State)))
	mine := f.waitFor(t, from, "alice's board", onOriginal("PATCH", move))
	if !strings.Contains(content(mine), "alice (White) played") {
		t.Errorf("alice's move answered %q", content(mine))
	}
	reply := f.waitFor(t, from, "the computer's move", posted(thread))
	if c := content(reply); !strings.Contains(c, "Computer (Black) played") || !strings.Contains(c, "<@"+alice.id+">: your move") {
		t.Errorf("the computer's move: %q", c)
	}
	// Part B (per-user limits) adds here: carol got one slow-down notice.
	f.releaseHeld()
	e.stop() // waits for every interaction in hand
	if got := answered(); got != len(flood) {
		t.Errorf("%d of carol's %d commands answered", got, len(flood))
	}
}

// TestSendsSurviveFaults: a post or an answer whose sending fails for a
// while (the connection drops, Discord answers 5xx or 429) is sent again
// until it goes, once.
func TestSendsSurviveFaults(t *testing.T) {
	f := newFakeDiscord(t)
	b, svc := build(t, f, sessions.Config{Store: sessionstest.NewMemoryStore()}, Config{RetryPause: 10 * time.Millisecond})
	e := run(t, f, b, svc)
	thread, key := computerGame(t, f)

	// alice's answer fails four times, the computer's post five.
	move := f.command(thread, alice, "move", str("move", greedy(look(t, e.svc, key).State)))
	f.failNext(onOriginal("PATCH", move), 0, http.StatusServiceUnavailable, http.StatusTooManyRequests, http.StatusInternalServerError)
	f.failNext(posted(thread), http.StatusInternalServerError, 0, http.StatusBadGateway, http.StatusBadGateway, http.StatusBadGateway,
		http.StatusBadGateway, http.StatusGatewayTimeout)
	from := f.mark()
	f.dispatch(t, "INTERACTION_CREATE", move)
	reply := f.waitFor(t, from, "the computer's move", func(q *fakeReq) bool { return posted(thread)(q) && q.status == http.StatusOK })
	if len(reply.files) != 1 || !strings.Contains(content(reply), "Computer (Black) played") {
		t.Errorf("the computer's move: %q with %d files", content(reply), len(reply.files))
	}
	mine := f.waitFor(t, from, "alice's board", func(q *fakeReq) bool { return onOriginal("PATCH", move)(q) && q.status == http.StatusOK })
	if len(mine.files) != 1 || !strings.Contains(content(mine), "alice (White) played") {
		t.Errorf("alice's answer: %q with %d files", content(mine), len(mine.files))
	}
	e.stop()
	if n := len(f.since(from, func(q *fakeReq) bool { return posted(thread)(q) && q.status == http.StatusOK })); n != 1 {
		t.Errorf("the computer's move was posted %d times", n)
	}
	if n := len(f.since(from, func(q *fakeReq) bool { return onOriginal("PATCH", move)(q) && q.status == http.StatusOK })); n != 1 {
		t.Errorf("alice's answer was sent %d times", n)
	}
}
