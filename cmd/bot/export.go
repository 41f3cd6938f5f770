package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// cmdExport writes a finished game as chat's /export makes it: PDN for
// the draughts games, the game's record otherwise. It reads the
// configured database, or --db (a backup, since a running bot holds its
// database), and writes to --out or standard output.
func cmdExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl, path := configFlags("export")
	db := fl.String("db", "", "the database `file` to read (default: storage.path), e.g. a backup")
	out := fl.String("out", "", "write to this `file` instead of standard output")
	platform := fl.String("platform", "console", "where the game was played: console, telegram or discord (game ids are per platform)")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() != 1 {
		return errors.New("usage: bot export [--config FILE] [--db FILE] [--platform P] [--out FILE] GAME-ID (/history lists the ids)")
	}
	c, err := loadEnvConfig(*path)
	if err != nil {
		return err
	}
	switch *platform {
	case "console", "telegram", "discord":
	default:
		return fmt.Errorf("--platform %q is not console, telegram or discord", *platform)
	}
	if *db == "" {
		*db = c.Storage.Path
	}
	if _, err := os.Stat(*db); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("there is no database at %s", *db)
	}
	store, err := openStore(*db, bolt.Options{Timeout: 300 * time.Millisecond})
	if errors.Is(err, bolt.ErrLocked) {
		return fmt.Errorf("%s is in use by the running bot: export from a backup (bot backup copy.db, then bot export --db copy.db %s)", *db, fl.Arg(0))
	}
	if err != nil {
		return err
	}
	defer store.Close()
	svc := sessions.New(sessions.Config{Store: store})
	defer svc.Close()
	h := chat.New(chat.Config{Sessions: svc})
	r := h.Handle(ctx, chat.Message{Key: sessions.Key{Platform: *platform, Channel: "export"},
		User: sessions.User{ID: "cli", Name: "cli"}, Text: "/export " + fl.Arg(0)})
	if r.Document == nil {
		return errors.New(r.Text())
	}
	if *out == "" {
		_, err = stdout.Write(r.Document.Data)
		return err
	}
	if err := os.WriteFile(*out, r.Document.Data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", *out, len(r.Document.Data))
	return nil
}
