// Package tokenbucket is a token bucket: a store of tokens that fills
// again steadily up to its size, each thing it lets through taking one.
// It reads no clock: each call is told the time, so that its users pass
// their own clock (a test's fake one) and tests need no real time.
package tokenbucket

import "time"

// Rate is how a bucket fills: it holds at most Size tokens and gains Gain
// tokens every Per (Per > 0).
type Rate struct {
	Size, Gain float64
	Per        time.Duration
}

// Bucket is the state of one bucket. The zero value is a full bucket that
// was never used. A Bucket is not safe for concurrent use: its user keeps
// it under its own lock.
type Bucket struct {
	tokens float64
	at     time.Time // when tokens was counted; zero: never (full)
}

// Level is the number of tokens the bucket holds at now.
func (b *Bucket) Level(r Rate, now time.Time) float64 {
	if b.at.IsZero() {
		return r.Size
	}
	if !now.After(b.at) {
		return b.tokens
	}
	return min(r.Size, b.tokens+r.Gain*float64(now.Sub(b.at))/float64(r.Per))
}

// Fill counts the tokens gained up to now.
func (b *Bucket) Fill(r Rate, now time.Time) {
	if b.at.IsZero() || now.After(b.at) {
		b.tokens, b.at = b.Level(r, now), now
	}
}

// Take fills the bucket up to now and takes n tokens from it (it may go
// below zero: a debt that filling pays first).
func (b *Bucket) Take(r Rate, now time.Time, n float64) {
	b.Fill(r, now)
	b.tokens -= n
}

// Wait is how long from now until the bucket holds need tokens (0: it
// does now).
func (b *Bucket) Wait(r Rate, now time.Time, need float64) time.Duration {
	have := b.Level(r, now)
	if have >= need {
		return 0
	}
	return time.Duration((need - have) / r.Gain * float64(r.Per))
}
