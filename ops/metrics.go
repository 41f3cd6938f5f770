package ops

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/boardgamebot/bot/sessions"
)

// Namespace starts the name of every metric of the bot.
const Namespace = "boardgamebot"

// Other is the label value of a platform or command outside the known
// ones (a command nobody knows, a platform of a test).
const Other = "other"

// Platforms lists the platforms whose metrics carry their own name.
func Platforms() []string { return []string{"console", "telegram", "discord", "web"} }

// The values of the outcome label of the commands.
const (
	OutcomeApplied     = "applied"
	OutcomeRefused     = "refused"
	OutcomeRateLimited = "rate_limited"
	OutcomeError       = "error"
)

var outcomes = []string{OutcomeApplied, OutcomeRefused, OutcomeRateLimited, OutcomeError}

// Options say what the metrics are of.
type Options struct {
	// Store is the store's kind: "bbolt" or "etcd".
	Store string
	// Version is the bot's version; empty: Version().
	Version string
	// Commands are the names of the commands of the language, the values
	// of commands_total's command label (any other counts as Other).
	Commands []string
	// Clocks is the clocks' loop, which every pass of the clocks beats
	// (Ticked); nil: none.
	Clocks *Loop
}

// Metrics are the bot's Prometheus metrics, on a registry of their own.
// They implement sessions.Metrics and count what chat answers (Handled); the methods that
// count are quick and never block.
type Metrics struct {
	reg       *prometheus.Registry
	store     string
	clocks    *Loop
	platforms []string
	names     []string // the commands of the language

	commands     *prometheus.CounterVec
	moves        prometheus.Counter
	commit       prometheus.Observer
	conflicts    prometheus.Counter
	unknown      prometheus.Counter
	commitErrors prometheus.Counter
	loaded       prometheus.Counter
	fired        map[sessions.Deadline]prometheus.Counter
	ticks        prometheus.Counter
	leader       *prometheus.GaugeVec
	msgs         messages
	search       computerMetrics
}

// New returns the metrics of a bot on the store o.Store, with the
// standard Go and process collectors and the build's information.
func New(o Options) *Metrics {
	if o.Version == "" {
		o.Version = Version()
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := &Metrics{reg: reg, store: o.Store, clocks: o.Clocks, platforms: Platforms(), names: o.Commands,
		fired: map[sessions.Deadline]prometheus.Counter{}}
	f := factory{reg}
	build := f.gaugeVec("build_info", "The bot's build: its version, the Go version and the kind of store it runs on; always 1.",
		"version", "go_version", "store")
	build.WithLabelValues(o.Version, runtime.Version(), o.Store).Set(1)

	m.commands = f.counterVec("commands_total", "Commands answered, by platform, command (other: none of the language's) and outcome (applied, refused, rate_limited, error).",
		"platform", "command", "outcome")
	// Every series from the first scrape, at 0: rate() and increase() see
	// the first command after a start, not only the second.
	for _, p := range m.platforms {
		for _, c := range append(slices.Clone(m.names), Other) {
			for _, o := range outcomes {
				m.commands.WithLabelValues(p, c, o)
			}
		}
	}
	store := prometheus.Labels{"store": o.Store}
	m.moves = f.counterVec("moves_committed_total", "Moves committed to the store (players', the computer's and the clock's).", "store").With(store)
	m.commit = f.histogramVec("commit_duration_seconds", "How long the store took to commit a change of a session (a move, a challenge, the end of a game), committed or not.",
		[]float64{.0005, .001, .002, .005, .01, .02, .05, .1, .25, .5, 1, 2.5, 5}, "store").With(store)
	failures := f.counterVec("commit_failures_total",
		"Commits that failed: conflict (another process changed the session first; the command is judged again), unknown (the store cannot tell whether it was saved: etcd lost its answer) or error.",
		"store", "reason")
	m.conflicts = failures.WithLabelValues(o.Store, "conflict")
	m.unknown = failures.WithLabelValues(o.Store, "unknown")
	m.commitErrors = failures.WithLabelValues(o.Store, "error")
	m.loaded = f.counter("sessions_loaded_total", "Live sessions read from the store into memory (first use after a start, or after leaving memory).")
	fired := f.counterVec("clock_deadlines_fired_total", "Clocks that came due: reminder, auto_move (the time ran out: the computer plays for the player) or expired (a challenge nobody answered).",
		"kind")
	for _, d := range sessions.Deadlines() {
		m.fired[d] = fired.WithLabelValues(deadlineLabel(d))
	}
	m.ticks = f.counter("clock_ticks_total", "Passes of the clocks over the games due (in the process that runs them).")
	m.msgs = newMessages(f)
	m.search = newComputerMetrics(f)
	m.leader = f.gaugeVec("etcd_leader", "1 while this process leads an etcd election (clocks: it runs the clocks; telegram_poll: it polls Telegram), else 0.",
		"election")
	return m
}

// Registry returns the registry of the metrics, for more collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the exposition format (/metrics).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Sessions counts the live sessions that svc holds in memory (a gauge
// read at each scrape).
func (m *Metrics) Sessions(svc interface{ Resident() int }) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: "sessions_resident",
		Help: "Live sessions held in memory (at most sessions.resident); the others stay in the store until used."},
		func() float64 { return float64(svc.Resident()) }))
}

// Tournaments counts the tournaments in sign-up and running, as active
// returns them (the store's index of active tournaments), read at each
// scrape within a second; a failed read leaves the gauge out of that
// scrape.
func (m *Metrics) Tournaments(active func(ctx context.Context) ([]*sessions.Tournament, error)) {
	m.reg.MustRegister(&tournaments{active: active, desc: prometheus.NewDesc(Namespace+"_tournaments",
		"Tournaments in sign-up (signup) and being played (running).", []string{"status"}, nil)})
}

// Leading records whether this process leads the etcd election (clocks,
// telegram_poll).
func (m *Metrics) Leading(election string, on bool) {
	v := 0.0
	if on {
		v = 1
	}
	m.leader.WithLabelValues(election).Set(v)
}

// Committed implements sessions.Metrics.
func (m *Metrics) Committed(took time.Duration, move bool, err error) {
	m.commit.Observe(took.Seconds())
	switch {
	case err == nil:
		if move {
			m.moves.Inc()
		}
	case errors.Is(err, sessions.ErrConflict):
		m.conflicts.Inc()
	case errors.Is(err, sessions.ErrUnknownOutcome):
		m.unknown.Inc()
	default:
		m.commitErrors.Inc()
	}
}

// Loaded implements sessions.Metrics.
func (m *Metrics) Loaded() { m.loaded.Inc() }

// Fired implements sessions.Metrics.
func (m *Metrics) Fired(d sessions.Deadline) {
	if c := m.fired[d]; c != nil {
		c.Inc()
	}
}

// Ticked implements sessions.Metrics: it also beats the clocks' loop.
func (m *Metrics) Ticked() {
	m.ticks.Inc()
	m.clocks.Beat()
}

// Handled counts a command answered on platform: command is one of
// Options.Commands (else it counts as Other), outcome one of the Outcome
// labels (else it counts as OutcomeError).
func (m *Metrics) Handled(platform, command, outcome string) {
	if !slices.Contains(outcomes, outcome) {
		outcome = OutcomeError
	}
	m.commands.WithLabelValues(m.platform(platform), known(m.names, command), outcome).Inc()
}

// platform is the label value of a platform: its name when it is one of
// Platforms, else Other.
func (m *Metrics) platform(p string) string { return known(m.platforms, p) }

// known is v when it is one of values, else Other.
func known(values []string, v string) string {
	if slices.Contains(values, v) {
		return v
	}
	return Other
}

func deadlineLabel(d sessions.Deadline) string {
	switch d {
	case sessions.DeadlineReminder:
		return "reminder"
	case sessions.DeadlineAutoMove:
		return "auto_move"
	}
	return "expired"
}

// Version is the bot's version as the build recorded it: the module's
// version, else the commit (with "+dirty" for uncommitted changes), else
// "devel".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}

// factory makes metrics of the bot's namespace and registers them.
type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help})
	f.reg.MustRegister(c)
	return c
}

func (f factory) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) histogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: name, Help: help, Buckets: buckets}, labels)
	f.reg.MustRegister(h)
	return h
}

func (f factory) gaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help}, labels)
	f.reg.MustRegister(g)
	return g
}
