package pace

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestChatLimit: a chat's burst, one more every Every, the last message
// of the burst kept for news; a group's messages a minute, a quarter of
// them kept for news.
func TestChatLimit(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const s = time.Second
	c := Limits{Burst: 3, Every: s, Group: 8, Window: time.Minute}
	type step struct {
		at         time.Duration // after t0
		group      bool
		news, look time.Duration // the waits before the send
		send       bool
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"a private chat's burst", []step{
			{0, false, 0, 0, true},
			{0, false, 0, 0, true},
			{0, false, 0, s, true}, // the last of the burst: news only
			{0, false, s, 2 * s, false},
			{s / 2, false, s / 2, 3 * s / 2, false},
			{10 * s, false, 0, 0, false},
		}},
		{"a group's minute", []step{
			{0, true, 0, 0, true}, {2 * s, true, 0, 0, true}, {4 * s, true, 0, 0, true},
			{6 * s, true, 0, 0, true}, {8 * s, true, 0, 0, true}, {10 * s, true, 0, 0, true},
			{12 * s, true, 0, 48 * s, true}, // six of eight sent: the rest is news's
			{14 * s, true, 0, 48 * s, true},
			{16 * s, true, 44 * s, 48 * s, false},
			{time.Minute, true, 0, 4 * s, false}, // the send at 0 is out of the window
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l ChatLimit
			for i, st := range tc.steps {
				now := t0.Add(st.at)
				if got := l.Wait(c, st.group, now, News); got != st.news {
					t.Fatalf("step %d: news waits %v, want %v", i, got, st.news)
				}
				if got := l.Wait(c, st.group, now, Lookup); got != st.look {
					t.Fatalf("step %d: a lookup waits %v, want %v", i, got, st.look)
				}
				if st.send {
					l.Count(c, st.group, now)
				}
			}
			if !l.Idle(c, t0.Add(time.Hour)) {
				t.Fatal("not idle an hour later")
			}
		})
	}
}

// TestPacer: at most N sends in any Per, a done context leaves the line.
func TestPacer(t *testing.T) {
	clk := &stepClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := &Pacer{N: 2, Per: time.Second}
	var working atomic.Int64
	for i := range 3 {
		if err := p.Take(context.Background(), clk, &working); err != nil {
			t.Fatalf("take %d: %v", i, err)
		}
	}
	if clk.slept != time.Second {
		t.Fatalf("slept %v for the third send, want 1s", clk.slept)
	}
	if p.InLine() != 0 || working.Load() != 0 {
		t.Fatalf("%d in line, %d working after the sends", p.InLine(), working.Load())
	}
	if err := p.Take(context.Background(), clk, &working); err != nil || clk.slept != time.Second {
		t.Fatalf("the fourth take: %v, slept %v in all", err, clk.slept)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	clk.fail = true
	if err := p.Take(ctx, clk, &working); err == nil {
		t.Fatal("a take that must wait on a done context went")
	}
	if p.InLine() != 0 {
		t.Fatalf("%d in line after a take gave up", p.InLine())
	}
}

// stepClock moves its time by each Sleep at once.
type stepClock struct {
	now   time.Time
	slept time.Duration
	fail  bool // Sleep returns its context's error
}

func (c *stepClock) Now() time.Time { return c.now }

func (c *stepClock) Sleep(ctx context.Context, d time.Duration) error {
	if c.fail {
		return ctx.Err()
	}
	c.now, c.slept = c.now.Add(d), c.slept+d
	return nil
}
