//go:build noetcd

package main

import (
	"context"
	"errors"
	"io"
)

// migrate refuses: this bot was built without the etcd client.
func migrate(ctx context.Context, c config, eps []string, toEtcd, force bool, stdout io.Writer) error {
	return errors.New("this bot was built without etcd (-tags noetcd): build it with go build ./cmd/bot to migrate")
}
