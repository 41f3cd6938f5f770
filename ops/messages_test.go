package ops_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/ops"
)

// TestMessagesTransport: on the transport of a library that retries by
// itself, each 429 counts with the wait it asks, and a write answered 429
// or 502 counts as retried; the counts are the platform's alone, and the
// queue's depth is read at each scrape.
func TestMessagesTransport(t *testing.T) {
	answers := []struct {
		status int
		header string
	}{{429, "X-RateLimit-Reset-After: 1.5"}, {502, ""}, {200, ""}, {429, "Retry-After: 2"}, {404, ""}}
	next := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := answers[next]
		next++
		if k, v, ok := strings.Cut(a.header, ": "); ok {
			w.Header().Set(k, v)
		}
		w.WriteHeader(a.status)
	}))
	defer srv.Close()
	m := ops.New(ops.Options{Store: "bbolt"})
	msgs := m.Messages("discord")
	waiting := 3
	m.Waiting("discord", func() int { return waiting })
	client := &http.Client{Transport: msgs.Transport(nil)}
	for _, method := range []string{"POST", "PATCH", "POST", "GET", "POST"} {
		req, _ := http.NewRequest(method, srv.URL, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	msgs.Sent()
	msgs.GaveUp()
	mux := ops.Mux(m, ops.NewHealth(nil))
	hs := httptest.NewServer(mux)
	defer hs.Close()
	f := scrape(t, hs.URL)
	want(t, f, 2, "boardgamebot_rate_limited_total", "platform=discord")
	want(t, f, 3.5, "boardgamebot_rate_limit_wait_seconds_total", "platform=discord")
	want(t, f, 2, "boardgamebot_messages_retried_total", "platform=discord") // the POST 429 and the PATCH 502; not the GET
	want(t, f, 1, "boardgamebot_messages_sent_total", "platform=discord")
	want(t, f, 1, "boardgamebot_messages_given_up_total", "platform=discord")
	want(t, f, 3, "boardgamebot_messages_waiting", "platform=discord")
	want(t, f, 0, "boardgamebot_messages_sent_total", "platform=telegram")
}
