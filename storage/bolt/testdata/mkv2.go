//go:build ignore

// mkv2 writes v2.db, a database of schema 2 written by the bot before the
// rating history and the community ladders (issue 28), for the migration
// test (TestMigrateRatingHistory in package bolt): finished rated games
// in two Telegram groups, a Discord thread and the console, in two months,
// a game too short to be rated, an unrated one and a game still in play.
// It was run once, at commit 5abf792, and its output committed:
//
//	go run ./storage/bolt/testdata/mkv2.go storage/bolt/testdata/v2.db
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
func play(ctx context.Context, svc *sessions.Service, key sessions.Key, n int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 2))
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
	now := time.Date(2026, 10, 30, 12, 0, 0, 0, time.UTC)
	svc := sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 },
		Now: func() time.Time { now = now.Add(time.Minute); return now }})
	defer svc.Close()
	user := func(id, name string) sessions.User { return sessions.User{ID: id, Name: name} }
	alice, bob, carol, dave := user("11", "alice"), user("22", "bob"), user("33", "carol"), user("44", "dave")
	// end: "resign" (the second player resigns), "draw" (both agree),
	// "" (the game goes on).
	games := []struct {
		key       sessions.Key
		game      string
		a, b      sessions.User
		plies     int
		end       string
		rated     bool
		nextMonth bool
	}{
		{sessions.Key{Platform: "telegram", Channel: "-1001"}, "spanish", alice, bob, 25, "resign", true, false},
		{sessions.Key{Platform: "telegram", Channel: "-1001", Thread: "7"}, "spanish", bob, carol, 23, "resign", true, true},
		{sessions.Key{Platform: "telegram", Channel: "-2002"}, "spanish", alice, dave, 24, "draw", true, true},
		{sessions.Key{Platform: "telegram", Channel: "-2002"}, "spanish", dave, bob, 24, "resign", true, true},
		{sessions.Key{Platform: "telegram", Channel: "-1001"}, "spanish", alice, bob, 4, "resign", true, true},
		{sessions.Key{Platform: "telegram", Channel: "-1001"}, "spanish", carol, alice, 30, "resign", false, true},
		{sessions.Key{Platform: "discord", Channel: "chan1", Thread: "t1"}, "dame", alice, bob, 25, "resign", true, true},
		{sessions.Key{Platform: "console", Channel: "c1"}, "spanish", carol, dave, 25, "resign", true, true},
		{sessions.Key{Platform: "telegram", Channel: "-1001"}, "spanish", bob, alice, 6, "", true, true},
	}
	for i, g := range games {
		if g.nextMonth && now.Month() == time.October {
			now = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
		}
		p := sessions.DefaultPlayOptions()
		p.Color, p.Rated = sessions.ColorWhite, g.rated
		if _, err := svc.Challenge(ctx, sessions.Request{Key: g.key, User: g.a},
			sessions.ChallengeSpec{Game: g.game, Invited: []sessions.User{g.b}, Play: p}); err != nil {
			return fmt.Errorf("%s: %w", g.key, err)
		}
		if _, err := svc.Accept(ctx, sessions.Request{Key: g.key, User: g.b}); err != nil {
			return fmt.Errorf("%s: %w", g.key, err)
		}
		if err := play(ctx, svc, g.key, g.plies, uint64(i)); err != nil {
			return err
		}
		switch g.end {
		case "resign":
			if _, err := svc.Resign(ctx, sessions.Request{Key: g.key, User: g.b}); err != nil {
				return fmt.Errorf("%s: %w", g.key, err)
			}
		case "draw":
			if _, err := svc.Draw(ctx, sessions.Request{Key: g.key, User: g.a}); err != nil {
				return fmt.Errorf("%s: %w", g.key, err)
			}
			if _, err := svc.Draw(ctx, sessions.Request{Key: g.key, User: g.b}); err != nil {
				return fmt.Errorf("%s: %w", g.key, err)
			}
		}
	}
	svc.Close()
	return store.Close()
}
