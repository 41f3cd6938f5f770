package telegram

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgamebot/bot/adapters/telegram/pace"
)

// parcel is one reply in its chat's queue: the messages it takes, sent in
// order.
type parcel struct {
	rank rank
	// same names a lookup's content (its messages' methods, places, texts,
	// pictures and keyboards, not the message it answers): a lookup queued
	// while the same one waits unsent is merged into it. "" never merges.
	same string
	// place is where its messages go.
	place where
	// board is the place whose live board the parcel shows, nil for none:
	// a board of a place replaces the lookups showing that place's board
	// that wait unsent.
	board *where
	sends []send
	// started: its first message has gone; it is no longer replaced.
	started bool
}

// send is one call of a parcel.
type send struct {
	what string
	// quiet: the call puts no message into the chat (a ping handed to the
	// player's own chat): it waits for no limit.
	quiet bool
	run   func(ctx context.Context) error
}

// outbox holds the messages waiting to be sent, in a queue per chat, and
// sends them: in each chat the news first, then the lookups, one message
// at a time, within the chat's limits and the overall pace; different
// chats at the same time. A queue has no bound and pushing never blocks:
// news is never dropped, lookups only when a newer message replaces them.
type outbox struct {
	lim   pace.Limits
	pace  *pace.Pacer
	clock Clock
	log   *slog.Logger
	ctx   func() context.Context // the context of the sends
	m     Metrics                // counts the messages sent and given up

	// working counts the sends being made, less those waiting to try
	// again (a 429, a network failure): what tests wait for before moving
	// their clock.
	working atomic.Int64

	mu     sync.Mutex
	queues map[int64]*queue
	state  map[int64]*pace.ChatLimit // kept while the chat's limits remember a message
	// sweepAt is the number of chat limits kept past which sweep runs.
	sweepAt int
	wg      sync.WaitGroup
}

// queue is the messages waiting for one chat.
type queue struct {
	news, lookups []*parcel
	// wake, while the queue waits for its chat's limits, ends the wait: a
	// message of another rank came.
	wake context.CancelFunc
}

// head is the parcel to send next, nil for none.
func (q *queue) head() *parcel {
	if len(q.news) > 0 {
		return q.news[0]
	}
	if len(q.lookups) > 0 {
		return q.lookups[0]
	}
	return nil
}

// waiting is the number of messages waiting in q.
func (q *queue) waiting() int {
	n := 0
	for _, ps := range [][]*parcel{q.news, q.lookups} {
		for _, p := range ps {
			n += len(p.sends)
		}
	}
	return n
}

// push queues p for the chat.
func (o *outbox) push(chatID int64, p *parcel) {
	if len(p.sends) == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	q := o.queues[chatID]
	if q == nil {
		if o.queues == nil {
			o.queues, o.state = map[int64]*queue{}, map[int64]*pace.ChatLimit{}
		}
		q = &queue{}
		o.queues[chatID] = q
		o.sweep()
		o.wg.Add(1)
		go o.run(chatID, q)
	}
	if p.rank == news {
		if p.board != nil {
			q.lookups, _ = replace(q.lookups, *p.board, nil)
		}
		q.news = append(q.news, p)
		if q.wake != nil {
			q.wake()
		}
		return
	}
	if p.board != nil {
		var took bool
		if q.lookups, took = replace(q.lookups, *p.board, p); took {
			return // in the place of the older board
		}
	}
	for _, w := range q.lookups {
		if !w.started && p.same != "" && w.same == p.same {
			return // merged into the same answer waiting
		}
	}
	q.lookups = append(q.lookups, p)
}

// forget drops the unsent lookups into place w: it was closed (a
// tournament game's topic), and Telegram would refuse them.
func (o *outbox) forget(chatID int64, w where) {
	o.mu.Lock()
	defer o.mu.Unlock()
	q := o.queues[chatID]
	if q == nil {
		return
	}
	keep := q.lookups[:0]
	for _, p := range q.lookups {
		if p.started || p.place != w {
			keep = append(keep, p)
		}
	}
	clear(q.lookups[len(keep):])
	q.lookups = keep
}

// replace takes the unsent lookups showing the board of place w out of
// ps; by, when set, takes the first one's place. It reports whether one
// was found.
func replace(ps []*parcel, w where, by *parcel) ([]*parcel, bool) {
	out, found := ps[:0], false
	for _, p := range ps {
		if p.started || p.board == nil || *p.board != w {
			out = append(out, p)
			continue
		}
		if !found && by != nil {
			out = append(out, by)
		}
		found = true
	}
	clear(ps[len(out):])
	return out, found
}

// run sends the chat's messages until its queue is empty.
func (o *outbox) run(chatID int64, q *queue) {
	defer o.wg.Done()
	group := chatID < 0
	for {
		ctx := o.ctx()
		o.mu.Lock()
		p := q.head()
		if p == nil || ctx.Err() != nil {
			o.close(chatID, q, ctx)
			o.mu.Unlock()
			return
		}
		if s := p.sends[0]; s.quiet {
			o.pop(q, p)
			o.mu.Unlock()
			o.working.Add(1)
			o.do(ctx, chatID, q, s)
			continue
		}
		st := o.state[chatID]
		if st == nil {
			st = &pace.ChatLimit{}
			o.state[chatID] = st
		}
		if d := st.Wait(o.lim, group, o.clock.Now(), p.rank); d > 0 {
			wctx, wake := context.WithCancel(ctx)
			q.wake = wake
			o.mu.Unlock()
			_ = o.clock.Sleep(wctx, d)
			o.mu.Lock()
			q.wake = nil
			o.mu.Unlock()
			wake()
			continue
		}
		o.mu.Unlock()
		o.working.Add(1)
		if o.pace.Take(ctx, o.clock, &o.working) != nil {
			o.working.Add(-1)
			continue
		}
		o.mu.Lock()
		// News may have come while the chat waited for its turn: it goes
		// first (a lookup's turn is one news may take).
		p = q.head()
		s := p.sends[0]
		o.pop(q, p)
		if !s.quiet {
			st.Count(o.lim, group, o.clock.Now())
		}
		o.mu.Unlock()
		o.do(ctx, chatID, q, s)
	}
}

// pop takes the first send of p, the head of q, and p itself when it was
// its last; o.mu is held.
func (o *outbox) pop(q *queue, p *parcel) {
	p.started = true
	p.sends = p.sends[1:]
	if len(p.sends) > 0 {
		return
	}
	if len(q.news) > 0 && q.news[0] == p {
		q.news[0] = nil
		q.news = q.news[1:]
		return
	}
	q.lookups[0] = nil
	q.lookups = q.lookups[1:]
}

// do makes one call. A failure is logged, once: the call has given up
// only when Telegram said the message can never go, or the bot stops.
// When the chat is gone for the bot (it was blocked, removed from the
// group, the chat deleted), what waits for it goes too, in the same line.
func (o *outbox) do(ctx context.Context, chatID int64, q *queue, s send) {
	err := s.run(context.WithValue(ctx, sendKey{}, o))
	o.working.Add(-1) // counted by the caller, from the send's turn on
	if err == nil || notModified(err) {
		o.m.Sent()
		return
	}
	dropped := 0
	if chatGone(err) {
		o.mu.Lock()
		dropped = q.waiting()
		q.news, q.lookups = nil, nil
		o.mu.Unlock()
	}
	gaveUp(o.m, 1+dropped)
	o.log.Warn("telegram: a message was not sent", "what", s.what, "chat", chatID, "err", err, "dropped_with_it", dropped)
}

// sendKey marks the context of a send with its outbox.
type sendKey struct{}

// rest is the clock's Sleep, with a send that waits to try again not
// counted as working.
func rest(clock Clock) func(ctx context.Context, d time.Duration) error {
	return func(ctx context.Context, d time.Duration) error {
		if o, ok := ctx.Value(sendKey{}).(*outbox); ok {
			o.working.Add(-1)
			defer o.working.Add(1)
		}
		return clock.Sleep(ctx, d)
	}
}

// close ends the chat's queue: empty, or the bot stopping (then what is
// left is dropped, in one log line). The chat's limits are kept while
// they remember a message. o.mu is held.
func (o *outbox) close(chatID int64, q *queue, ctx context.Context) {
	if left := q.waiting(); left > 0 {
		gaveUp(o.m, left)
		o.log.Warn("telegram: messages still queued at shutdown are not sent", "chat", chatID, "count", left, "err", ctx.Err())
	}
	delete(o.queues, chatID)
	if st := o.state[chatID]; st != nil && st.Idle(o.lim, o.clock.Now()) {
		delete(o.state, chatID)
	}
}

// sweep forgets the limits of the chats without a queue that remember
// no message, once they are many; o.mu is held.
func (o *outbox) sweep() {
	if len(o.state) < max(o.sweepAt, 1024) {
		return
	}
	now := o.clock.Now()
	for id, st := range o.state {
		if o.queues[id] == nil && st.Idle(o.lim, now) {
			delete(o.state, id)
		}
	}
	o.sweepAt = 2 * len(o.state)
}

// wait waits until every queue is empty, or until ctx is done.
func (o *outbox) wait(ctx context.Context) error { return waitFor(ctx, &o.wg) }

// chatGone reports whether err says that the bot may no longer write in
// the chat: 403 (blocked by the user, removed from the group) or 400
// "chat not found".
func chatGone(err error) bool {
	var ae *apiError
	if !errors.As(err, &ae) {
		return false
	}
	return ae.Code == http.StatusForbidden || ae.Code == http.StatusBadRequest && strings.Contains(ae.Msg, "chat not found")
}
