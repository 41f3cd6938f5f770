package ops

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Messages counts one platform's outgoing messages: its adapter calls
// Sent, Retried, GaveUp and RateLimited (the adapters declare these as the
// small interfaces they need). The methods are quick and never block; they
// may be called on a nil *Messages (metrics off), doing nothing.
type Messages struct {
	sent, retried, gaveUp, limited, waited prometheus.Counter
}

// messages are the metrics of the messages, by platform.
type messages struct {
	sent, retried, gaveUp, limited, waited *prometheus.CounterVec
}

// newMessages makes the messages' metrics, with every platform's series
// at 0 from the first scrape.
func newMessages(f factory) messages {
	x := messages{
		sent:    f.counterVec("messages_sent_total", "Messages the platform took (posts, answers, edits of the bot's messages).", "platform"),
		retried: f.counterVec("messages_retried_total", "Messages tried again after a failure that may pass (a 429, a network fault, a 5xx).", "platform"),
		gaveUp: f.counterVec("messages_given_up_total",
			"Messages never delivered: the platform said they can never be (a 400, a blocked bot, a deleted chat), or the bot stopped before.", "platform"),
		limited: f.counterVec("rate_limited_total", "429 answers (Too Many Requests) of the platform.", "platform"),
		waited:  f.counterVec("rate_limit_wait_seconds_total", "Time the platform's 429 answers asked to wait (retry_after), summed.", "platform"),
	}
	for _, p := range Platforms() {
		for _, v := range []*prometheus.CounterVec{x.sent, x.retried, x.gaveUp, x.limited, x.waited} {
			v.WithLabelValues(p)
		}
	}
	return x
}

// Messages returns the counters of platform's messages.
func (m *Metrics) Messages(platform string) *Messages {
	p := m.platform(platform)
	x := m.msgs
	return &Messages{sent: x.sent.WithLabelValues(p), retried: x.retried.WithLabelValues(p), gaveUp: x.gaveUp.WithLabelValues(p),
		limited: x.limited.WithLabelValues(p), waited: x.waited.WithLabelValues(p)}
}

// Waiting counts the messages waiting in platform's queue, as n says at
// each scrape.
func (m *Metrics) Waiting(platform string, n func() int) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: "messages_waiting",
		Help: "Messages queued and not sent yet (the queue's depth).", ConstLabels: prometheus.Labels{"platform": m.platform(platform)}},
		func() float64 { return float64(n()) }))
}

// Sent counts a message the platform took.
func (x *Messages) Sent() {
	if x != nil {
		x.sent.Inc()
	}
}

// Retried counts a message tried again.
func (x *Messages) Retried() {
	if x != nil {
		x.retried.Inc()
	}
}

// GaveUp counts a message never delivered.
func (x *Messages) GaveUp() {
	if x != nil {
		x.gaveUp.Inc()
	}
}

// RateLimited counts a 429 answer that asked to wait d.
func (x *Messages) RateLimited(d time.Duration) {
	if x != nil {
		x.limited.Inc()
		x.waited.Add(d.Seconds())
	}
}

// Transport returns a transport that makes its requests with rt (nil:
// http.DefaultTransport) and counts what it sees of a client library that
// retries by itself (discordgo): every 429 with the wait it asks
// (Retry-After, or Discord's X-RateLimit-Reset-After), and every request
// that writes (not a GET) answered 429 or 502, which the library tries
// again, as retried.
func (x *Messages) Transport(rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	if x == nil {
		return rt
	}
	return counted{rt: rt, x: x}
}

type counted struct {
	rt http.RoundTripper
	x  *Messages
}

// RoundTrip implements http.RoundTripper.
func (c counted) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.rt.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		c.x.RateLimited(retryAfter(resp.Header))
	case http.StatusBadGateway:
	default:
		return resp, err
	}
	if r.Method != http.MethodGet {
		c.x.Retried()
	}
	return resp, err
}

// retryAfter is the wait a 429's headers ask for.
func retryAfter(h http.Header) time.Duration {
	for _, k := range []string{"X-RateLimit-Reset-After", "Retry-After"} {
		if s, err := strconv.ParseFloat(h.Get(k), 64); err == nil && s > 0 {
			return time.Duration(s * float64(time.Second))
		}
	}
	return 0
}
