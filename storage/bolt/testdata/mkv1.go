//go:build ignore

// mkv1 writes v1.db, a small database in the layout of schema 1 (one JSON
// record per live session, bucket "live"), for the migration test
// (TestMigrateV1 in package bolt). It was run once, at commit 0bef63f
// (before the move log), and its output committed:
//
//	go run ./storage/bolt/testdata/mkv1.go storage/bolt/testdata/v1.db
//
// Running it on a later commit writes that commit's layout instead.
package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

func main() {
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// play plays n random legal moves that do not end the game at key.
func play(ctx context.Context, svc *sessions.Service, key sessions.Key, users []sessions.User, n int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 1))
	for range n {
		snap, err := svc.Look(ctx, key)
		if err != nil {
			return err
		}
		ms := snap.State.Moves()
		r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		var pick *rules.Move
		for _, m := range ms {
			next, _, err := snap.State.Play(m.Text)
			if err == nil && !next.Outcome().Over {
				pick = &m
				break
			}
		}
		if pick == nil {
			return fmt.Errorf("%s: every move ends the game", key)
		}
		if _, err := svc.Move(ctx, sessions.Request{Key: key, User: snap.Player(snap.Turn())}, pick.Text); err != nil {
			return err
		}
	}
	return nil
}

func run(path string) error {
	ctx := context.Background()
	os.Remove(path)
	store, err := bolt.Open(path, bolt.Options{NoSync: true})
	if err != nil {
		return err
	}
	defer store.Close()
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	svc := sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 },
		Now: func() time.Time { now = now.Add(time.Second); return now }})
	defer svc.Close()
	alice, bob := sessions.User{ID: "a", Name: "alice"}, sessions.User{ID: "b", Name: "bob"}
	carol := sessions.User{ID: "c", Name: "carol"}
	games := []struct {
		channel, game string
		opts          map[string]string
		plies         int
		finish        bool
		time          sessions.Duration
	}{
		{"spanish", "spanish", nil, 12, false, 0},
		{"halma", "halma", map[string]string{"size": "16"}, 61, false, sessions.Duration(24 * time.Hour)},
		{"dame", "dame", map[string]string{"flying": "yes"}, 7, false, 0},
		{"ultradamas", "ultradamas", nil, 0, false, 0},
		{"done1", "spanish", nil, 25, true, 0},
		{"done2", "halma", map[string]string{"size": "10"}, 30, true, 0},
	}
	for i, g := range games {
		key := sessions.Key{Platform: "console", Channel: g.channel}
		users := []sessions.User{alice, bob}
		if i%2 == 1 {
			users = []sessions.User{bob, carol}
		}
		p := sessions.DefaultPlayOptions()
		p.Color, p.Time = sessions.ColorWhite, g.time
		if _, err := svc.Challenge(ctx, sessions.Request{Key: key, User: users[0]},
			sessions.ChallengeSpec{Game: g.game, Options: g.opts, Invited: users[1:], Play: p}); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if _, err := svc.Accept(ctx, sessions.Request{Key: key, User: users[1]}); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if err := play(ctx, svc, key, users, g.plies, uint64(i)); err != nil {
			return err
		}
		if g.finish {
			if _, err := svc.Resign(ctx, sessions.Request{Key: key, User: users[1]}); err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
		}
	}
	// A challenge nobody answered yet.
	if _, err := svc.Challenge(ctx, sessions.Request{Key: sessions.Key{Platform: "console", Channel: "open"}, User: carol},
		sessions.ChallengeSpec{Game: "spanish", Play: sessions.DefaultPlayOptions()}); err != nil {
		return err
	}
	if err := store.SetNotify(ctx, "console", "b", false); err != nil {
		return err
	}
	if err := store.SaveRoute(ctx, "discord", "thread9", sessions.Key{Platform: "discord", Channel: "chan1", Thread: "thread9"}); err != nil {
		return err
	}
	svc.Close()
	return store.Close()
}
