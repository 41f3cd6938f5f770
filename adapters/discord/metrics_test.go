package discord

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/bwmarrin/discordgo"
)

// tally counts what Config.Metrics is told.
type tally struct{ sent, gaveUp atomic.Int64 }

func (c *tally) Sent()   { c.sent.Add(1) }
func (c *tally) GaveUp() { c.gaveUp.Add(1) }

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
	messages := f.since(from, func(q *fakeReq) bool {
		return (q.method == "POST" || q.method == "PATCH") && !strings.HasSuffix(q.path, "/threads") &&
			(strings.HasPrefix(q.path, "/interactions/") || strings.HasPrefix(q.path, "/webhooks/") || strings.Contains(q.path, "/messages"))
	})
	if len(messages) == 0 || c.sent.Load() != int64(len(messages)) || c.gaveUp.Load() != 0 {
		t.Fatalf("sent %d, given up %d; the fake took %d messages", c.sent.Load(), c.gaveUp.Load(), len(messages))
	}
	if n := b.Waiting(); n != 0 {
		t.Fatalf("%d notices still waiting", n)
	}
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
