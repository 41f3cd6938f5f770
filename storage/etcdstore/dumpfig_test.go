package etcdstore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/boardgamebot/bot/storage/dump"
	"github.com/boardgamebot/bot/storage/etcdstore"
	"github.com/boardgamebot/bot/storage/etcdstore/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// TestMigrateFigures times bot migrate's copies of a database of 10,000
// rated finished games (25 plies each, 200 players, 100 channels) and 100
// live games: into an etcd member that fsyncs, and back into a new bbolt
// file, each followed by its check. It prints the figures; it asserts
// only that the copies are equal (BOT_MIGRATE_GAMES sets the count).
func TestMigrateFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("figures: not with -short")
	}
	games := 10000
	if n, err := strconv.Atoi(os.Getenv("BOT_MIGRATE_GAMES")); err == nil && n > 1 {
		games = n
	}
	ctx := context.Background()
	dir := t.TempDir()
	src, err := bolt.Open(filepath.Join(dir, "src.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	// One real game, finished; then its record again and again, each
	// time between two of 200 players, with their ratings.
	fill(t, src, 1)
	proto, err := src.Finished(ctx, "1")
	if err != nil {
		t.Fatal(err)
	}
	for i := range games - 1 {
		rec := proto.Clone()
		rec.ID, rec.Ratings = "", nil
		rec.Key = sessions.Key{Platform: "console", Channel: fmt.Sprint("c", i%100)}
		rec.Seats = []sessions.User{{ID: fmt.Sprint("u", i%200), Name: fmt.Sprint("user", i%200)}, {ID: fmt.Sprint("u", (i*7+1)%200), Name: fmt.Sprint("user", (i*7+1)%200)}}
		if rec.Seats[0].ID == rec.Seats[1].ID {
			rec.Seats[1] = sessions.User{ID: "x", Name: "x"}
		}
		rate := &sessions.RateRequest{Platform: "console", Game: rec.Game, Month: "2026-11", Players: [2]sessions.User(rec.Seats), Score: float64(i % 2), Rated: true}
		if err := src.Commit(ctx, &sessions.Change{Key: rec.Key, Finished: rec, Rate: rate}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 100 {
		live, err := src.Load(ctx, sessions.Key{Platform: "console", Channel: "mid"})
		if err != nil {
			t.Fatal(err)
		}
		live.Key = sessions.Key{Platform: "console", Channel: fmt.Sprint("live", i)}
		if err := src.Commit(ctx, &sessions.Change{Key: live.Key, Live: live}); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "src.db"))
	if err != nil {
		t.Fatal(err)
	}

	e, endpoint, err := etcdtest.Start(filepath.Join(dir, "etcd"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	es := etcdstore.New(c, etcdstore.Options{})

	t0 := time.Now()
	copied, err := dump.Copy(ctx, src, es)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	got, err := dump.TallyOf(ctx, es)
	if err == nil {
		err = copied.Diff(got)
	}
	if err != nil {
		t.Fatal(err)
	}
	t2 := time.Now()
	back, err := bolt.Open(filepath.Join(dir, "back.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if _, err := dump.Copy(ctx, es, back); err != nil {
		t.Fatal(err)
	}
	t3 := time.Now()
	got, err = dump.TallyOf(ctx, back)
	if err == nil {
		err = copied.Diff(got)
	}
	if err != nil {
		t.Fatal(err)
	}
	t4 := time.Now()
	t.Logf("%d records (%v) from a %.1f MB bbolt file", copied.Total(), copied.Count, float64(fi.Size())/1e6)
	t.Logf("bbolt -> etcd (fsync): copy %v, check %v; etcd -> bbolt: copy %v, check %v",
		t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), t3.Sub(t2).Round(time.Millisecond), t4.Sub(t3).Round(time.Millisecond))
}
