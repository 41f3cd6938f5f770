package etcdstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
)

// TestManyCommunityLadders: a player on the ladders of 50 communities
// finishes a game: the game commits (its transaction stays within etcd's
// 128 operations) and the player's row on every one of those ladders,
// all-time and monthly, is at their new rating, once.
func TestManyCommunityLadders(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	star := sessions.User{ID: "star", Name: "star"}
	const n = 50
	finish := func(i int, community string, opp sessions.User) {
		t.Helper()
		key := sessions.Key{Platform: "test", Channel: fmt.Sprint("g", i)}
		rec := &sessions.Record{V: sessions.RecordVersion, Key: key, Community: community, Game: "count", Seats: []sessions.User{star, opp},
			Play: sessions.PlayOptions{Rated: true}, Created: at, Started: at, Updated: at,
			Result: &sessions.Result{Winner: 0, Reason: "resigned", By: 1, Ended: at.Add(time.Duration(i) * time.Minute)}}
		c := &sessions.Change{Key: key, Finished: rec, Rate: &sessions.RateRequest{Platform: "test", Game: "count", Month: sessions.Month(at),
			Community: community, Players: [2]sessions.User{star, opp}, Score: 1, Rated: true}}
		if err := s.Commit(ctx, c); err != nil {
			t.Fatalf("game %d in %s: %v", i, community, err)
		}
	}
	for i := range n {
		finish(i, fmt.Sprint("c", i), sessions.User{ID: fmt.Sprint("o", i), Name: fmt.Sprint("opp", i)})
	}
	finish(n, "c0", sessions.User{ID: "last", Name: "last"})
	st, err := s.Standings(ctx, "test", "star", "count")
	if err != nil || len(st) != 2 {
		t.Fatalf("star's standings: %v, %v", st, err)
	}
	for _, want := range st {
		for i := range n {
			c := fmt.Sprint("c", i)
			l, err := s.Top(ctx, sessions.TopQuery{Platform: "test", Community: c, Game: "count", Period: want.Period, User: "star"})
			if err != nil {
				t.Fatal(err)
			}
			players := 2
			if i == 0 {
				players = 3
			}
			rows := 0
			for _, r := range l.Rows {
				if r.User.ID == "star" {
					rows++
					if r != want {
						t.Fatalf("%s %s: star's row %+v, want %+v", c, want.Period, r, want)
					}
				}
			}
			if rows != 1 || l.Players != players || l.Me == nil || l.Place != 1 {
				t.Fatalf("%s %s: %d rows of star, %d players, place %d: %+v", c, want.Period, rows, l.Players, l.Place, l)
			}
		}
	}
}
