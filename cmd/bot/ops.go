package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/ops"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
)

// probeKey is the session /readyz reads from the store: nobody plays
// there, so the read finds nothing (an answer all the same).
func probeKey() sessions.Key { return sessions.Key{Platform: "ops", Channel: "readyz"} }

// operations is what the operator sees of the running bot, served on
// metrics.listen: the metrics and the health endpoints. A nil
// *operations (metrics.listen empty) counts nothing and serves nothing.
type operations struct {
	metrics *ops.Metrics
	health  *ops.Health
	clocks  *ops.Loop
	// ln is the listener of metrics.listen; nil when it is web.listen too:
	// the web board serves the endpoints beside its pages (mount).
	ln net.Listener
}

// newOperations listens on metrics.listen and makes the metrics of a bot on
// store (its kind: bbolt or etcd) and its health checks; nil when
// metrics.listen is empty. Serve them with serve, or, when metrics.listen
// is web.listen, on the web board's server (mount).
func newOperations(c config, store sessions.Store, kind string) (*operations, error) {
	if c.Metrics.Listen == "" {
		return nil, nil
	}
	var ln net.Listener
	if c.Metrics.Listen != c.Web.Listen {
		var err error
		if ln, err = net.Listen("tcp", c.Metrics.Listen); errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("metrics.listen: %w (another program has that port, as Prometheus has 9090: choose a port of the bot's own, like %s)", err, metricsExample)
		}
		if err != nil {
			return nil, fmt.Errorf("metrics.listen: %w", err)
		}
	}
	h := ops.NewHealth(nil)
	o := &operations{health: h, clocks: h.Loop("clocks", time.Duration(c.Clocks.Tick)), ln: ln}
	o.metrics = ops.New(ops.Options{Store: kind, Clocks: o.clocks, Commands: chat.CommandNames()})
	o.metrics.Tournaments(store.ActiveTournaments)
	h.Ready("store", func(ctx context.Context) error {
		_, err := store.Load(ctx, probeKey())
		if errors.Is(err, sessions.ErrNotFound) {
			return nil
		}
		return err
	})
	return o, nil
}

// sessionsMetrics returns what the sessions service counts into: nil when
// metrics are off.
func (o *operations) sessionsMetrics() sessions.Metrics {
	if o == nil {
		return nil
	}
	return o.metrics
}

// observer returns what counts the commands: nil when metrics are off.
func (o *operations) observer() chat.Observer {
	if o == nil {
		return nil
	}
	return chat.LabelObserver(o.metrics.Handled)
}

// watch adds the checks on the sessions service: /healthz asks it to take
// its lock, /readyz that no commit of its store is stuck (w, the watchdog
// over its store), the metrics count its sessions in memory.
func (o *operations) watch(svc *sessions.Service, w *sessions.Watchdog) {
	if o == nil {
		return
	}
	o.metrics.Sessions(svc)
	o.health.Alive("sessions", func(ctx context.Context) error {
		svc.Resident()
		return nil
	})
	o.health.Ready("commits", func(ctx context.Context) error {
		if since, stuck := w.Stuck(); stuck {
			return fmt.Errorf("a commit has run since %s, longer than storage.commit_watchdog (%s)", since.UTC().Format(time.RFC3339), w.Bound())
		}
		return nil
	})
}

// computer counts the computer's searches running and waiting.
func (o *operations) computer(c *ai.Player) {
	if o != nil {
		o.metrics.Computer(c)
	}
}

// platform adds a configured platform to /readyz; nil when metrics are
// off (its methods then do nothing).
func (o *operations) platform(name string) *ops.Platform {
	if o == nil {
		return nil
	}
	return o.health.Platform(name)
}

// clocksLoop is the loop of the clocks that /healthz watches (nil when
// metrics are off: its methods then do nothing).
func (o *operations) clocksLoop() *ops.Loop {
	if o == nil {
		return nil
	}
	return o.clocks
}

// messages returns the counters of a platform's messages; nil when
// metrics are off.
func (o *operations) messages(platform string) *ops.Messages {
	if o == nil {
		return nil
	}
	return o.metrics.Messages(platform)
}

// waiting counts the messages waiting in a platform's queue, as n says.
func (o *operations) waiting(platform string, n func() int) {
	if o != nil {
		o.metrics.Waiting(platform, n)
	}
}

// mount serves the endpoints on the web board's server srv, when
// metrics.listen is web.listen; it reports whether it did.
func (o *operations) mount(srv ops.Mounter) bool {
	if o == nil || o.ln != nil {
		return false
	}
	ops.Register(srv, o.metrics, o.health)
	return true
}

// whileLeading returns run, which the metrics count as this process
// leading the etcd election (clocks, telegram_poll) while it runs; the
// election counts as not led until then.
func (o *operations) whileLeading(election string, run func(context.Context)) func(context.Context) {
	if o == nil {
		return run
	}
	o.metrics.Leading(election, false)
	return func(ctx context.Context) {
		o.metrics.Leading(election, true)
		defer o.metrics.Leading(election, false)
		run(ctx)
	}
}

// serve serves /metrics, /healthz and /readyz until the returned stop is
// called (or ctx is done); stop waits for the server to shut down.
func (o *operations) serve(ctx context.Context, log *slog.Logger) (stop func()) {
	if o == nil || o.ln == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := ops.Serve(ctx, o.ln, ops.Mux(o.metrics, o.health)); err != nil {
			log.Error("metrics server stopped", "err", err)
		}
	}()
	log.Info("metrics and health served", "address", o.ln.Addr().String())
	if everyInterface(o.ln.Addr().String()) {
		log.Warn("metrics.listen is every interface: /metrics, /healthz and /readyz are public (bot doctor says what to do)", "address", o.ln.Addr().String())
	}
	return func() {
		cancel()
		wg.Wait()
	}
}
