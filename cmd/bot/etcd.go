//go:build !noetcd

package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/boardgamebot/bot/storage/etcdstore"
)

// etcdStore is the etcd store as the bot uses it: the clocks run in the
// process that leads them.
type etcdStore struct{ *etcdstore.Store }

func (s etcdStore) leadClocks(ctx context.Context, run func(context.Context)) {
	s.Lead(ctx, processName(), etcdstore.LeaderTTL, run)
}

// leadPolling runs poll while this process is the one that polls
// Telegram (the election etcdstore.PollElection).
func (s etcdStore) leadPolling(ctx context.Context, poll func(context.Context)) {
	s.LeadElection(ctx, etcdstore.PollElection, processName(), etcdstore.LeaderTTL, poll)
}

// processName names this process in the elections: host/pid.
func processName() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d", host, os.Getpid())
}

// openEtcd opens the etcd store of storage.etcd; where names it for logs.
func openEtcd(ctx context.Context, c config, eps []string, log *slog.Logger) (botStore, string, error) {
	s, where, err := openEtcdStore(ctx, c, eps, log)
	if err != nil {
		return nil, "", err
	}
	return etcdStore{s}, where, nil
}

// openEtcdStore opens the etcd store of storage.etcd; where names it.
func openEtcdStore(ctx context.Context, c config, eps []string, log *slog.Logger) (*etcdstore.Store, string, error) {
	e := c.Storage.Etcd
	s, err := etcdstore.Open(ctx, etcdstore.Config{Endpoints: eps, Prefix: e.Prefix, Username: e.Username, Password: e.Password,
		CAFile: e.CAFile, CertFile: e.CertFile, KeyFile: e.KeyFile, DialTimeout: time.Duration(e.DialTimeout), Log: log, Community: legacyCommunity})
	if err != nil {
		return nil, "", fmt.Errorf("%w (storage.etcd.endpoints)", err)
	}
	return s, "etcd " + strings.Join(eps, ",") + " " + e.Prefix, nil
}

// doctorEtcd checks each endpoint of storage.etcd (its version) and counts
// the keys under the prefix; it writes nothing.
func doctorEtcd(ctx context.Context, d *doctor, c config) {
	e := c.Storage.Etcd
	in, err := etcdstore.Inspect(ctx, etcdstore.Config{Endpoints: c.etcdEndpoints(), Prefix: e.Prefix, Username: e.Username,
		Password: e.Password, CAFile: e.CAFile, CertFile: e.CertFile, KeyFile: e.KeyFile, DialTimeout: time.Duration(e.DialTimeout)})
	if err != nil {
		d.bad("etcd: "+err.Error(), "check storage.etcd's TLS files")
		return
	}
	answered := false
	for _, m := range in.Members {
		if m.Err != nil {
			d.bad(fmt.Sprintf("etcd %s: no answer within %s (%v)", m.Endpoint, time.Duration(e.DialTimeout), m.Err),
				"is etcd running there? check storage.etcd.endpoints, the network, the TLS files and the user")
			continue
		}
		answered = true
		d.ok("etcd %s: etcd %s", m.Endpoint, m.Version)
	}
	if !answered {
		return // the keys cannot be counted either
	}
	if in.KeysErr != nil {
		d.bad("etcd: "+in.KeysErr.Error(), "check that etcd has a leader (etcdctl endpoint status) and that the user may read the prefix")
		return
	}
	d.ok("etcd prefix %s: %d keys", e.Prefix, in.Keys)
}
