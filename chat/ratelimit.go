package chat

import (
	"sync"
	"time"

	"github.com/boardgamebot/bot/internal/tokenbucket"
)

// Rate is the per-user rate limit of commands: at most PerChat commands
// in PerChatWindow in one chat, and at most Overall in OverallWindow
// across chats. Each is a bucket of that many commands that fills again,
// steadily, in its window; a limit with a count or a window of 0 is off.
//
// A command that finds a bucket empty gets one notice (Reply.Error, the
// catalogue's SlowDown: "try again in N s"), and the user's commands are
// dropped unanswered (Reply.Dropped), not queued, until that bucket is
// full again: N is the time it takes. A player's move in their own game
// at their turn (/move, /huff, /setup, or the buttons that make them) is
// never refused and not counted, once per turn: a second try in the same
// turn counts.
type Rate struct {
	PerChat       int
	PerChatWindow time.Duration
	Overall       int
	OverallWindow time.Duration
}

// DefaultRate is the bot's rate limit unless its configuration says
// otherwise (limits.*): 8 commands in 10 s in one chat, 30 a minute across
// chats. A person reading the answers stays under it; a script does not.
func DefaultRate() Rate {
	return Rate{PerChat: 8, PerChatWindow: 10 * time.Second, Overall: 30, OverallWindow: time.Minute}
}

// maxBuckets bounds the limiter's memory: beyond it (a flood from that many
// user ids within a window), buckets are dropped even if not idle (those
// users start again with full buckets).
const maxBuckets = 100_000

// verdict is what the limiter says of a command.
type verdict int

const (
	admit  verdict = iota // answer it
	notify                // refuse it with the one notice
	drop                  // drop it unanswered
)

// limiter keeps the users' buckets. It is safe for concurrent use.
type limiter struct {
	rate    Rate
	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

// bucket is one user's bucket of commands, overall or in one chat.
type bucket struct {
	tb tokenbucket.Bucket
	// muted is when the commands are answered again, after the notice.
	muted time.Time
	// free is the turn of the last move let through free ("session key
	// # actions"): one free try per turn.
	free string
}

func newLimiter(r Rate) *limiter {
	return &limiter{rate: r, buckets: map[string]*bucket{}}
}

// on reports whether a limit of n commands in window w applies.
func on(n int, w time.Duration) bool { return n > 0 && w > 0 }

// rate is the filling of a bucket of n commands in w.
func rate(n int, w time.Duration) tokenbucket.Rate {
	return tokenbucket.Rate{Size: float64(n), Gain: float64(n), Per: w}
}

// get returns the bucket of key, filled up to now (n commands in w).
func (l *limiter) get(now time.Time, key string, n int, w time.Duration) *bucket {
	b := l.buckets[key]
	if b == nil {
		b = &bucket{}
		l.buckets[key] = b
	}
	b.tb.Fill(rate(n, w), now)
	return b
}

// empty reports whether b, filled up to now, holds less than a command.
func (b *bucket) empty(now time.Time, n int, w time.Duration) bool {
	return b.tb.Level(rate(n, w), now) < 1
}

// mute refuses the commands of b until it is full again (n in w); it
// returns when that is.
func (b *bucket) mute(now time.Time, n int, w time.Duration) time.Time {
	b.muted = now.Add(b.tb.Wait(rate(n, w), now, float64(n)))
	return b.muted
}

// take counts a command of user in chat at now: admit it (taking one from
// each bucket), or refuse it with the notice (a bucket is empty: the user
// is muted until it is full again, wait from now) or drop it (muted).
func (l *limiter) take(now time.Time, user, chat string) (verdict, time.Duration) {
	r := l.rate
	overall, perChat := on(r.Overall, r.OverallWindow), on(r.PerChat, r.PerChatWindow)
	if !overall && !perChat {
		return admit, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	var u, c *bucket
	if overall {
		u = l.get(now, "u\x00"+user, r.Overall, r.OverallWindow)
	}
	if perChat {
		c = l.get(now, "c\x00"+user+"\x00"+chat, r.PerChat, r.PerChatWindow)
	}
	if u != nil && now.Before(u.muted) || c != nil && now.Before(c.muted) {
		return drop, 0
	}
	var until time.Time
	if u != nil && u.empty(now, r.Overall, r.OverallWindow) {
		until = u.mute(now, r.Overall, r.OverallWindow)
	}
	if c != nil && c.empty(now, r.PerChat, r.PerChatWindow) {
		if t := c.mute(now, r.PerChat, r.PerChatWindow); t.After(until) {
			until = t
		}
	}
	if !until.IsZero() {
		return notify, until.Sub(now)
	}
	if u != nil {
		u.tb.Take(rate(r.Overall, r.OverallWindow), now, 1)
	}
	if c != nil {
		c.tb.Take(rate(r.PerChat, r.PerChatWindow), now, 1)
	}
	return admit, 0
}

// free reports whether a move of user in chat at turn (a session key and
// its count of actions) is the first try of that turn, and remembers it.
func (l *limiter) free(now time.Time, user, chat, turn string) bool {
	r := l.rate
	if !on(r.PerChat, r.PerChatWindow) && !on(r.Overall, r.OverallWindow) {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	n, w := max(r.PerChat, 1), r.PerChatWindow
	if w <= 0 {
		w = r.OverallWindow
	}
	b := l.get(now, "c\x00"+user+"\x00"+chat, n, w)
	if b.free == turn {
		return false
	}
	b.free = turn
	return true
}

// sweep drops, at most once a second, the buckets that are full and not
// muted (an idle user's bucket holds nothing worth keeping), and, past
// maxBuckets, any. l.mu is held.
func (l *limiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Second && len(l.buckets) < maxBuckets {
		return
	}
	l.swept = now
	r := l.rate
	for k, b := range l.buckets {
		n, w := r.Overall, r.OverallWindow
		if k[0] == 'c' {
			n, w = r.PerChat, r.PerChatWindow
		}
		full := !on(n, w) || b.tb.Level(rate(n, w), now) >= float64(n)
		if full && !now.Before(b.muted) {
			delete(l.buckets, k)
		}
	}
	for k := range l.buckets {
		if len(l.buckets) < maxBuckets*9/10 {
			break
		}
		delete(l.buckets, k)
	}
}
