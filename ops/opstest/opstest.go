// Package opstest reads the bot's metrics for tests: it scrapes /metrics,
// parses the exposition with the Prometheus client's own text parser, and
// checks that every label value of the bot's metrics is in its bounded set.
package opstest

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/boardgamebot/bot/ops"
)

// Families are the metric families of one scrape, by name.
type Families map[string]*dto.MetricFamily

// Scrape gets url (a /metrics) and parses the answer; it fails the test
// when the answer is not 200 or does not parse.
func Scrape(t testing.TB, url string) Families {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("scraping %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("scraping %s: %d %v\n%s", url, resp.StatusCode, err, body)
	}
	return Parse(t, string(body))
}

// Parse parses an exposition in the text format.
func Parse(t testing.TB, text string) Families {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the exposition does not parse: %v\n%s", err, text)
	}
	return fams
}

// Value returns the value of the metric name with the labels given as
// "name=value" pairs (other labels any), summed over the series that
// match: a counter's or gauge's value, a histogram's count. ok is false
// when no series matches.
func (f Families) Value(name string, labels ...string) (v float64, ok bool) {
	fam := f[name]
	if fam == nil {
		return 0, false
	}
	for _, m := range fam.GetMetric() {
		if !matches(m, labels) {
			continue
		}
		ok = true
		switch {
		case m.Counter != nil:
			v += m.Counter.GetValue()
		case m.Gauge != nil:
			v += m.Gauge.GetValue()
		case m.Histogram != nil:
			v += float64(m.Histogram.GetSampleCount())
		case m.Untyped != nil:
			v += m.Untyped.GetValue()
		}
	}
	return v, ok
}

// Sum returns the sum of the observations of the histogram name with the
// labels given.
func (f Families) Sum(name string, labels ...string) float64 {
	var s float64
	if fam := f[name]; fam != nil {
		for _, m := range fam.GetMetric() {
			if matches(m, labels) && m.Histogram != nil {
				s += m.Histogram.GetSampleSum()
			}
		}
	}
	return s
}

func matches(m *dto.Metric, labels []string) bool {
	for _, l := range labels {
		k, v, _ := strings.Cut(l, "=")
		if !slices.ContainsFunc(m.GetLabel(), func(p *dto.LabelPair) bool { return p.GetName() == k && p.GetValue() == v }) {
			return false
		}
	}
	return true
}

// Bounds are the sets each label of the bot's metrics takes its values
// from, commands being the command names the metrics were given;
// build_info's version and go_version are free (one series).
func Bounds(commands []string) map[string][]string {
	levels := []string{}
	for l := 1; l <= 5; l++ {
		levels = append(levels, strconv.Itoa(l))
	}
	return map[string][]string{
		"platform": append(ops.Platforms(), ops.Other),
		"command":  append(slices.Clone(commands), ops.Other),
		"outcome":  {ops.OutcomeApplied, ops.OutcomeRefused, ops.OutcomeRateLimited, ops.OutcomeError},
		"store":    {"bbolt", "etcd"},
		"reason":   {"conflict", "unknown", "error"},
		"kind":     {"reminder", "auto_move", "expired"},
		"election": {"clocks", "telegram_poll"},
		"status":   {"signup", "running"},
		"level":    levels,
	}
}

// CheckLabels fails the test for a label of the bot's metrics (those of
// ops.Namespace) whose value is not in its bounded set (Bounds), and for a
// label that has no bounded set.
func CheckLabels(t testing.TB, f Families, commands []string) {
	t.Helper()
	bounds := Bounds(commands)
	for name, fam := range f {
		if !strings.HasPrefix(name, ops.Namespace+"_") {
			continue
		}
		for _, m := range fam.GetMetric() {
			for _, l := range m.GetLabel() {
				if name == ops.Namespace+"_build_info" && (l.GetName() == "version" || l.GetName() == "go_version") {
					continue
				}
				set, ok := bounds[l.GetName()]
				if !ok || !slices.Contains(set, l.GetValue()) {
					t.Errorf("%s: label %s", name, describe(l, set, ok))
				}
			}
		}
	}
}

func describe(l *dto.LabelPair, set []string, bounded bool) string {
	if !bounded {
		return fmt.Sprintf("%s=%q has no bounded set of values", l.GetName(), l.GetValue())
	}
	return fmt.Sprintf("%s=%q is not one of %v", l.GetName(), l.GetValue(), set)
}
