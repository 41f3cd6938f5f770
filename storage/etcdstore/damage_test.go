package etcdstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/boardgamebot/bot/sessions"
)

// TestDamagedRecords: a record in etcd that does not decode fails its
// own reads with ErrDamaged and leaves the others working.
func TestDamagedRecords(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	prefix := "/" + t.Name() + "/"
	good := sessions.Key{Platform: "test", Channel: "good"}
	r := &sessions.Record{V: sessions.RecordVersion, Key: good, Game: "count", Seats: []sessions.User{ann, bob},
		Actions: []sessions.Action{{Kind: sessions.ActMove, Seat: 0, Text: "1"}}}
	if err := s.Commit(ctx, &sessions.Change{Key: good, Live: r}); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"h/test\x00bad\x00":                `{"v":1,"n":0,"rec":`,
		"h/test\x00badmoves\x00":           `{"v":1,"n":1,"rec":{"v":2,"game":"count"}}`,
		"m/test\x00badmoves\x00\x00000000": `[{"kind":`,
		"h/test\x00future\x00":             `{"v":1,"n":0,"rec":{"v":99,"game":"count"}}`,
		"r/test\x00a\x00count\x00all":      `{"v":1,`,
		"g/0000000000000007":               `not json`,
	} {
		if _, err := cli.Put(ctx, prefix+k, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, ch := range []string{"bad", "badmoves", "future"} {
		if _, err := s.Load(ctx, sessions.Key{Platform: "test", Channel: ch}); !errors.Is(err, sessions.ErrDamaged) {
			t.Errorf("Load(%s): %v, want ErrDamaged", ch, err)
		}
	}
	live, err := s.Live(ctx)
	if !errors.Is(err, sessions.ErrDamaged) || len(live) != 1 || live[0].Key != good {
		t.Errorf("Live: %d records, %v; want the good one and ErrDamaged", len(live), err)
	}
	idx, err := s.LiveIndex(ctx)
	if !errors.Is(err, sessions.ErrDamaged) || len(idx) != 3 {
		// the heads of badmoves and future decode: their flags are read, not their records
		t.Errorf("LiveIndex: %v, %v", idx, err)
	}
	if _, err := s.Standings(ctx, "test", "a", ""); !errors.Is(err, sessions.ErrDamaged) {
		t.Errorf("Standings: %v, want ErrDamaged", err)
	}
	if _, err := s.Finished(ctx, "7"); !errors.Is(err, sessions.ErrDamaged) {
		t.Errorf("Finished(7): %v, want ErrDamaged", err)
	}
	if got, err := s.Load(ctx, good); err != nil || len(got.Actions) != 1 {
		t.Errorf("Load(good): %v, %v", got, err)
	}
}
