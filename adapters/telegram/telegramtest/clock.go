// Package telegramtest helps the tests of the Telegram adapter: a clock
// that moves only when the test moves it.
package telegramtest

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Clock is a telegram.Clock for tests: its time stands still until
// Advance or Next moves it, and Sleep returns once the time has passed the
// sleeper's deadline. It also tells how many goroutines sleep on it, so
// that a test knows when the bot waits for nothing but time.
type Clock struct {
	mu       sync.Mutex
	now      time.Time
	sleepers []*sleeper
	changed  chan struct{} // closed and replaced when a sleeper comes or goes
}

type sleeper struct {
	until time.Time
	wake  chan struct{}
}

// NewClock returns a clock at start.
func NewClock(start time.Time) *Clock {
	return &Clock{now: start, changed: make(chan struct{})}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep waits until the clock has passed now+d, or until ctx is done.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	if d <= 0 {
		c.mu.Unlock()
		return ctx.Err()
	}
	s := &sleeper{until: c.now.Add(d), wake: make(chan struct{})}
	c.sleepers = append(c.sleepers, s)
	c.signal()
	c.mu.Unlock()
	select {
	case <-s.wake:
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		c.remove(s)
		c.mu.Unlock()
		return ctx.Err()
	}
}

// signal wakes the waiters of changed; c.mu is held.
func (c *Clock) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// remove takes s off the sleepers, if it is still there; c.mu is held.
func (c *Clock) remove(s *sleeper) {
	if i := slices.Index(c.sleepers, s); i >= 0 {
		c.sleepers = slices.Delete(c.sleepers, i, i+1)
		c.signal()
	}
}

// Advance moves the clock forward by d and wakes the sleepers whose
// deadline it passed.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(c.now.Add(d))
}

// set moves the clock to t (never back) and wakes the sleepers due; c.mu
// is held.
func (c *Clock) set(t time.Time) {
	if t.After(c.now) {
		c.now = t
	}
	keep := c.sleepers[:0]
	woke := false
	for _, s := range c.sleepers {
		if s.until.After(c.now) {
			keep = append(keep, s)
			continue
		}
		close(s.wake)
		woke = true
	}
	clear(c.sleepers[len(keep):])
	c.sleepers = keep
	if woke {
		c.signal()
	}
}

// Next moves the clock to the earliest deadline of the goroutines asleep
// on it and wakes them; it reports false, moving nothing, when none
// sleeps.
func (c *Clock) Next() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.sleepers) == 0 {
		return false
	}
	first := c.sleepers[0].until
	for _, s := range c.sleepers[1:] {
		if s.until.Before(first) {
			first = s.until
		}
	}
	c.set(first)
	return true
}

// Sleepers returns how many goroutines sleep on the clock, and a channel
// closed when that may have changed.
func (c *Clock) Sleepers() (int, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.sleepers), c.changed
}
