package etcdstore

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"go.etcd.io/etcd/client/pkg/v3/transport"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Config is how Open reaches etcd.
type Config struct {
	// Endpoints are the members' client addresses, host:port (or
	// http(s)://host:port).
	Endpoints []string
	// Prefix is put before every key (DefaultPrefix when empty): several
	// bots share one cluster under different prefixes.
	Prefix string
	// Username and Password, when set, log in (etcd's authentication).
	Username, Password string
	// CAFile checks the members' certificates (TLS); CertFile and KeyFile
	// are the client's certificate, when the members ask for one.
	CAFile, CertFile, KeyFile string
	// DialTimeout bounds Open's first contact; 0 means 5 seconds.
	DialTimeout time.Duration
	// Log receives damaged records; nil discards.
	Log *slog.Logger
	// Community is Options.Community.
	Community func(sessions.Key) string
}

// Open connects to etcd, checks that it answers within DialTimeout and
// brings the store's records up to this bot (Migrate). Close closes the
// connection.
func Open(ctx context.Context, c Config) (*Store, error) {
	cli, err := dial(ctx, &c)
	if err != nil {
		return nil, err
	}
	s := New(cli, Options{Prefix: c.Prefix, Log: c.Log, Community: c.Community})
	s.own = true
	tctx, cancel := context.WithTimeout(ctx, c.DialTimeout)
	defer cancel()
	if _, err := cli.Get(tctx, s.nextKey(), clientv3.WithCountOnly()); err != nil {
		cli.Close()
		return nil, fmt.Errorf("etcdstore: etcd at %s does not answer: %w", strings.Join(c.Endpoints, ","), err)
	}
	if err := s.Migrate(ctx); err != nil {
		cli.Close()
		return nil, err
	}
	return s, nil
}

// dial makes the client of c (with its defaults filled in); it does not
// wait for an answer.
func dial(ctx context.Context, c *Config) (*clientv3.Client, error) {
	if len(c.Endpoints) == 0 {
		return nil, fmt.Errorf("etcdstore: no endpoints")
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = 5 * time.Second
	}
	var tc *tls.Config
	if c.CAFile != "" || c.CertFile != "" || c.KeyFile != "" {
		info := transport.TLSInfo{TrustedCAFile: c.CAFile, CertFile: c.CertFile, KeyFile: c.KeyFile}
		var err error
		if tc, err = info.ClientConfig(); err != nil {
			return nil, fmt.Errorf("etcdstore: TLS files: %w", err)
		}
	}
	eps := make([]string, len(c.Endpoints))
	for i, e := range c.Endpoints {
		eps[i] = e
		if tc != nil && !strings.Contains(e, "://") {
			eps[i] = "https://" + e
		}
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: eps, DialTimeout: c.DialTimeout, Username: c.Username, Password: c.Password,
		TLS: tc, Logger: zap.NewNop(), Context: ctx})
	if err != nil {
		return nil, fmt.Errorf("etcdstore: connecting to %s: %w", strings.Join(c.Endpoints, ","), err)
	}
	return cli, nil
}
