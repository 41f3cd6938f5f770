package sessions_test

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestWatchdog: a commit that does not return is reported stuck once it
// has run longer than the bound (on the Service's clock), and logged
// once, with the stack of the goroutine inside the store; when it
// returns, nothing is stuck.
func TestWatchdog(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	wait := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	var logs bytes.Buffer
	store := sessionstest.NewMemoryStore()
	log := slog.New(slog.NewTextHandler(&logs, nil))
	w := sessions.NewWatchdog(sessions.WatchdogConfig{Bound: 30 * time.Second, Now: clock, Log: log})
	s := sessions.New(sessions.Config{Store: w.Wrap(store), Games: sessionstest.Games, Now: clock, Rand: func(int) int { return 0 },
		Log: log})
	setups["playing"](t, s)
	if _, ok := w.Stuck(); ok {
		t.Fatal("stuck before any commit hangs")
	}
	entered, release := make(chan struct{}), make(chan struct{})
	store.Fail = func(*sessions.Change) error {
		entered <- struct{}{}
		<-release
		return nil
	}
	done := make(chan error)
	go func() {
		_, err := s.Move(ctx, req(alice), "1")
		done <- err
	}()
	<-entered
	start := clock()
	logged := func() int { return strings.Count(logs.String(), "longer than its bound") }
	steps := []struct {
		wait  time.Duration
		stuck bool
	}{{0, false}, {30 * time.Second, false}, {time.Second, true}, {time.Hour, true}}
	for _, st := range steps {
		wait(st.wait)
		w.Check()
		since, ok := w.Stuck()
		if ok != st.stuck || ok && !since.Equal(start) {
			t.Fatalf("after %v: Stuck() = %v, %v; want %v since %v", clock().Sub(start), since, ok, st.stuck, start)
		}
		want := 0
		if st.stuck {
			want = 1
		}
		if n := logged(); n != want {
			t.Fatalf("after %v: logged %d times, want %d:\n%s", clock().Sub(start), n, want, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "sessionstest.(*MemoryStore).Commit(") {
		t.Fatalf("the log has no stack of the goroutine in the store:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), "sessions_test.TestWatchdog(") {
		t.Fatalf("the log has the stacks of goroutines outside the store (the test's):\n%s", logs.String())
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if since, ok := w.Stuck(); ok {
		t.Fatalf("stuck since %v after the commit returned", since)
	}
}
