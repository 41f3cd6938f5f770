//go:build !noetcd

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/boardgamebot/bot/storage/dump"
	"github.com/boardgamebot/bot/storage/etcdstore"
)

// migrate copies the bbolt file into etcd (toEtcd) or etcd into the
// bbolt file, refusing a target that is not empty unless force, and a
// store a running bot uses; then it checks every record of the copy.
func migrate(ctx context.Context, c config, eps []string, toEtcd, force bool, stdout io.Writer) error {
	log := slog.New(slog.DiscardHandler)
	e, where, err := openEtcdStore(ctx, c, eps, log)
	if err != nil {
		return err
	}
	defer e.Close()
	if n, err := e.Running(ctx); err != nil {
		return err
	} else if n > 0 {
		return fmt.Errorf("%d bot process(es) run on %s: stop them first (a migration copies a store nobody writes)", n, where)
	}
	began := time.Now()
	if toEtcd {
		return migrateToEtcd(ctx, c, e, where, force, began, stdout)
	}
	return migrateToBbolt(ctx, c, e, where, force, began, stdout)
}

func migrateToEtcd(ctx context.Context, c config, e *etcdstore.Store, where string, force bool, began time.Time, stdout io.Writer) error {
	path := c.Storage.Path
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("there is no database at %s (storage.path) to copy", path)
	}
	src, err := openStore(path, bolt.Options{ReadOnly: true, Timeout: 300 * time.Millisecond})
	if errors.Is(err, bolt.ErrLocked) {
		return fmt.Errorf("%s is in use by a running bot: stop it first (a migration copies a store nobody writes)", path)
	}
	if err != nil {
		return err
	}
	defer src.Close()
	n, err := e.Keys(ctx)
	if err != nil {
		return err
	}
	if n > 0 && !force {
		return fmt.Errorf("%s already holds %d keys: copy into an empty prefix (storage.etcd.prefix), or add --force to replace them", where, n)
	}
	if n > 0 {
		if n, err = e.DeleteAll(ctx); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "--force: deleted the %d keys %s held\n", n, where)
	}
	t, err := dump.Copy(ctx, src, e)
	if err != nil {
		return fmt.Errorf("copying %s into %s: %w (the source is as it was; run migrate again with --force)", path, where, err)
	}
	got, err := dump.TallyOf(ctx, e)
	if err == nil {
		err = t.Diff(got)
	}
	if err != nil {
		return fmt.Errorf("checking the copy in %s: %w (the source is as it was; run migrate again with --force)", where, err)
	}
	migrated(stdout, path, where, t, time.Since(began))
	return nil
}

func migrateToBbolt(ctx context.Context, c config, e *etcdstore.Store, where string, force bool, began time.Time, stdout io.Writer) error {
	path := c.Storage.Path
	var replaced string
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		old, err := openStore(path, bolt.Options{ReadOnly: true, Timeout: 300 * time.Millisecond})
		if errors.Is(err, bolt.ErrLocked) {
			return fmt.Errorf("%s is in use by a running bot: stop it first", path)
		}
		if err != nil {
			return err
		}
		t, err := dump.TallyOf(ctx, old)
		old.Close()
		if err != nil {
			return fmt.Errorf("%s: %w; move it aside to copy into a new file", path, err)
		}
		switch {
		case t.Total() > 0 && !force:
			return fmt.Errorf("%s already holds %s: add --force to replace it, or set storage.path to a new file", path, counts(t))
		case t.Total() > 0:
			replaced = counts(t)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return err
	}
	// The copy goes to a new file beside path, renamed over it once checked.
	f, err := os.CreateTemp(filepath.Dir(path), ".migrate-*.db")
	if err != nil {
		return err
	}
	tmp := f.Name()
	f.Close()
	defer os.Remove(tmp) // after the rename, nothing
	dst, err := bolt.Open(tmp, bolt.Options{})
	if err != nil {
		return err
	}
	t, err := dump.Copy(ctx, e, dst)
	if err != nil {
		dst.Close()
		return fmt.Errorf("copying %s into %s: %w (%s is as it was)", where, path, err, path)
	}
	got, err := dump.TallyOf(ctx, dst)
	if err == nil {
		err = t.Diff(got)
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("checking the copy of %s: %w (%s is as it was)", where, err, path)
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if replaced != "" {
		fmt.Fprintf(stdout, "--force: replaced %s, which held %s\n", path, replaced)
	}
	migrated(stdout, where, path, t, time.Since(began))
	return nil
}

// migrated reports a finished copy: what it copied where, and how many
// records of each kind.
func migrated(w io.Writer, from, to string, t *dump.Tally, took time.Duration) {
	fmt.Fprintf(w, "copied %s into %s in %s: %d records, each checked against the source\n", from, to, took.Round(time.Millisecond), t.Total())
	for _, k := range dump.Kinds() {
		fmt.Fprintf(w, "  %-11s %d\n", k, t.Count[k])
	}
	fmt.Fprintln(w, "(request ids are not copied: they only catch duplicate deliveries, and no bot runs during a migration)")
}

// counts is a Tally's counts of the kinds it has (but the game
// counter), on one line.
func counts(t *dump.Tally) string {
	var parts []string
	for _, k := range dump.Kinds() {
		if n := t.Count[k]; n > 0 && k != dump.KindCounter {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	return strings.Join(parts, ", ")
}
