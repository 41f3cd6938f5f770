package sessions_test

import (
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// ladderOf returns the user ids of community's all-time ladder of count.
func ladderOf(t *testing.T, svc *sessions.Service, community string) []string {
	t.Helper()
	l, err := svc.Top(ctx, sessions.TopQuery{Platform: "console", Community: community, Game: "count", Period: sessions.AllTime})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range l.Rows {
		ids = append(ids, r.User.ID)
	}
	return ids
}

// TestTournamentGamesInItsCommunity: a tournament opened in a community
// plays its games there: a rated game of it puts both players on the
// community's ladder, though the moves' requests name no community.
func TestTournamentGamesInItsCommunity(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(4)
	spec := sessions.TournamentSpec{Game: "count", Options: map[string]string{"target": "50"}, Play: sessions.DefaultPlayOptions()}
	tourMust(t)(f.svc.NewTournament(ctx, sessions.Request{Key: tourKey, User: ps[0], Community: "club"}, spec))
	for _, p := range ps {
		tourMust(t)(f.svc.JoinTournament(ctx, in(p)))
	}
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	tr := f.tour(t)
	if tr.Community != "club" {
		t.Fatalf("the tournament's community: %q", tr.Community)
	}
	g := tr.Played[0].Games[0]
	w := sessions.Request{Key: g.Key, User: playerOf(tr, g.White)}
	b := sessions.Request{Key: g.Key, User: playerOf(tr, g.Black)}
	for range sessions.MinRatedMoves + 1 {
		must(t)(f.svc.Move(ctx, w, "1"))
		must(t)(f.svc.Move(ctx, b, "1"))
	}
	must(t)(f.svc.Resign(ctx, b))
	if got := ladderOf(t, f.svc, "club"); len(got) != 2 || got[0] != g.White || got[1] != g.Black {
		t.Fatalf("club's ladder after the tournament game: %v, want %s then %s", got, g.White, g.Black)
	}
}

// TestOlderGameTakesTheRequestsCommunity: a game whose record names no
// community (started by an older bot) is rated in the community of the
// request that ends it; a game started in a community stays there.
func TestOlderGameTakesTheRequestsCommunity(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	svc := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 },
		Now: func() time.Time { return time.Date(2026, 11, 2, 3, 4, 5, 0, time.UTC) }})
	defer svc.Close()
	a, b := sessions.User{ID: "a", Name: "a"}, sessions.User{ID: "b", Name: "b"}
	play := func(key sessions.Key, start, rest string) {
		t.Helper()
		p := sessions.DefaultPlayOptions()
		p.Color = sessions.ColorWhite
		must(t)(svc.Challenge(ctx, sessions.Request{Key: key, User: a, Community: start}, sessions.ChallengeSpec{Game: "count",
			Options: map[string]string{"target": "50"}, Invited: []sessions.User{b}, Play: p}))
		must(t)(svc.Accept(ctx, sessions.Request{Key: key, User: b, Community: rest}))
		for range sessions.MinRatedMoves + 1 {
			must(t)(svc.Move(ctx, sessions.Request{Key: key, User: a, Community: rest}, "1"))
			must(t)(svc.Move(ctx, sessions.Request{Key: key, User: b, Community: rest}, "1"))
		}
		must(t)(svc.Resign(ctx, sessions.Request{Key: key, User: b, Community: rest}))
	}
	play(sessions.Key{Platform: "console", Channel: "x"}, "", "g1")
	if got := ladderOf(t, svc, "g1"); len(got) != 2 {
		t.Fatalf("g1's ladder after a game without a community at its start: %v", got)
	}
	play(sessions.Key{Platform: "console", Channel: "y"}, "g2", "g3")
	if g2, g3 := ladderOf(t, svc, "g2"), ladderOf(t, svc, "g3"); len(g2) != 2 || len(g3) != 0 {
		t.Fatalf("a game started in g2: g2 %v, g3 %v", g2, g3)
	}
}
