package ops

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"
)

// ProbeTimeout is how long /healthz and /readyz wait for each check (the
// store's read): longer, and the check fails.
const ProbeTimeout = time.Second

// Health answers /healthz (the process is alive and its loops turn) and
// /readyz (the store answers a read within ProbeTimeout, and every
// configured platform is connected or retrying), each with a JSON body
// that says which check failed, so that a supervisor or a load balancer
// can route around a sick process. It is safe for concurrent use.
type Health struct {
	now func() time.Time

	mu        sync.Mutex
	alive     []*probe
	ready     []*probe
	loops     []*Loop
	platforms []*Platform
}

// NewHealth returns a Health with no check yet; now is its clock (nil:
// time.Now), for the loops' silences.
func NewHealth(now func() time.Time) *Health {
	if now == nil {
		now = time.Now
	}
	return &Health{now: now}
}

// Alive adds a check of /healthz: f answers when the process works (the
// sessions service takes its lock), within ProbeTimeout.
func (h *Health) Alive(name string, f func(ctx context.Context) error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.alive = append(h.alive, newProbe(name, f))
}

// Ready adds a check of /readyz: f must succeed within ProbeTimeout (the
// store: a read).
func (h *Health) Ready(name string, f func(ctx context.Context) error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ready = append(h.ready, newProbe(name, f))
}

// Loop adds a loop that /healthz watches, which turns every every while
// it runs; it is not running until its Start.
func (h *Health) Loop(name string, every time.Duration) *Loop {
	h.mu.Lock()
	defer h.mu.Unlock()
	l := &Loop{name: name, every: every, now: h.now}
	h.loops = append(h.loops, l)
	return l
}

// Platform adds a configured platform that /readyz reports; it is
// Starting until its adapter says it is connected.
func (h *Health) Platform(name string) *Platform {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := &Platform{name: name}
	h.platforms = append(h.platforms, p)
	return p
}

// HealthReport is the body of /healthz.
type HealthReport struct {
	Healthy bool `json:"healthy"`
	// Checks say "ok" or why not, by check (sessions).
	Checks map[string]string `json:"checks"`
	// Loops say "turning", "standby" (it does not run in this process) or
	// "stuck: ...", by loop (clocks).
	Loops map[string]string `json:"loops"`
}

// ReadyReport is the body of /readyz.
type ReadyReport struct {
	Ready bool `json:"ready"`
	// Checks say "ok" or why not, by check (store).
	Checks map[string]string `json:"checks"`
	// Platforms say each configured platform's state: starting,
	// connected, retrying or stopped.
	Platforms map[string]string `json:"platforms"`
}

// Healthz runs the checks of /healthz.
func (h *Health) Healthz(ctx context.Context) HealthReport {
	h.mu.Lock()
	alive, loops := append([]*probe(nil), h.alive...), append([]*Loop(nil), h.loops...)
	h.mu.Unlock()
	r := HealthReport{Healthy: true, Checks: map[string]string{}, Loops: map[string]string{}}
	r.Healthy = run(ctx, alive, r.Checks)
	for _, l := range loops {
		s, ok := l.state()
		r.Loops[l.name] = s
		r.Healthy = r.Healthy && ok
	}
	return r
}

// Readyz runs the checks of /readyz.
func (h *Health) Readyz(ctx context.Context) ReadyReport {
	h.mu.Lock()
	ready, platforms := append([]*probe(nil), h.ready...), append([]*Platform(nil), h.platforms...)
	h.mu.Unlock()
	r := ReadyReport{Checks: map[string]string{}, Platforms: map[string]string{}}
	r.Ready = run(ctx, ready, r.Checks)
	for _, p := range platforms {
		s := p.State()
		r.Platforms[p.name] = s.String()
		r.Ready = r.Ready && (s == Connected || s == Retrying)
	}
	return r
}

// run runs the probes at once and writes their results in out; it reports
// whether all of them succeeded.
func run(ctx context.Context, probes []*probe, out map[string]string) bool {
	errs := make([]error, len(probes))
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = p.ask(ctx)
		}()
	}
	wg.Wait()
	ok := true
	for i, p := range probes {
		out[p.name] = "ok"
		if errs[i] != nil {
			out[p.name], ok = errs[i].Error(), false
		}
	}
	return ok
}

// HealthzHandler serves /healthz: 200 when healthy, else 503; the body is
// the HealthReport.
func (h *Health) HealthzHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rep := h.Healthz(r.Context())
		answer(w, rep.Healthy, rep)
	})
}

// ReadyzHandler serves /readyz: 200 when ready, else 503; the body is the
// ReadyReport.
func (h *Health) ReadyzHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rep := h.Readyz(r.Context())
		answer(w, rep.Ready, rep)
	})
}

func answer(w http.ResponseWriter, ok bool, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_ = json.NewEncoder(w).Encode(body)
}

// probe is one check, asked with ProbeTimeout to answer. One call at a
// time: while a call has not returned (a store that hangs), the next ask
// waits for it within its own timeout instead of calling again, so that
// calls never pile up.
type probe struct {
	name string
	f    func(ctx context.Context) error
	// free holds a token while a call runs.
	free chan struct{}
}

func newProbe(name string, f func(ctx context.Context) error) *probe {
	return &probe{name: name, f: f, free: make(chan struct{}, 1)}
}

func (p *probe) ask(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	select {
	case p.free <- struct{}{}:
	case <-ctx.Done():
		return errors.New("no answer within " + ProbeTimeout.String() + ": the previous check has not returned yet")
	}
	done := make(chan error, 1)
	go func() {
		err := p.f(ctx)
		<-p.free
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return errors.New("no answer within " + ProbeTimeout.String())
	}
}
