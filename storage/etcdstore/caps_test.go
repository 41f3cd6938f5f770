package etcdstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// capsProcess is one bot process's Service on store, with caps.
func capsProcess(store sessions.Store, caps sessions.Caps) *sessions.Service {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Now: func() time.Time { return t0 },
		Rand: func(int) int { return 0 }, Caps: caps})
}

// TestCapsAcrossProcesses: the caps count what a user opened through any
// process on the store (the etcd index by user), and a session an older
// bot stored without its index entries is counted again once a process
// changes it.
func TestCapsAcrossProcesses(t *testing.T) {
	ctx := context.Background()
	caps := sessions.Caps{Challenges: 3, ComputerGames: 2}
	a, b := capsProcess(open(t), caps), capsProcess(open(t), caps)
	defer a.Close()
	defer b.Close()
	key := func(ch string) sessions.Key { return sessions.Key{Platform: "test", Channel: ch} }
	play := func(s *sessions.Service, ch string, computer bool) error {
		p := sessions.DefaultPlayOptions()
		p.Color = sessions.ColorWhite
		_, err := s.Challenge(ctx, sessions.Request{Key: key(ch), User: ann},
			sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "1000"}, Computer: computer, Play: p})
		return err
	}
	for i, s := range []*sessions.Service{a, a, b} {
		if err := play(s, fmt.Sprint("c", i), false); err != nil {
			t.Fatal(err)
		}
	}
	for name, s := range map[string]*sessions.Service{"a": a, "b": b} {
		if err := play(s, "c3", false); !errors.Is(err, sessions.ErrCapped) {
			t.Errorf("a 4th challenge through process %s: %v, want ErrCapped", name, err)
		}
	}

	// Two games against the computer, through a; one of them as an older
	// bot stored it, without its entry in the index.
	for _, ch := range []string{"g0", "g1"} {
		if err := play(a, ch, true); err != nil {
			t.Fatal(err)
		}
	}
	lu := "/" + t.Name() + "/lu/test\x00" + ann.ID + "\x00test\x00g0\x00"
	if resp, err := cli.Delete(ctx, lu); err != nil || resp.Deleted != 1 {
		t.Fatalf("deleting %q: %v, %v", lu, resp, err)
	}
	games := func() []string {
		t.Helper()
		recs, err := open(t).LiveOf(ctx, "test", ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range recs {
			if r.Phase() == sessions.PhasePlaying {
				out = append(out, r.Key.Channel)
			}
		}
		slices.Sort(out)
		return out
	}
	if got := games(); !slices.Equal(got, []string{"g1"}) {
		t.Fatalf("games in the index after the entry was deleted: %v", got)
	}
	if _, err := b.Move(ctx, sessions.Request{Key: key("g0"), User: ann}, "1"); err != nil {
		t.Fatal(err)
	}
	if got := games(); !slices.Equal(got, []string{"g0", "g1"}) {
		t.Errorf("games in the index after a move in g0 through b: %v, want g0 and g1", got)
	}
	if err := play(b, "g2", true); !errors.Is(err, sessions.ErrCapped) {
		t.Errorf("a 3rd game against the computer: %v, want ErrCapped", err)
	}
}
