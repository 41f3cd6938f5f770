package main

import (
	"context"
	"fmt"
	"io"
)

// cmdMigrate copies the bot's data between its two stores: --to etcd
// from the bbolt file of storage.path into the etcd of storage.etcd,
// --to bbolt back. The source is only read; the copy is checked record
// by record against it.
func cmdMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl, path := configFlags("migrate")
	to := fl.String("to", "", "the store to copy into: `etcd` (from the bbolt file of storage.path into storage.etcd) or bbolt (from storage.etcd into storage.path)")
	force := fl.Bool("force", false, "replace what the target holds (without it, migrate refuses a target that is not empty)")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (usage: bot migrate [--config FILE] --to etcd|bbolt [--force])", clipArg(fl.Arg(0)))
	}
	c, err := loadEnvConfig(*path)
	if err != nil {
		return err
	}
	eps := c.etcdEndpoints()
	switch {
	case *to != "etcd" && *to != "bbolt":
		return fmt.Errorf("--to %q: say --to etcd (bbolt file into etcd) or --to bbolt (etcd into the bbolt file)", clipArg(*to))
	case len(eps) == 0 && *to == "bbolt":
		return fmt.Errorf("storage.etcd.endpoints is not set, so the bot keeps its data in %s already: the source would be the target (set BOT_STORAGE_ETCD_ENDPOINTS to the etcd to copy from)", c.Storage.Path)
	case len(eps) == 0:
		return fmt.Errorf("storage.etcd.endpoints is not set: set it (or BOT_STORAGE_ETCD_ENDPOINTS) to the etcd to copy %s into", c.Storage.Path)
	}
	return migrate(ctx, c, eps, *to == "etcd", *force, stdout)
}

const migrateNote = `The bbolt file is storage.path (BOT_STORAGE_PATH); etcd is storage.etcd
(BOT_STORAGE_ETCD_ENDPOINTS, _PREFIX, ...), as bot run reads them. Stop every bot
on both first. The source is only read; a target that is not empty is refused
unless --force. Request ids are not copied.
`
