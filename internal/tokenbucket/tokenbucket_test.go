package tokenbucket

import (
	"testing"
	"time"
)

func TestBucket(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const s = time.Second
	type step struct {
		at    time.Duration // after t0
		take  float64
		level float64       // before the take
		wait  time.Duration // for one token, after the take
	}
	for _, tc := range []struct {
		name  string
		r     Rate
		steps []step
	}{
		{"a burst then one a second", Rate{Size: 3, Gain: 1, Per: s}, []step{
			{0, 1, 3, 0}, {0, 1, 2, 0}, {0, 1, 1, s}, {s / 2, 0, 0.5, s / 2}, {s, 1, 1, s}, {10 * s, 0, 3, 0},
		}},
		{"8 in 10 s", Rate{Size: 8, Gain: 8, Per: 10 * s}, []step{
			{0, 8, 8, 1250 * time.Millisecond}, {5 * s, 0, 4, 0}, {time.Hour, 0, 8, 0},
		}},
		{"a debt", Rate{Size: 2, Gain: 1, Per: s}, []step{
			{0, 3, 2, 2 * s}, {s, 0, 0, s},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b Bucket
			for i, st := range tc.steps {
				now := t0.Add(st.at)
				if got := b.Level(tc.r, now); got != st.level {
					t.Fatalf("step %d: level %v, want %v", i, got, st.level)
				}
				b.Take(tc.r, now, st.take)
				if got := b.Wait(tc.r, now, 1); got != st.wait {
					t.Fatalf("step %d: wait %v, want %v", i, got, st.wait)
				}
			}
		})
	}
}

// TestBackwards: a clock that goes back neither fills nor empties a
// bucket.
func TestBackwards(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := Rate{Size: 2, Gain: 1, Per: time.Second}
	var b Bucket
	b.Take(r, t0, 2)
	if got := b.Level(r, t0.Add(-time.Hour)); got != 0 {
		t.Fatalf("level before the last take = %v, want 0", got)
	}
	b.Fill(r, t0.Add(-time.Hour))
	if got := b.Level(r, t0.Add(time.Second)); got != 1 {
		t.Fatalf("level a second after = %v, want 1", got)
	}
}
