package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/boardgamebot/bot/storage/bolt"
)

// backupSocket is where a running bot answers `bot backup`: a Unix socket
// beside the database, readable by its owner only.
func backupSocket(db string) string { return db + ".sock" }

// cmdBackup copies the database to a file, consistently, whether the bot
// runs or not: when another process holds the database, it asks that
// process through the backup socket, which streams one read transaction
// (bbolt Tx.WriteTo); games go on meanwhile. The copy is checked.
func cmdBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl, path := configFlags("backup")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return errors.New("usage: bot backup [--config FILE] BACKUP.db")
	}
	out := fl.Arg(0)
	c, err := loadEnvConfig(*path)
	if err != nil {
		return err
	}
	if _, err := os.Stat(c.Storage.Path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("there is no database at %s (storage.path)", c.Storage.Path)
	}
	if same(out, c.Storage.Path) {
		return fmt.Errorf("the backup %s would overwrite the database itself", out)
	}
	var n int64
	store, err := openStore(c.Storage.Path, bolt.Options{Timeout: 300 * time.Millisecond})
	switch {
	case err == nil:
		n, err = store.BackupFile(out)
		if cerr := store.Close(); err == nil {
			err = cerr
		}
	case errors.Is(err, bolt.ErrLocked):
		n, err = backupFromRunningBot(ctx, backupSocket(c.Storage.Path), out)
	}
	if err != nil {
		return err
	}
	copyStore, err := bolt.Open(out, bolt.Options{})
	if err != nil {
		return fmt.Errorf("the copy %s does not open: %w", out, err)
	}
	err = copyStore.Check()
	if cerr := copyStore.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("the copy %s is damaged: %w", out, err)
	}
	fmt.Fprintf(stdout, "backup of %s: %d bytes in %s (checked)\n", c.Storage.Path, n, out)
	return nil
}

func same(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

// backupFromRunningBot asks the bot that holds the database for a copy
// and writes it to out (through a temporary file, synced, then renamed).
func backupFromRunningBot(ctx context.Context, sock, out string) (int64, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return 0, fmt.Errorf("the database is in use and the bot holding it does not answer on %s: %v", sock, err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "backup\n"); err != nil {
		return 0, fmt.Errorf("asking the bot for a backup: %w", err)
	}
	br := bufio.NewReader(conn)
	var head [8]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return 0, fmt.Errorf("the bot sent no backup: %w", err)
	}
	size := int64(binary.BigEndian.Uint64(head[:]))
	f, err := os.CreateTemp(filepath.Dir(out), ".backup-*")
	if err != nil {
		return 0, err
	}
	tmp := f.Name()
	n, err := io.Copy(f, io.LimitReader(br, size))
	if err == nil && n != size {
		err = fmt.Errorf("the bot sent %d bytes of %d", n, size)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, out)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("backup to %s: %w", out, err)
	}
	return n, nil
}

// serveBackups answers `bot backup` on the socket until ctx is done or
// the returned close is called.
func serveBackups(ctx context.Context, store *bolt.Store, sock string, log *slog.Logger) (func(), error) {
	if err := os.Remove(sock); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer conn.Close()
				conn.SetDeadline(time.Now().Add(10 * time.Minute))
				line, err := bufio.NewReader(io.LimitReader(conn, 64)).ReadString('\n')
				if err != nil || strings.TrimSpace(line) != "backup" {
					return
				}
				n, err := store.BackupSized(conn, func(size int64) error {
					_, err := conn.Write(binary.BigEndian.AppendUint64(nil, uint64(size)))
					return err
				})
				if err != nil {
					log.Error("backup failed", "err", err)
					return
				}
				log.Info("backup sent", "bytes", n)
			}()
		}
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			ln.Close()
			wg.Wait()
			os.Remove(sock)
		})
	}
	go func() {
		<-ctx.Done()
		stop()
	}()
	return stop, nil
}
