package sessions

import (
	"bytes"
	"context"
	"log/slog"
	"reflect"
	"runtime"
	"sync"
	"time"
)

// DefaultCommitWatchdog is Config.CommitWatchdog's default.
const DefaultCommitWatchdog = 30 * time.Second

// Watchdog watches the store's transactions (every Store.Commit and
// Store.PutTournament of the Service). One that has run longer than its
// bound is logged once, with the stacks of the goroutines in the store's
// code (the one holding the transaction among them), and Stuck reports it
// until it returns: a store that loops or waits for ever inside a
// transaction holds every other commit of the bot behind it, and nothing
// else would tell anyone. A readiness check asks Stuck.
type Watchdog struct {
	bound time.Duration
	now   func() time.Time
	log   *slog.Logger
	// marks pick the goroutines logged: those in the store's package's
	// functions, and those waiting for the store in the Service.
	marks [][]byte

	mu      sync.Mutex
	next    uint64
	running map[uint64]*watched
}

// watched is one transaction in progress.
type watched struct {
	since  time.Time
	logged bool
}

func newWatchdog(bound time.Duration, now func() time.Time, log *slog.Logger, store Store) *Watchdog {
	if bound <= 0 {
		bound = DefaultCommitWatchdog
	}
	self := reflect.TypeFor[Service]().PkgPath() + ".(*Service)."
	marks := [][]byte{[]byte("\n" + self + "storeCommit("), []byte("\n" + self + "storePut(")}
	if pkg := storePackage(store); pkg != "" {
		marks = append(marks, []byte("\n"+pkg+"."))
	}
	return &Watchdog{bound: bound, now: now, log: log, marks: marks, running: map[uint64]*watched{}}
}

// storePackage is the import path of the package of store's type: of the
// type it embeds first, for a type that wraps another.
func storePackage(store Store) string {
	t := reflect.TypeOf(store)
	for t != nil {
		switch {
		case t.Kind() == reflect.Pointer:
			t = t.Elem()
		case t.Kind() == reflect.Struct && t.NumField() > 0 && t.Field(0).Anonymous:
			t = t.Field(0).Type
		default:
			return t.PkgPath()
		}
	}
	return ""
}

// Watchdog returns the Service's watchdog over its store's transactions.
func (s *Service) Watchdog() *Watchdog { return s.watchdog }

// storeCommit is Store.Commit under the watchdog.
func (s *Service) storeCommit(ctx context.Context, c *Change) error {
	defer s.watchdog.watch()()
	return s.store.Commit(ctx, c)
}

// storePut is Store.PutTournament under the watchdog.
func (s *Service) storePut(ctx context.Context, t *Tournament) error {
	defer s.watchdog.watch()()
	return s.store.PutTournament(ctx, t)
}

// Bound is how long a transaction may run before it counts as stuck.
func (w *Watchdog) Bound() time.Duration { return w.bound }

// watch registers a transaction that starts now; the returned func ends it.
func (w *Watchdog) watch() func() {
	w.mu.Lock()
	w.next++
	id := w.next
	w.running[id] = &watched{since: w.now()}
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		delete(w.running, id)
		w.mu.Unlock()
	}
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
// with the goroutines in the store's code. Run calls it; tests call it
// with a fake clock.
func (w *Watchdog) Check() {
	now := w.now()
	var late []time.Time
	w.mu.Lock()
	for _, x := range w.running {
		if !x.logged && now.Sub(x.since) > w.bound {
			x.logged = true
			late = append(late, x.since)
		}
	}
	w.mu.Unlock()
	for _, since := range late {
		w.log.Error("a store transaction has run longer than its bound: every other commit may be waiting behind it",
			"since", since, "running", now.Sub(since).Round(time.Millisecond), "bound", w.bound, "goroutines", w.stacks())
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

// stacks returns the stacks of the goroutines in the store's code or
// waiting for it (all of them when none is).
func (w *Watchdog) stacks() string {
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
		for _, m := range w.marks {
			if bytes.Contains(g, m) {
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
