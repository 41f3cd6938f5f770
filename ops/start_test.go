package ops_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/ops"
)

// TestSeriesAtStart: the first scrape, before any command, lists every
// series of the counters with bounded labels at 0 (every command and
// other, on every platform, with every outcome; the commit failures'
// reasons; the clocks' kinds; each platform's messages), so that rate()
// and increase() see the first of each after a start. promlint finds
// nothing to say about the exposition.
func TestSeriesAtStart(t *testing.T) {
	b := newBot(t)
	f := b.scrape()
	bounds := ops.Platforms()
	commands := append(chat.CommandNames(), ops.Other)
	outcomes := []string{ops.OutcomeApplied, ops.OutcomeRefused, ops.OutcomeRateLimited, ops.OutcomeError}
	for _, p := range bounds {
		for _, c := range commands {
			for _, o := range outcomes {
				v, ok := f.Value("boardgamebot_commands_total", "platform="+p, "command="+c, "outcome="+o)
				if !ok || v != 0 {
					t.Errorf("commands_total{platform=%q,command=%q,outcome=%q} = %v (listed: %v), want 0 listed", p, c, o, v, ok)
				}
			}
		}
		for _, name := range []string{"messages_sent_total", "messages_retried_total", "messages_given_up_total", "rate_limited_total", "rate_limit_wait_seconds_total"} {
			if v, ok := f.Value("boardgamebot_"+name, "platform="+p); !ok || v != 0 {
				t.Errorf("%s{platform=%q} = %v (listed: %v), want 0 listed", name, p, v, ok)
			}
		}
	}
	if n, want := len(f["boardgamebot_commands_total"].GetMetric()), len(bounds)*len(commands)*len(outcomes); n != want {
		t.Errorf("commands_total has %d series at start, want %d (platforms × commands and other × outcomes)", n, want)
	}
	for _, r := range []string{"conflict", "unknown", "error"} {
		if v, ok := f.Value("boardgamebot_commit_failures_total", "store=bbolt", "reason="+r); !ok || v != 0 {
			t.Errorf("commit_failures_total{reason=%q} = %v (listed: %v), want 0 listed", r, v, ok)
		}
	}
	for _, k := range []string{"reminder", "auto_move", "expired"} {
		if v, ok := f.Value("boardgamebot_clock_deadlines_fired_total", "kind="+k); !ok || v != 0 {
			t.Errorf("clock_deadlines_fired_total{kind=%q} = %v (listed: %v), want 0 listed", k, v, ok)
		}
	}
	for _, name := range []string{"moves_committed_total", "sessions_loaded_total", "clock_ticks_total"} {
		if _, ok := f.Value("boardgamebot_" + name); !ok {
			t.Errorf("%s is not listed at start", name)
		}
	}

	problems, err := testutil.GatherAndLint(b.m.Registry())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("promlint: %s: %s", p.Metric, p.Text)
	}
}
