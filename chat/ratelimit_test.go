package chat

import (
	"fmt"
	"testing"
	"time"
)

// TestLimiterMemoryBounded: a flood from many user ids does not grow the
// limiter without bound: past maxBuckets buckets are dropped, and the
// buckets of users gone quiet (full again) are dropped at the next sweep.
func TestLimiterMemoryBounded(t *testing.T) {
	l := newLimiter(DefaultRate())
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for i := range 2 * maxBuckets {
		now := t0.Add(time.Duration(i) * time.Microsecond)
		if v, _ := l.take(now, fmt.Sprint("user", i), "chat"); v != admit {
			t.Fatalf("user %d's first command: %v", i, v)
		}
		if len(l.buckets) > maxBuckets+1 {
			t.Fatalf("after %d users: %d buckets, the most is %d", i+1, len(l.buckets), maxBuckets)
		}
	}
	// A minute later every bucket is full again: one command sweeps them.
	if v, _ := l.take(t0.Add(time.Minute+time.Second), "late", "chat"); v != admit {
		t.Fatal("the late user's command was not admitted")
	}
	if n := len(l.buckets); n > 2 {
		t.Errorf("%d buckets after everyone went quiet, want only the late user's 2", n)
	}
}

// TestLimiterSilenceUntilFull: after the notice, the user's commands are
// dropped until the bucket that was empty is full again, and the notice
// says how long that is.
func TestLimiterSilenceUntilFull(t *testing.T) {
	l := newLimiter(Rate{PerChat: 4, PerChatWindow: 8 * time.Second})
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	for _, c := range []struct {
		at   time.Duration
		want verdict
		wait time.Duration
	}{
		{0, admit, 0}, {0, admit, 0}, {0, admit, 0},
		{2 * time.Second, admit, 0}, // 1 refilled in 2 s: 4 - 3 + 1 - 1 = 1 left
		{2 * time.Second, admit, 0}, // 0 left
		{2 * time.Second, notify, 8 * time.Second},
		{3 * time.Second, drop, 0},
		{9999 * time.Millisecond, drop, 0},
		{10 * time.Second, admit, 0},
	} {
		v, wait := l.take(at(c.at), "u", "c")
		if v != c.want || wait != c.wait {
			t.Fatalf("at %v: %v (wait %v), want %v (wait %v)", c.at, v, wait, c.want, c.wait)
		}
	}
}
