// Package backoff paces the attempts of something that keeps failing: the
// pause before the next attempt is the first pause, then twice the last
// one, up to a most.
//
// A Backoff only counts: it reads no clock and sleeps nowhere, so its
// users wait the pause it gives through their own sleep (a test's fake
// clock, a channel that says the program stops) and tests need no real
// time. Wait is the plain timer for those that have nothing of their own.
package backoff

import (
	"context"
	"time"
)

// Backoff is the pauses between failed attempts: First, then each one
// twice the last, never more than Max (no Max: no cap). The zero value
// pauses for nothing; a Backoff is used by one goroutine at a time.
type Backoff struct {
	First, Max time.Duration

	pause   time.Duration
	attempt int
}

// Next counts a failed attempt and returns the pause before the next one.
func (b *Backoff) Next() time.Duration {
	b.attempt++
	switch {
	case b.attempt == 1:
		b.pause = b.First
	case b.Max > 0 && b.pause > b.Max/2:
		b.pause = b.Max
	default:
		b.pause *= 2
	}
	return b.pause
}

// Attempt is the number of failed attempts Next has counted since the
// start or the last Reset.
func (b *Backoff) Attempt() int { return b.attempt }

// Reset starts again from First, after a success.
func (b *Backoff) Reset() { b.pause, b.attempt = 0, 0 }

// Wait waits d, or until ctx is done: then it returns ctx's error.
func Wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
