package sessions

import (
	"bytes"
	"context"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"time"
)

// DefaultCommitWatchdog is WatchdogConfig.Bound's default.
const DefaultCommitWatchdog = 30 * time.Second

// Watchdog watches the transactions of a store (every Commit and
// PutTournament through the Store that Wrap returns). It times each one
// itself, from its start to its return. One that has run longer than its
// bound is logged once, with the stacks of the goroutines inside the
// store's transactions (the one holding the store among them), and Stuck
// reports it until it returns: a store that loops or waits for ever
// inside a transaction holds every other commit of the bot behind it, and
// nothing else would tell anyone. A readiness check asks Stuck.
type Watchdog struct {
	bound time.Duration
	now   func() time.Time
	log   *slog.Logger

	mu      sync.Mutex
	next    uint64
	running map[uint64]*watched
}

// WatchdogConfig configures a Watchdog.
type WatchdogConfig struct {
	// Bound is how long one transaction may run before the watchdog logs
	// it and reports it stuck (0: DefaultCommitWatchdog).
	Bound time.Duration
	// Now is the clock (nil: time.Now); the Service's, so that tests move
	// both.
	Now func() time.Time
	// Log takes the stuck transactions (nil: none).
	Log *slog.Logger
}

// watched is one transaction in progress.
type watched struct {
	since time.Time
	// goroutine is the header of the stack of the goroutine that runs
	// it ("goroutine 42 "), which picks its stack out of all of them.
	goroutine []byte
	logged    bool
}

// NewWatchdog returns a watchdog with nothing to watch yet: give the
// Service the store that Wrap returns.
func NewWatchdog(c WatchdogConfig) *Watchdog {
	w := &Watchdog{bound: c.Bound, now: c.Now, log: c.Log, running: map[uint64]*watched{}}
	if w.bound <= 0 {
		w.bound = DefaultCommitWatchdog
	}
	if w.now == nil {
		w.now = time.Now
	}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	return w
}

// Wrap returns store with its Commit and PutTournament timed by w; its
// other methods are store's. It is a SharedStore when store is one.
func (w *Watchdog) Wrap(store Store) Store {
	ws := watchedStore{Store: store, w: w}
	if sh, ok := store.(SharedStore); ok {
		return &watchedShared{watchedStore: ws, shared: sh}
	}
	return &ws
}

// watchedStore is a Store whose transactions a Watchdog times.
type watchedStore struct {
	Store
	w *Watchdog
}

// Commit is the store's Commit, timed.
func (s *watchedStore) Commit(ctx context.Context, c *Change) error {
	defer s.w.watch()()
	return s.Store.Commit(ctx, c)
}

// PutTournament is the store's PutTournament, timed.
func (s *watchedStore) PutTournament(ctx context.Context, t *Tournament) error {
	defer s.w.watch()()
	return s.Store.PutTournament(ctx, t)
}

// watchedShared is a watchedStore over a SharedStore.
type watchedShared struct {
	watchedStore
	shared SharedStore
}

// Changed is the store's Changed.
func (s *watchedShared) Changed(ctx context.Context, key Key) (bool, error) {
	return s.shared.Changed(ctx, key)
}

// DueBefore is the store's DueBefore.
func (s *watchedShared) DueBefore(ctx context.Context, t time.Time) ([]LiveEntry, error) {
	return s.shared.DueBefore(ctx, t)
}

// Bound is how long a transaction may run before it counts as stuck.
func (w *Watchdog) Bound() time.Duration { return w.bound }

// watch registers a transaction that starts now on the calling goroutine;
// the returned func ends it.
func (w *Watchdog) watch() func() {
	x := &watched{since: w.now(), goroutine: goroutineHeader()}
	w.mu.Lock()
	w.next++
	id := w.next
	w.running[id] = x
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		delete(w.running, id)
		w.mu.Unlock()
	}
}

// goroutineHeader returns the start of the calling goroutine's stack as
// runtime.Stack prints it, "goroutine 42 ", or nil when it cannot tell.
func goroutineHeader() []byte {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	if !bytes.HasPrefix(b, []byte(prefix)) {
		return nil
	}
	n := len(prefix)
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	if n == len(prefix) || n >= len(b) || b[n] != ' ' {
		return nil
	}
	return slices.Clone(b[:n+1])
}

// Stuck reports whether a transaction of the store has run longer than
// the bound and has not returned, and since when the oldest such one runs.
func (w *Watchdog) Stuck() (since time.Time, ok bool) {
	now := w.now()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, x := range w.running {
		if now.Sub(x.since) > w.bound && (!ok || x.since.Before(since)) {
			since, ok = x.since, true
		}
	}
	return since, ok
}

// Check logs each transaction that has run longer than the bound, once,
// with the goroutines inside the store's transactions. Run calls it;
// tests call it with a fake clock.
func (w *Watchdog) Check() {
	now := w.now()
	var late []time.Time
	var inside [][]byte
	w.mu.Lock()
	for _, x := range w.running {
		if !x.logged && now.Sub(x.since) > w.bound {
			x.logged = true
			late = append(late, x.since)
		}
		if x.goroutine != nil {
			inside = append(inside, x.goroutine)
		}
	}
	w.mu.Unlock()
	if len(late) == 0 {
		return
	}
	stacks := goroutineStacks(inside)
	for _, since := range late {
		w.log.Error("a store transaction has run longer than its bound: every other commit may be waiting behind it",
			"since", since, "running", now.Sub(since).Round(time.Millisecond), "bound", w.bound, "goroutines", stacks)
	}
}

// Run calls Check every tenth of the bound (at most every second) until
// ctx is done. It runs on its own: the clocks' Run may itself wait behind
// the stuck transaction.
func (w *Watchdog) Run(ctx context.Context) {
	every := min(max(w.bound/10, 10*time.Millisecond), time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.Check()
		}
	}
}

// goroutineStacks returns the stacks of the goroutines whose headers are
// given (all of them when none is found).
func goroutineStacks(headers [][]byte) string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out [][]byte
	for g := range bytes.SplitSeq(buf, []byte("\n\n")) {
		for _, h := range headers {
			if bytes.HasPrefix(g, h) {
				out = append(out, g)
				break
			}
		}
	}
	if len(out) == 0 {
		return string(buf)
	}
	return string(bytes.Join(out, []byte("\n\n")))
}
