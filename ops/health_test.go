package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/ops"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// get answers a GET of path on h: the status and the decoded body.
func get(t *testing.T, h http.Handler, path string, body any) int {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%s: content type %q", path, ct)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), body); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, rec.Body)
	}
	return rec.Code
}

// TestHealthzLoops: /healthz is 200 while the clocks' loop turns or does
// not run in this process (standby), 503 once it has been silent for
// longer than it may be, and 200 again when it turns.
func TestHealthzLoops(t *testing.T) {
	c := sessionstest.NewClock(time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC))
	h := ops.NewHealth(c.Now)
	clocks := h.Loop("clocks", 5*time.Second)
	h.Alive("sessions", func(context.Context) error { return nil })
	mux := ops.Mux(nil, h)
	for _, step := range []struct {
		name  string
		do    func()
		code  int
		state string
	}{
		{"not started", func() {}, 200, "standby"},
		{"started", clocks.Start, 200, "turning"},
		{"silent a while", func() { c.Add(clocks.Silence()) }, 200, "turning"},
		{"silent too long", func() { c.Add(time.Second) }, 503, "stuck: no turn for 1m1s"},
		{"turns again", clocks.Beat, 200, "turning"},
		{"stuck again", func() { c.Add(2 * clocks.Silence()) }, 503, "stuck: no turn for 2m0s"},
		{"stopped (no longer leads)", clocks.Stop, 200, "standby"},
	} {
		step.do()
		var r ops.HealthReport
		code := get(t, mux, "/healthz", &r)
		if code != step.code || r.Loops["clocks"] != step.state || r.Healthy != (code == 200) || r.Checks["sessions"] != "ok" {
			t.Errorf("%s: %d %+v; want %d, clocks %q", step.name, code, r, step.code, step.state)
		}
	}
}

// TestReadyz: /readyz is ready when the store answers and every platform
// is connected or retrying; a platform starting or stopped, or a store
// that fails or does not answer within a second, makes it 503, saying
// which in the body.
func TestReadyz(t *testing.T) {
	h := ops.NewHealth(nil)
	var storeErr error
	h.Ready("store", func(context.Context) error { return storeErr })
	tg, dc := h.Platform("telegram"), h.Platform("discord")
	mux := ops.Mux(nil, h)
	for _, step := range []struct {
		name   string
		do     func()
		code   int
		store  string
		tg, dc string
	}{
		{"starting", func() {}, 503, "ok", "starting", "starting"},
		{"telegram up", func() { tg.Set(ops.Connected) }, 503, "ok", "connected", "starting"},
		{"both up", func() { dc.Set(ops.Connected) }, 200, "ok", "connected", "connected"},
		{"discord retrying", func() { dc.Set(ops.Retrying) }, 200, "ok", "connected", "retrying"},
		{"store fails", func() { storeErr = errors.New("etcd: no leader") }, 503, "etcd: no leader", "connected", "retrying"},
		{"store back", func() { storeErr = nil }, 200, "ok", "connected", "retrying"},
		{"telegram stopped", func() { tg.Set(ops.Stopped) }, 503, "ok", "stopped", "retrying"},
	} {
		step.do()
		var r ops.ReadyReport
		code := get(t, mux, "/readyz", &r)
		if code != step.code || r.Ready != (code == 200) || r.Checks["store"] != step.store ||
			r.Platforms["telegram"] != step.tg || r.Platforms["discord"] != step.dc {
			t.Errorf("%s: %d %+v", step.name, code, r)
		}
	}
}

// TestReadyzStoreHangs: a store that does not answer makes /readyz fail
// after ProbeTimeout; while that read still hangs, the next /readyz waits
// for it rather than reading again (reads never pile up), and fails too;
// once it returns, the next /readyz reads again and is ready.
func TestReadyzStoreHangs(t *testing.T) {
	h := ops.NewHealth(nil)
	release := make(chan struct{})
	calls := 0
	h.Ready("store", func(ctx context.Context) error {
		calls++   // one call at a time: no data race
		<-release // a read that ignores its context
		return nil
	})
	mux := ops.Mux(nil, h)
	var r ops.ReadyReport
	if code := get(t, mux, "/readyz", &r); code != 503 || r.Checks["store"] != "no answer within 1s" {
		t.Fatalf("hanging store: %d %+v", code, r)
	}
	if code := get(t, mux, "/readyz", &r); code != 503 || !strings.Contains(r.Checks["store"], "the previous check has not returned yet") {
		t.Fatalf("store still hanging: %d %+v", code, r)
	}
	close(release)
	if code := get(t, mux, "/readyz", &r); code != 200 || r.Checks["store"] != "ok" {
		t.Fatalf("store answering again: %d %+v", code, r)
	}
	if calls != 2 {
		t.Fatalf("the store was read %d times, want 2 (the hanging read, and one after it returned)", calls)
	}
}

// TestProbe: a platform whose adapter can say whether it is connected now
// (Discord's gateway) is connected while it is, retrying once it was and
// is not, starting before it ever was, and stopped once stopped.
func TestProbe(t *testing.T) {
	p := ops.NewHealth(nil).Platform("discord")
	up := false
	p.Probe(func() bool { return up })
	for _, step := range []struct {
		do   func()
		want ops.PlatformState
	}{
		{func() {}, ops.Starting},
		{func() { up = true }, ops.Connected},
		{func() { up = false }, ops.Retrying},
		{func() { up = true }, ops.Connected},
		{func() { p.Set(ops.Stopped) }, ops.Stopped},
	} {
		step.do()
		if got := p.State(); got != step.want {
			t.Errorf("up %v: %v, want %v", up, got, step.want)
		}
	}
}

// TestWatch: the platform is connected while its API answers (4xx is an
// answer: a refused call), retrying when it cannot be reached or answers
// 5xx.
func TestWatch(t *testing.T) {
	status := 200
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) }))
	h := ops.NewHealth(nil)
	p := h.Platform("telegram")
	client := &http.Client{Transport: ops.Watch(nil, p)}
	call := func() {
		if resp, err := client.Get(srv.URL); err == nil {
			resp.Body.Close()
		}
	}
	for _, step := range []struct {
		status int
		want   ops.PlatformState
	}{{200, ops.Connected}, {502, ops.Retrying}, {429, ops.Connected}, {401, ops.Connected}} {
		status = step.status
		call()
		if got := p.State(); got != step.want {
			t.Errorf("answer %d: %v, want %v", step.status, got, step.want)
		}
	}
	srv.Close()
	call()
	if got := p.State(); got != ops.Retrying {
		t.Errorf("server gone: %v, want retrying", got)
	}
}
