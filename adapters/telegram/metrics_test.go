package telegram_test

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/telegram"
)

// tally counts what Config.Metrics is told.
type tally struct {
	mu                            sync.Mutex
	sent, retried, gaveUp, limits int
	waited                        time.Duration
}

func (c *tally) Sent()    { c.mu.Lock(); c.sent++; c.mu.Unlock() }
func (c *tally) Retried() { c.mu.Lock(); c.retried++; c.mu.Unlock() }
func (c *tally) GaveUp()  { c.mu.Lock(); c.gaveUp++; c.mu.Unlock() }
func (c *tally) RateLimited(d time.Duration) {
	c.mu.Lock()
	c.limits++
	c.waited += d
	c.mu.Unlock()
}

func (c *tally) counts() (sent, retried, gaveUp, limits int, waited time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sent, c.retried, c.gaveUp, c.limits, c.waited
}

// TestMessageMetrics: a message that fails twice (a 502, a dropped
// connection) and is answered 429 once (retry_after 3 s) counts three
// retries, one 429 that asked 3 s, and one message sent; the messages
// waiting for a chat's pace count as waiting; when the chat is gone for
// the bot (403), the message and those waiting with it count as given up.
func TestMessageMetrics(t *testing.T) {
	var c tally
	h, f, clock := limitedBot(t, func(cfg *telegram.Config) { cfg.Metrics, cfg.ChatBurst = &c, 1 })
	sent0, _, _, _, _ := c.counts()
	f.breakNext("sendMessage", http.StatusBadGateway, 0)
	f.failNext("sendMessage", 3)
	m := f.mark()
	f.push(text(group, alice, "/games"))
	drive(t, h, clock, "the answer", func() bool { return len(f.callsOf(m, sent(group, "sendMessage"))) == 1 })
	drive(t, h, clock, "the queue", func() bool { return telegram.Pending(h.bot) == 0 })
	sent1, retried, gaveUp, limits, waited := c.counts()
	if sent1-sent0 != 1 || retried != 3 || gaveUp != 0 || limits != 1 || waited != 3*time.Second {
		t.Fatalf("sent %d, retried %d, given up %d, 429s %d asking %v; want 1, 3, 0, 1, 3s", sent1-sent0, retried, gaveUp, limits, waited)
	}

	me := int64(carol.id)
	h.say(me, carol, "/games") // the burst of one is used
	f.mu.Lock()
	f.blocked[strconv.FormatInt(me, 10)] = true
	f.mu.Unlock()
	ids := f.push(text(me, carol, "/help"), text(me, carol, "/help move"), text(me, carol, "/top"), text(me, carol, "/rating"))
	until(t, f, clock, "the answers waiting", func() bool { return f.confirmed() > ids[len(ids)-1] })
	if n := h.bot.Waiting(); n != 4 {
		t.Errorf("%d messages waiting for the chat's pace, want 4", n)
	}
	drive(t, h, clock, "the chat's queue", func() bool { return telegram.Pending(h.bot) == 0 })
	if _, _, gaveUp, _, _ := c.counts(); gaveUp != 4 {
		t.Errorf("%d messages given up, want 4 (the one refused and the three waiting with it)", gaveUp)
	}
	if n := h.bot.Waiting(); n != 0 {
		t.Errorf("%d messages waiting at the end", n)
	}
}
