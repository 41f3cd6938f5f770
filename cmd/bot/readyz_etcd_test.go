//go:build !noetcd

package main

import (
	"testing"
	"time"

	"github.com/boardgamebot/bot/ops"
	"github.com/boardgamebot/bot/ops/opstest"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
)

// TestReadyzFollowsEtcd: a console on etcd serves /readyz (and counts
// itself the clocks' leader in /metrics); when etcd stops
// the store cannot answer a read and /readyz turns unready (503, saying
// the store's error); when etcd is back, /readyz is ready again, and the
// game goes on.
func TestReadyzFollowsEtcd(t *testing.T) {
	e, endpoint, err := etcdtest.Start(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { e.Close() }()
	c := consoleConfig(t, "/nonexistent/never-opened.db")
	c.Storage.Etcd.Endpoints = endpoint
	c.Metrics.Listen = "127.0.0.1:0"
	run := startConsole(t, c)
	base := run.address(t)
	run.say(t, "/play spanish @bob color=white\n/as bob\n/accept\n", "Game on")

	// until waits for /readyz to say ready (or not): each read takes up
	// to ProbeTimeout; etcd's client reconnects in its own time.
	until := func(ready bool) ops.ReadyReport {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			var r ops.ReadyReport
			code := getJSON(t, base+"/readyz", &r)
			if r.Ready == ready && (code == 200) == ready {
				return r
			}
			if time.Now().After(deadline) {
				t.Fatalf("/readyz still %d %+v after a minute", code, r)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if r := until(true); r.Checks["store"] != "ok" {
		t.Fatalf("ready with the store %q", r.Checks["store"])
	}
	// The only process leads the clocks once the election says so.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		f := opstest.Scrape(t, base+"/metrics")
		if v, _ := f.Value("boardgamebot_etcd_leader", "election=clocks"); v == 1 {
			if b, _ := f.Value("boardgamebot_build_info", "store=etcd"); b != 1 {
				t.Fatalf("build_info store=etcd: %v", b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("etcd_leader{election=clocks} is not 1 after a minute")
		}
	}
	e.Close()
	if r := until(false); r.Checks["store"] == "ok" {
		t.Fatalf("unready with the store ok: %+v", r)
	}
	if e, err = etcdtest.Restart(e); err != nil {
		t.Fatal(err)
	}
	until(true)
	run.say(t, "/as alice\n/move b3-a4\n", "alice (White) played b3-a4")
	run.stop(t) // before etcd, which would wait for its client
}
