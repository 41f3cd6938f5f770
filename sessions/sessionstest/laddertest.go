package sessionstest

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
)

// ladderGame is a finished two-player game for the rating tests: where it
// was played, by whom, seat 0's score, and what it does to ratings.
type ladderGame struct {
	community string
	game      string
	a, b      sessions.User
	score     float64 // seat 0's
	at        time.Time
	rated     bool
	penalty   [2]int
}

// playRated commits g as a finished game (with its rating request) at a
// key of its own and returns the game as stored (its ID and Ratings set).
func playRated(t *testing.T, s sessions.Store, i int, g ladderGame) *sessions.Record {
	t.Helper()
	r := storeRecord(skey(fmt.Sprint("lg", i)), 24)
	r.Community, r.Game, r.Seats = g.community, g.game, []sessions.User{g.a, g.b}
	winner := map[float64]int{1: 0, 0: 1, 0.5: -1}[g.score]
	r.Result = &sessions.Result{Winner: winner, Reason: "resigned", By: -1, Ended: g.at}
	c := &sessions.Change{Key: r.Key, Finished: r, Rate: &sessions.RateRequest{Platform: "test", Game: g.game,
		Month: sessions.Month(g.at), Community: g.community, Players: [2]sessions.User{g.a, g.b}, Score: g.score,
		Rated: g.rated, Penalty: g.penalty}}
	commit(t, s, c)
	if r.ID == "" || len(r.Ratings) != 2 {
		t.Fatalf("game %d: id %q, ratings %v", i, r.ID, r.Ratings)
	}
	return r
}

func lu(n int) sessions.User {
	return sessions.User{ID: fmt.Sprint("u", n), Name: fmt.Sprint("user", n)}
}

// storeRatingHistory: every game that moves a player's all-time rating
// leaves an entry in that player's history, written with the game: its
// id, when, the opponent and their rating, the result, the rating before
// and after; oldest first, one game's or every game's, and only that
// player's.
func storeRatingHistory(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	m1 := st0
	games := []ladderGame{
		{"g1", "count", lu(1), lu(2), 1, m1, true, [2]int{}},
		{"g1", "other", lu(1), lu(3), 0.5, m1.Add(time.Hour), true, [2]int{}},
		{"", "count", lu(2), lu(1), 1, m1.Add(2 * time.Hour), true, [2]int{}},
		// Too short to count, and u4 abandoned: u4 loses the penalty, u1
		// keeps their rating and gets no entry.
		{"g1", "count", lu(1), lu(4), 1, m1.Add(3 * time.Hour), false, [2]int{0, sessions.AbandonPenalty}},
	}
	var recs []*sessions.Record
	for i, g := range games {
		recs = append(recs, playRated(t, s, i, g))
	}
	entry := func(rec *sessions.Record, seat int) sessions.RatedGame {
		c, o := rec.Ratings[seat], rec.Ratings[1-seat]
		score := map[int]float64{-1: 0.5, seat: 1, 1 - seat: 0}[rec.Result.Winner]
		return sessions.RatedGame{Platform: "test", User: c.User, Game: rec.Game, GameID: rec.ID, At: rec.Result.Ended,
			Community: rec.Community, Opponent: o.User, OpponentRating: o.Before, Score: score, Rated: c.Rated,
			Before: c.Before, After: c.After, Month: c.Month, MonthBefore: c.MonthBefore, MonthAfter: c.MonthAfter}
	}
	check := func(user, game string, want ...sessions.RatedGame) {
		t.Helper()
		got, err := s.RatingHistory(ctx, "test", user, game)
		if err != nil {
			t.Fatalf("RatingHistory(%s, %q): %v", user, game, err)
		}
		if len(got) != len(want) {
			t.Fatalf("RatingHistory(%s, %q): %d entries, want %d: %+v", user, game, len(got), len(want), got)
		}
		for i := range got {
			if !got[i].At.Equal(want[i].At) {
				t.Fatalf("RatingHistory(%s, %q)[%d] at %v, want %v", user, game, i, got[i].At, want[i].At)
			}
			got[i].At = want[i].At
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("RatingHistory(%s, %q)[%d]:\n got %+v\nwant %+v", user, game, i, got[i], want[i])
			}
		}
	}
	check("u1", "", entry(recs[0], 0), entry(recs[1], 0), entry(recs[2], 1))
	check("u1", "count", entry(recs[0], 0), entry(recs[2], 1))
	check("u1", "other", entry(recs[1], 0))
	check("u2", "count", entry(recs[0], 1), entry(recs[2], 0))
	check("u4", "", entry(recs[3], 1))
	check("u5", "")
	if got, err := s.RatingHistory(ctx, "elsewhere", "u1", ""); err != nil || len(got) != 0 {
		t.Fatalf("u1's history on another platform: %v, %v", got, err)
	}
	// The entries chain: each starts where the one before ended, and the
	// last ends at the player's rating.
	h, _ := s.RatingHistory(ctx, "test", "u1", "count")
	st, _ := s.Standings(ctx, "test", "u1", "count")
	all := slices.IndexFunc(st, func(x sessions.Standing) bool { return x.Period == sessions.AllTime })
	if h[0].Before != sessions.StartRating || h[1].Before != h[0].After || all < 0 || h[1].After != st[all].Rating {
		t.Fatalf("u1's count history %+v does not chain to their rating %+v", h, st)
	}
	if h[0].Score != 1 || h[0].Opponent.ID != "u2" || h[1].Score != 0 || h[1].OpponentRating != recs[2].Ratings[0].Before {
		t.Fatalf("u1's count history: %+v", h)
	}
	u4, _ := s.RatingHistory(ctx, "test", "u4", "")
	if u4[0].Rated || u4[0].After != sessions.StartRating-sessions.AbandonPenalty || u4[0].Score != 0 {
		t.Fatalf("u4's abandoned game: %+v", u4[0])
	}
}

// storeCommunityLadders: a community's ladder of a game and period holds
// exactly the players who played a rated game of it there (in that
// month, for a month's), ranked by their rating on the platform; a game
// anywhere moves its players' rows on every community ladder they are
// on; a game with no community, or one that did not count, puts no one
// on a community ladder.
func storeCommunityLadders(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	m1, m2 := st0, st0.AddDate(0, 1, 0)
	games := []ladderGame{
		{"g1", "count", lu(1), lu(2), 1, m1, true, [2]int{}},
		{"g1", "count", lu(3), lu(1), 1, m1.Add(time.Hour), true, [2]int{}},
		{"g2", "count", lu(2), lu(4), 1, m1.Add(2 * time.Hour), true, [2]int{}},
		{"g2", "count", lu(5), lu(1), 1, m2, true, [2]int{}},
		{"", "count", lu(6), lu(3), 0.5, m2.Add(time.Hour), true, [2]int{}},
		{"g1", "count", lu(2), lu(4), 1, m2.Add(2 * time.Hour), false, [2]int{0, sessions.AbandonPenalty}},
		{"g2", "other", lu(5), lu(6), 1, m2.Add(3 * time.Hour), true, [2]int{}},
	}
	for i, g := range games {
		playRated(t, s, i, g)
	}
	month1, month2 := sessions.Month(m1), sessions.Month(m2)
	for _, c := range []struct {
		community, game, period string
		members                 []int
	}{
		{"g1", "count", sessions.AllTime, []int{1, 2, 3}},
		{"g1", "count", month1, []int{1, 2, 3}},
		{"g1", "count", month2, nil},
		{"g2", "count", sessions.AllTime, []int{1, 2, 4, 5}},
		{"g2", "count", month1, []int{2, 4}},
		{"g2", "count", month2, []int{1, 5}},
		{"g2", "other", sessions.AllTime, []int{5, 6}},
		{"g1", "other", sessions.AllTime, nil},
		{"", "count", sessions.AllTime, []int{1, 2, 3, 4, 5, 6}},
		{"", "count", month2, []int{1, 3, 4, 5, 6}}, // u2 won the game that did not count
	} {
		what := fmt.Sprintf("ladder of %q %s %s", c.community, c.game, c.period)
		var want []sessions.Standing
		for _, n := range c.members {
			st, err := s.Standings(ctx, "test", lu(n).ID, c.game)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(st, func(x sessions.Standing) bool { return x.Period == c.period })
			if i < 0 {
				t.Fatalf("%s: %s has no standing", what, lu(n).ID)
			}
			want = append(want, st[i])
		}
		slices.SortFunc(want, func(a, b sessions.Standing) int {
			return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.User.ID, b.User.ID))
		})
		l, err := s.Top(ctx, sessions.TopQuery{Platform: "test", Community: c.community, Game: c.game, Period: c.period})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if l.Players != len(want) || !reflect.DeepEqual(l.Rows, want) {
			t.Fatalf("%s: %d players\n got %+v\nwant %+v", what, l.Players, l.Rows, want)
		}
		// Each member's place, asked with the head cut at one row; a
		// player of the platform who is not on it has none.
		for _, st := range want {
			l, err := s.Top(ctx, sessions.TopQuery{Platform: "test", Community: c.community, Game: c.game, Period: c.period, Limit: 1, User: st.User.ID})
			above := 0
			for _, x := range want {
				if x.Rating > st.Rating {
					above++
				}
			}
			if err != nil || len(l.Rows) != 1 || l.Players != len(want) || l.Me == nil || *l.Me != st || l.Place != 1+above {
				t.Fatalf("%s, asked by %s: %+v, %v; want place %d", what, st.User.ID, l, err, 1+above)
			}
		}
		if c.community != "" {
			outsider := lu(6).ID
			if slices.Contains(c.members, 6) {
				outsider = lu(4).ID
			}
			if l, err := s.Top(ctx, sessions.TopQuery{Platform: "test", Community: c.community, Game: c.game, Period: c.period, Limit: 1, User: outsider}); err != nil || l.Me != nil || l.Place != 0 {
				t.Fatalf("%s, asked by %s (not on it): %+v, %v", what, outsider, l, err)
			}
		}
	}
	if l, err := s.Top(ctx, sessions.TopQuery{Platform: "elsewhere", Community: "g1", Game: "count", Period: sessions.AllTime}); err != nil || l.Players != 0 {
		t.Fatalf("g1 on another platform: %+v, %v", l, err)
	}
}
