//go:build !etcd

package main

import (
	"context"
	"errors"
	"log/slog"
)

// openEtcd refuses: this bot was built without the etcd client, which
// would more than double the binary (grpc); `go build -tags etcd` has it.
func openEtcd(ctx context.Context, c config, eps []string, log *slog.Logger) (botStore, string, error) {
	return nil, "", errors.New("storage.etcd.endpoints is set, but this bot was built without etcd: build it with go build -tags etcd ./cmd/bot (or unset the endpoints to use the bbolt file)")
}
