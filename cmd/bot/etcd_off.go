//go:build noetcd

package main

import (
	"context"
	"errors"
	"log/slog"
)

// openEtcd refuses: this bot was built without the etcd client, which
// takes the binary from about 17 to 29 MB (grpc): `go build -tags noetcd`
// builds the small bot without it.
func openEtcd(ctx context.Context, c config, eps []string, log *slog.Logger) (botStore, string, error) {
	return nil, "", errors.New("storage.etcd.endpoints is set, but this bot was built without etcd (-tags noetcd): build it with go build ./cmd/bot (or unset the endpoints to use the bbolt file)")
}

// doctorEtcd says that this bot cannot reach etcd.
func doctorEtcd(ctx context.Context, d *doctor, c config) {
	_, _, err := openEtcd(ctx, c, nil, nil)
	d.bad(err.Error(), "build the bot with etcd, or unset storage.etcd.endpoints")
}
