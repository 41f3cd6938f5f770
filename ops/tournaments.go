package ops

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/boardgamebot/bot/sessions"
)

// tournaments collects the tournaments in sign-up and running at each
// scrape, from the store's index of active tournaments.
type tournaments struct {
	active func(ctx context.Context) ([]*sessions.Tournament, error)
	desc   *prometheus.Desc
}

// Describe implements prometheus.Collector.
func (t *tournaments) Describe(ch chan<- *prometheus.Desc) { ch <- t.desc }

// Collect implements prometheus.Collector: a store that does not answer
// within a second leaves the gauge out of this scrape.
func (t *tournaments) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	list, err := t.active(ctx)
	if err != nil {
		return
	}
	n := map[sessions.TourStatus]int{}
	for _, x := range list {
		n[x.Status]++
	}
	for _, s := range []sessions.TourStatus{sessions.StatusSignup, sessions.StatusRunning} {
		ch <- prometheus.MustNewConstMetric(t.desc, prometheus.GaugeValue, float64(n[s]), string(s))
	}
}
