package discord

import (
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/bwmarrin/discordgo"
)

// tally counts what Config.Metrics is told.
type tally struct{ sent, retried, gaveUp atomic.Int64 }

func (c *tally) Sent()    { c.sent.Add(1) }
func (c *tally) Retried() { c.retried.Add(1) }
func (c *tally) GaveUp()  { c.gaveUp.Add(1) }

// TestMessagesCounted: every message request the bot makes of Discord
// (answers to interactions, their edits and follow-ups, posts and edits
// in channels) counts as sent once Discord took it.
func TestMessagesCounted(t *testing.T) {
	f := newFakeDiscord(t)
	var c tally
	b, svc := build(t, f, sessions.Config{Store: sessionstest.NewMemoryStore()}, Config{Metrics: &c})
	e := run(t, f, b, svc)
	from := f.mark()
	challenge(t, e)
	e.stop()
	messages := f.since(from, isMessage)
	if len(messages) == 0 || c.sent.Load() != int64(len(messages)) || c.gaveUp.Load() != 0 {
		t.Fatalf("sent %d, given up %d; the fake took %d messages", c.sent.Load(), c.gaveUp.Load(), len(messages))
	}
	if n := b.Waiting(); n != 0 {
		t.Fatalf("%d notices still waiting", n)
	}
}

// isMessage reports whether q posted, answered or edited a message, and
// Discord took it.
func isMessage(q *fakeReq) bool {
	return q.status/100 == 2 && (q.method == "POST" || q.method == "PATCH") && !strings.HasSuffix(q.path, "/threads") &&
		(strings.HasPrefix(q.path, "/interactions/") || strings.HasPrefix(q.path, "/webhooks/") || strings.Contains(q.path, "/messages"))
}

// refusing is a client whose posts Discord refuses.
type refusing struct{ client }

func (refusing) ChannelMessageSendComplex(string, *discordgo.MessageSend, ...discordgo.RequestOption) (*discordgo.Message, error) {
	return nil, errors.New("HTTP 403 Forbidden, Missing Access")
}

// TestMessageGivenUp: a message Discord refuses counts as given up, not
// sent.
func TestMessageGivenUp(t *testing.T) {
	var c tally
	cl := counting{client: refusing{}, m: &c}
	if _, err := cl.ChannelMessageSendComplex("700", &discordgo.MessageSend{Content: "x"}); err == nil {
		t.Fatal("the refusal was lost")
	}
	if c.sent.Load() != 0 || c.gaveUp.Load() != 1 {
		t.Fatalf("sent %d, given up %d; want 0 and 1", c.sent.Load(), c.gaveUp.Load())
	}
}

// TestRetriesCounted: a post that Discord fails twice with a 500 is sent
// again until it goes: two retries, then one message sent, none given up.
func TestRetriesCounted(t *testing.T) {
	f := newFakeDiscord(t)
	var c tally
	b, svc := build(t, f, sessions.Config{Store: sessionstest.NewMemoryStore()}, Config{RetryPause: 10 * time.Millisecond, Metrics: &c})
	e := run(t, f, b, svc)
	thread, key := computerGame(t, f)
	move := f.command(thread, alice, "move", str("move", greedy(look(t, e.svc, key).State)))
	f.failNext(posted(thread), http.StatusInternalServerError, http.StatusInternalServerError)
	from := f.mark()
	f.dispatch(t, "INTERACTION_CREATE", move)
	f.waitFor(t, from, "the computer's move", func(q *fakeReq) bool { return posted(thread)(q) && q.status == http.StatusOK })
	e.stop()
	ok := f.since(0, isMessage)
	if c.retried.Load() != 2 || c.gaveUp.Load() != 0 || c.sent.Load() != int64(len(ok)) {
		t.Fatalf("retried %d, given up %d, sent %d; want 2, 0 and the %d messages Discord took", c.retried.Load(), c.gaveUp.Load(), c.sent.Load(), len(ok))
	}
}
