package ops

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// searchBuckets are the histograms' buckets of the computer's searches,
// in seconds: level 1 answers in a millisecond, level 5 in up to
// computer.max_time; a wait may be longer.
var searchBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// computerMetrics are the histograms of the computer's searches, by level.
type computerMetrics struct {
	took, waited [6]prometheus.Observer // by level, 1 to 5
}

func newComputerMetrics(f factory) computerMetrics {
	took := f.histogramVec("computer_search_duration_seconds", "How long the computer searched for a move, by level (1-5).", searchBuckets, "level")
	waited := f.histogramVec("computer_search_wait_seconds",
		"How long a search of the computer waited for its turn (computer.searches run at once, taking turns between users), by level.", searchBuckets, "level")
	var c computerMetrics
	for l := 1; l <= 5; l++ {
		c.took[l], c.waited[l] = took.WithLabelValues(strconv.Itoa(l)), waited.WithLabelValues(strconv.Itoa(l))
	}
	return c
}

// Searched implements sessions.Metrics.
func (m *Metrics) Searched(level int, waited, took time.Duration) {
	level = min(max(level, 1), 5)
	m.search.waited[level].Observe(waited.Seconds())
	m.search.took[level].Observe(took.Seconds())
}

// Computer counts the computer's searches running and waiting for their
// turn, as c says at each scrape (*ai.Player).
func (m *Metrics) Computer(c interface {
	Running() int
	Waiting() int
}) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: "computer_searches_running",
			Help: "Searches of the computer running now (at most computer.searches)."},
			func() float64 { return float64(c.Running()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: "computer_searches_waiting",
			Help: "Searches of the computer waiting for their turn now."},
			func() float64 { return float64(c.Waiting()) }))
}
