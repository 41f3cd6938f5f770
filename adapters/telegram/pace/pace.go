// Package pace keeps the Telegram adapter's sends within Telegram's limits:
// each chat's burst and a group's messages a minute (ChatLimit, with a
// share kept for news over lookups), and the overall pace across chats,
// served in turn (Pacer). It reads the time from a Clock, so that tests
// move it by hand.
package pace

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgamebot/bot/internal/tokenbucket"
)

// Clock is the time the sends are paced by (telegram.Clock).
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits until d has passed, or until ctx is done: then it
	// returns ctx.Err().
	Sleep(ctx context.Context, d time.Duration) error
}

// Rank is where a message stands in its chat's queue.
type Rank int

const (
	// News is a change of a game or a tournament: a move's board, a turn
	// ping, a result, a challenge and its answer, a clock's notice. It
	// goes before every lookup of its chat and is never dropped.
	News Rank = iota
	// Lookup is the answer to a command that changed nothing (/board,
	// /help, a refusal): it waits behind the news, and a newer board of
	// its game, or the same answer queued again, takes its place.
	Lookup
)

// Limits are Telegram's limits on the messages into one chat, as the
// bot keeps them: a burst of Burst messages, then one every Every (a
// token bucket: Telegram asks for about one a second in a chat); and in
// groups at most Group messages in any Window (20 a minute). Every limit
// keeps a share for news, so that a chat flooded with lookups still takes
// a move's board at once: a lookup goes only while it leaves one message
// of the burst and a quarter of the group's window unused.
type Limits struct {
	Burst  int // <= 0: no burst limit
	Every  time.Duration
	Group  int // <= 0: no group limit
	Window time.Duration
}

// ChatLimit is the state of the limits of one chat. Only the chat's queue
// uses it: it needs no lock of its own.
type ChatLimit struct {
	burst tokenbucket.Bucket // the burst left
	sent  []time.Time
}

// burstRate is the filling of the burst: Burst messages, one more every
// Every.
func (c Limits) burstRate() tokenbucket.Rate {
	return tokenbucket.Rate{Size: float64(c.Burst), Gain: 1, Per: c.Every}
}

// Wait returns how long a message of rank r must wait before it may go
// into the chat (0: now). group says whether the chat is a group.
func (l *ChatLimit) Wait(c Limits, group bool, now time.Time, r Rank) time.Duration {
	var d time.Duration
	if c.Burst > 0 && c.Every > 0 {
		need := 1.0
		if r == Lookup && c.Burst > 1 {
			need++ // the last message of the burst is news's
		}
		d = l.burst.Wait(c.burstRate(), now, need)
	}
	if group && c.Group > 0 && c.Window > 0 {
		n := c.Group
		if r == Lookup && n > 1 {
			n -= max(1, n/4) // a quarter of the window is news's
		}
		l.prune(c, now)
		if k := len(l.sent) - n; k >= 0 {
			d = max(d, l.sent[k].Add(c.Window).Sub(now))
		}
	}
	return max(d, 0)
}

// prune forgets the sends out of the group's window.
func (l *ChatLimit) prune(c Limits, now time.Time) {
	i := 0
	for i < len(l.sent) && !l.sent[i].Add(c.Window).After(now) {
		i++
	}
	l.sent = slices.Delete(l.sent, 0, i)
}

// Count records a message sent into the chat at now.
func (l *ChatLimit) Count(c Limits, group bool, now time.Time) {
	if c.Burst > 0 && c.Every > 0 {
		l.burst.Take(c.burstRate(), now, 1)
	}
	if group && c.Group > 0 && c.Window > 0 {
		l.prune(c, now)
		l.sent = append(l.sent, now)
	}
}

// Idle reports whether the chat's limits have forgotten every message:
// the state may go.
func (l *ChatLimit) Idle(c Limits, now time.Time) bool {
	if c.Burst > 0 && c.Every > 0 && l.burst.Level(c.burstRate(), now) < float64(c.Burst) {
		return false
	}
	l.prune(c, now)
	return len(l.sent) == 0
}

// Pacer keeps the messages of all chats under n in any period per
// (Telegram's about 30 a second across chats), and serves the chats in
// turn: a chat waits in line for its message, and queues again only for
// its next one, so that a chat with a backlog delays another chat's
// message by one round at most.
type Pacer struct {
	N   int // <= 0: no pace
	Per time.Duration

	mu   sync.Mutex
	sent []time.Time
	line []chan struct{} // the chats waiting, in order: the first waits for the window
}

// Take waits for the turn of one message and counts it. working counts
// the sends being made: one less while this one waits.
func (p *Pacer) Take(ctx context.Context, clock Clock, working *atomic.Int64) error {
	if p.N <= 0 {
		return nil
	}
	turn := make(chan struct{})
	p.mu.Lock()
	p.line = append(p.line, turn)
	if len(p.line) == 1 {
		close(turn)
	}
	p.mu.Unlock()
	working.Add(-1)
	select {
	case <-turn:
		working.Add(1)
	case <-ctx.Done():
		working.Add(1)
		p.leave(turn)
		return ctx.Err()
	}
	for {
		p.mu.Lock()
		now := clock.Now()
		i := 0
		for i < len(p.sent) && !p.sent[i].Add(p.Per).After(now) {
			i++
		}
		p.sent = slices.Delete(p.sent, 0, i)
		if len(p.sent) < p.N {
			p.sent = append(p.sent, now)
			p.mu.Unlock()
			p.leave(turn)
			return nil
		}
		d := p.sent[0].Add(p.Per).Sub(now)
		p.mu.Unlock()
		working.Add(-1)
		err := clock.Sleep(ctx, d)
		working.Add(1)
		if err != nil {
			p.leave(turn)
			return err
		}
	}
}

// leave takes turn out of the line; when it was first, the next one's
// turn comes.
func (p *Pacer) leave(turn chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := slices.Index(p.line, turn)
	if i < 0 {
		return
	}
	p.line = slices.Delete(p.line, i, i+1)
	if i == 0 && len(p.line) > 0 {
		close(p.line[0])
	}
}

// InLine returns how many chats wait in line.
func (p *Pacer) InLine() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.line)
}
