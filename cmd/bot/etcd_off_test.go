//go:build noetcd

package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestEtcdNotBuiltIn: a bot built with -tags noetcd refuses etcd
// endpoints in one line that says how to build it, and touches no file.
func TestEtcdNotBuiltIn(t *testing.T) {
	t.Setenv("BOT_STORAGE_PATH", filepath.Join(t.TempDir(), "bot.db"))
	t.Setenv("BOT_STORAGE_ETCD_ENDPOINTS", "127.0.0.1:2379")
	for _, args := range [][]string{{"run"}, {"console"}} {
		var stdout, stderr bytes.Buffer
		code := runMain(context.Background(), args, &stdout, &stderr)
		msg := stderr.String()
		if code != 1 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "go build ./cmd/bot") {
			t.Errorf("bot %s: exit %d, %q; want one line saying how to build with etcd", args[0], code, msg)
		}
	}
}
