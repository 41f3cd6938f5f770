package etcdstore_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/boardgamebot/bot/storage/dump"
	"github.com/boardgamebot/bot/storage/etcdstore"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// telegramGroups names the community of a Telegram game of an older bot,
// as the bot does: a group's chat id is negative.
func telegramGroups(k sessions.Key) string {
	if k.Platform == "telegram" && strings.HasPrefix(k.Channel, "-") {
		return k.Channel
	}
	return ""
}

// issue28Kinds are the kinds of the rating history and community ladders.
var issue28Kinds = []string{dump.KindRated, dump.KindMember, dump.KindCommunityLadder}

// tallyOf counts the items of the kinds given of s.
func tallyOf(t *testing.T, s dump.Exporter, kinds []string) *dump.Tally {
	t.Helper()
	tl := dump.NewTally()
	if err := s.Export(context.Background(), func(it dump.Item) error {
		if slices.Contains(kinds, it.Kind) {
			return tl.Add(it)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return tl
}

// TestMigrateRatingHistory: a store written by an older bot (the
// records of storage/bolt/testdata/v2.db, without their rating history) gets
// its rating history and community ladders when a bot opens it, equal
// record for record to those the bbolt store builds of the same file;
// two processes opening it at once build them once, the same.
func TestMigrateRatingHistory(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bot.db")
	data, err := os.ReadFile(filepath.Join("..", "bolt", "testdata", "v2.db"))
	if err == nil {
		err = os.WriteFile(path, data, 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err := bolt.Open(path, bolt.Options{NoSync: true, Community: telegramGroups})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	want := tallyOf(t, b, issue28Kinds)
	if want.Count[dump.KindRated] == 0 || want.Count[dump.KindMember] == 0 || want.Count[dump.KindCommunityLadder] == 0 {
		t.Fatalf("the bbolt store built %v", want.Count)
	}
	// The older bot's records: everything but the rating history.
	var old []dump.Item
	if err := b.Export(ctx, func(it dump.Item) error {
		if !slices.Contains(issue28Kinds, it.Kind) {
			old = append(old, it)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	prefix := "/" + t.Name() + "/"
	t.Cleanup(func() { cli.Delete(context.Background(), prefix, clientv3.WithPrefix()) })
	if err := etcdstore.New(cli, etcdstore.Options{Prefix: prefix}).Import(ctx, old); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stores := make([]*etcdstore.Store, 2)
	errs := make([]error, 2)
	for i := range stores {
		wg.Go(func() {
			stores[i], errs[i] = etcdstore.Open(ctx, etcdstore.Config{Endpoints: cli.Endpoints(), Prefix: prefix, Community: telegramGroups})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("process %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	if err := want.Diff(tallyOf(t, stores[0], issue28Kinds)); err != nil {
		t.Fatalf("etcd's rating history and ladders differ from bbolt's: %v", err)
	}
	keys, err := stores[0].Keys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := stores[1].Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if again, err := stores[1].Keys(ctx); err != nil || again != keys {
		t.Fatalf("a second migration: %d keys, %v; had %d", again, err, keys)
	}
	l, err := stores[0].Top(ctx, sessions.TopQuery{Platform: "telegram", Community: "-1001", Game: "spanish", Period: sessions.AllTime, User: "33"})
	if err != nil || l.Players != 3 || l.Me == nil || l.Place != 3 {
		t.Fatalf("the ladder of -1001, asked by carol: %+v, %v", l, err)
	}
}
