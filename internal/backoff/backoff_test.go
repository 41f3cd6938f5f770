package backoff

import (
	"context"
	"testing"
	"time"
)

func TestNext(t *testing.T) {
	const s = time.Second
	for _, tc := range []struct {
		name       string
		first, max time.Duration
		want       []time.Duration
	}{
		{"doubles up to the cap", s, 10 * s, []time.Duration{s, 2 * s, 4 * s, 8 * s, 10 * s, 10 * s}},
		{"cap a power of two of first", s, 4 * s, []time.Duration{s, 2 * s, 4 * s, 4 * s}},
		{"first above the cap stays, then the cap", 5 * s, 2 * s, []time.Duration{5 * s, 2 * s, 2 * s}},
		{"no cap", s, 0, []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s}},
		{"zero first", 0, s, []time.Duration{0, 0, 0}},
		{"a cap near the largest duration", time.Duration(1 << 61), time.Duration(1<<63 - 1), []time.Duration{1 << 61, 1 << 62, 1<<63 - 1, 1<<63 - 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := Backoff{First: tc.first, Max: tc.max}
			for i, want := range tc.want {
				if got := b.Next(); got != want {
					t.Fatalf("pause %d = %v, want %v", i+1, got, want)
				}
				if b.Attempt() != i+1 {
					t.Fatalf("attempt after pause %d = %d", i+1, b.Attempt())
				}
			}
		})
	}
}

func TestReset(t *testing.T) {
	b := Backoff{First: time.Second, Max: time.Minute}
	b.Next()
	b.Next()
	b.Reset()
	if b.Attempt() != 0 {
		t.Fatalf("attempt after Reset = %d", b.Attempt())
	}
	if got := b.Next(); got != time.Second {
		t.Fatalf("pause after Reset = %v, want the first", got)
	}
}

func TestWait(t *testing.T) {
	if err := Wait(context.Background(), 0); err != nil {
		t.Fatalf("Wait(0) = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Wait(ctx, time.Hour); err != context.Canceled {
		t.Fatalf("Wait on a done context = %v, want %v", err, context.Canceled)
	}
}
