package sessions_test

import (
	"context"
	"slices"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/sessions/tournament"
)

// TestTournamentJoinAgain: a second join is refused as already joined, in
// sign-up and late in a Swiss; a player who left during sign-up may join
// again, one who left a running tournament may not (ErrWithdrawn); each
// refusal changes nothing.
func TestTournamentJoinAgain(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(6)
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 3}, ps[:4])
	refused := func(what string, u sessions.User, kind error) {
		t.Helper()
		before := f.tour(t)
		ev, err := f.svc.JoinTournament(ctx, in(u))
		if sessions.KindOf(err) != kind {
			t.Errorf("%s: %v, want %v", what, err, kind)
		}
		if ev.Tournament == nil || ev.Tournament.ID != before.ID {
			t.Errorf("%s: the refusal carries the tournament %+v", what, ev.Tournament)
		}
		if after := f.tour(t); after.Rev != before.Rev {
			t.Errorf("%s changed the tournament: rev %d -> %d", what, before.Rev, after.Rev)
		}
	}
	refused("a second join in sign-up", ps[1], sessions.ErrAlreadyJoined)
	tourMust(t)(f.svc.LeaveTournament(ctx, in(ps[3])))
	if ev := tourMust(t)(f.svc.JoinTournament(ctx, in(ps[3]))); len(ev.Tournament.Players) != 4 {
		t.Errorf("joining again after leaving in sign-up: %+v", ev.Tournament.Players)
	}
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	tourMust(t)(f.svc.JoinTournament(ctx, in(ps[4])))
	refused("a second late join", ps[4], sessions.ErrAlreadyJoined)
	tourMust(t)(f.svc.LeaveTournament(ctx, in(ps[2])))
	refused("a join after leaving the running tournament", ps[2], sessions.ErrWithdrawn)
}

// TestTournamentLateJoinLastRound: a Swiss takes a late player only while
// a round is left to pair them in: never in a one-round Swiss, and in a
// Swiss of two only during round 1.
func TestTournamentLateJoinLastRound(t *testing.T) {
	ps := entrants(6)
	one := newTourFixture(t, sessionstest.NewMemoryStore())
	one.open(t, ps[0], sessions.TournamentSpec{Rounds: 1}, ps[:4])
	tourMust(t)(one.svc.StartTournament(ctx, in(ps[0])))
	if _, err := one.svc.JoinTournament(ctx, in(ps[4])); sessions.KindOf(err) != sessions.ErrNoRoundLeft {
		t.Errorf("a late join in a one-round Swiss: %v, want ErrNoRoundLeft", err)
	}
	if tr := one.tour(t); len(tr.Players) != 4 {
		t.Errorf("the refused join entered: %+v", tr.Players)
	}

	two := newTourFixture(t, sessionstest.NewMemoryStore())
	two.open(t, ps[0], sessions.TournamentSpec{Rounds: 2}, ps[:4])
	tourMust(t)(two.svc.StartTournament(ctx, in(ps[0])))
	tourMust(t)(two.svc.JoinTournament(ctx, in(ps[4])))
	tr := two.tour(t)
	for _, g := range tr.Played[0].Games {
		two.finish(t, tr, g, tournament.WhiteWins)
	}
	if tr = two.tour(t); len(tr.Played) != 2 || !slices.ContainsFunc(tr.Played[1].Games, func(g sessions.TourGame) bool {
		return g.White == ps[4].ID || g.Black == ps[4].ID
	}) {
		t.Fatalf("the late player is not in round 2: %+v", tr.Played)
	}
	if _, err := two.svc.JoinTournament(ctx, in(ps[5])); sessions.KindOf(err) != sessions.ErrNoRoundLeft {
		t.Errorf("a late join in the last round: %v, want ErrNoRoundLeft", err)
	}
}

// TestTournamentStandingsCount: the standings count exactly the rounds
// whose every game has a result (Counted): while round 2 is under way,
// its finished games are not in them; once it is over, they are.
func TestTournamentStandingsCount(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(4)
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 3}, ps)
	ev := tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	if ev.Counted != 0 || pointsOf(ev.Standings) != 0 {
		t.Errorf("at the start: %d rounds counted, %v points", ev.Counted, pointsOf(ev.Standings))
	}
	tr := f.tour(t)
	f.finish(t, tr, tr.Played[0].Games[0], tournament.WhiteWins)
	here := tourMust(t)(f.svc.TournamentHere(ctx, tourKey))
	if here.Counted != 0 || pointsOf(here.Standings) != 0 {
		t.Errorf("round 1 under way, one game over: %d rounds counted, %v points; want 0, 0", here.Counted, pointsOf(here.Standings))
	}
	f.finish(t, tr, tr.Played[0].Games[1], tournament.Draw)
	tr = f.tour(t)
	f.finish(t, tr, tr.Played[1].Games[0], tournament.BlackWins)
	for _, ev := range []sessions.TourEvent{tourMust(t)(f.svc.TournamentHere(ctx, tourKey)), tourMust(t)(f.svc.TournamentByID(ctx, "console", tr.ID))} {
		if ev.Counted != 1 || pointsOf(ev.Standings) != 2 {
			t.Errorf("round 2 under way, one game over: %d rounds counted, %v points; want 1, 2", ev.Counted, pointsOf(ev.Standings))
		}
	}
	f.finish(t, tr, tr.Played[1].Games[1], tournament.WhiteWins)
	if ev := tourMust(t)(f.svc.TournamentHere(ctx, tourKey)); ev.Counted != 2 || pointsOf(ev.Standings) != 4 {
		t.Errorf("round 2 over: %d rounds counted, %v points; want 2, 4", ev.Counted, pointsOf(ev.Standings))
	}
}

// pointsOf adds up the standings' points.
func pointsOf(st []tournament.Standing) float64 {
	sum := 0.0
	for _, s := range st {
		sum += s.Points
	}
	return sum
}

// TestTournamentPlaceRefused: when the platform refuses a game's place for
// want of a right, the game waits for its place (TourGame.Wait), the
// organiser and its players are told at once, once, with the right that
// is missing; Tick tries again every TourRetryEvery, and the place that
// opens later is posted with the game (TourPlaceOpened), its wait over.
func TestTournamentPlaceRefused(t *testing.T) {
	f := &tourFixture{store: sessionstest.NewMemoryStore(), places: &fakePlaces{}, notes: &tourNotices{}, clk: newClock()}
	f.svc = f.service()
	ps := entrants(5)
	org := sessions.User{ID: "org", Name: "Org"}
	f.open(t, org, sessions.TournamentSpec{Rounds: 2}, ps[:4])
	right := &sessions.NoPlaces{Problem: sessions.PlaceNoRights, Right: sessions.RightManageTopics}
	f.places.fail = func(round int, white, black sessions.User) error {
		if white.ID == "p1" || black.ID == "p1" {
			return &sessions.Error{Kind: sessions.ErrNoPlaces, Err: right}
		}
		return nil
	}
	tourMust(t)(f.svc.StartTournament(ctx, in(org)))
	missing := func() []sessions.Notice {
		var out []sessions.Notice
		for _, n := range f.notes.of(sessions.NoticeTournament) {
			if n.Tour.Kind == sessions.TourPlaceMissing {
				out = append(out, n)
			}
		}
		return out
	}
	tr := f.tour(t)
	board := slices.IndexFunc(tr.Played[0].Games, func(g sessions.TourGame) bool { return g.White == "p1" || g.Black == "p1" })
	g := tr.Played[0].Games[board]
	if !g.Waiting() || g.Wait == nil || *g.Wait != *right {
		t.Fatalf("the refused game: %+v, want waiting for its place, for want of %s", g, right.Right)
	}
	told := missing()
	if len(told) != 1 {
		t.Fatalf("%d posts about the missing place, want 1", len(told))
	}
	ev := told[0].Tour
	if told[0].Key != tr.Key || ev.Round != 1 || !slices.Equal(ev.Boards, []int{board}) || ev.Missing == nil || *ev.Missing != *right {
		t.Errorf("the post: key %v, %+v", told[0].Key, ev)
	}
	var names []string
	for _, u := range ev.Told() {
		names = append(names, u.ID)
	}
	if want := []string{"org", g.White, g.Black}; !slices.Equal(names, want) {
		t.Errorf("told %v, want the organiser and the game's players %v", names, want)
	}

	// Still refused a minute later: tried again, not told again.
	f.clk.Add(sessions.TourRetryEvery)
	f.svc.Tick(ctx)
	if n := len(missing()); n != 1 {
		t.Errorf("after a second refusal: %d posts, want still 1", n)
	}
	// The right given back: the next try opens it and posts its place.
	f.places.mu.Lock()
	f.places.fail = nil
	f.places.mu.Unlock()
	f.clk.Add(sessions.TourRetryEvery)
	f.svc.Tick(ctx)
	g = f.tour(t).Played[0].Games[board]
	if g.Key == (sessions.Key{}) || g.Wait != nil {
		t.Fatalf("after the right came back: %+v, want opened", g)
	}
	var opened []*sessions.TourEvent
	for _, n := range f.notes.of(sessions.NoticeTournament) {
		if n.Tour.Kind == sessions.TourPlaceOpened {
			opened = append(opened, n.Tour)
		}
	}
	if len(opened) != 1 || !slices.Equal(opened[0].Boards, []int{board}) || opened[0].Tournament.Played[0].Games[board].Key != g.Key {
		t.Errorf("the place's post: %+v, want one TourPlaceOpened of board %d with its key", opened, board)
	}
	games := f.notes.of(sessions.NoticeTourGame)
	if !slices.ContainsFunc(games, func(n sessions.Notice) bool { return n.Key == g.Key && n.To.IsZero() }) {
		t.Errorf("no first board posted in the late place %v", g.Key)
	}
}

// TestTournamentPlaceStart: OpenPlace gets the game as it starts there
// (its players in their seats, the first position, no key yet), for a
// platform whose places open with the board.
func TestTournamentPlaceStart(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(3)
	var got []sessions.PlaceGame
	f.places.fail = func(round int, white, black sessions.User) error { return nil }
	rec := &recordingPlaces{fakePlaces: f.places, got: &got}
	f.svc = sessions.New(sessions.Config{Store: f.store, Games: sessionstest.Games, Notifier: f.notes,
		Rand: func(n int) int { return 0 }, Places: sessions.PlaceSet{"console": rec}})
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 1}, ps)
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	if len(got) != 1 {
		t.Fatalf("%d places opened, want 1", len(got))
	}
	g := got[0]
	s := g.Start
	if g.Round != 1 || s == nil || s.State == nil || s.Record.Key != (sessions.Key{}) || s.Record.Tour == nil ||
		!s.Record.Seats[0].Is(g.White) || !s.Record.Seats[1].Is(g.Black) || s.Phase() != sessions.PhasePlaying {
		t.Errorf("the venue's game: %+v, start %+v", g, s)
	}
}

// recordingPlaces records the games whose places it opens.
type recordingPlaces struct {
	*fakePlaces
	got *[]sessions.PlaceGame
}

func (v *recordingPlaces) OpenPlace(ctx context.Context, g sessions.PlaceGame) (sessions.Key, error) {
	*v.got = append(*v.got, g)
	return v.fakePlaces.OpenPlace(ctx, g)
}

// TestTournamentPlaceDone: the end of a tournament game is followed, after
// every other notice of it, by NoticePlaceDone for its place, which
// TourPlaceEnded then names; an ordinary game's end is not, and a place
// with a game under way is not ended.
func TestTournamentPlaceDone(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(4)
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 2}, ps)
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	tr := f.tour(t)
	g := tr.Played[0].Games[0]
	if rec, err := f.svc.TourPlaceEnded(ctx, g.Key); rec != nil || err != nil {
		t.Errorf("a place under way: %v, %v", rec, err)
	}
	f.finish(t, tr, g, tournament.BlackWins)
	f.notes.mu.Lock()
	list := slices.Clone(f.notes.list)
	f.notes.mu.Unlock()
	last := -1
	for i, n := range list {
		if n.Key == g.Key {
			last = i
		}
	}
	if last < 0 || list[last].Kind != sessions.NoticePlaceDone || list[last].Session.Record.Result == nil {
		t.Errorf("the last notice of the game's place: %+v, want NoticePlaceDone with the result", list[max(last, 0)])
	}
	rec, err := f.svc.TourPlaceEnded(ctx, g.Key)
	if err != nil || rec == nil || rec.Tour == nil || rec.Tour.ID != tr.ID {
		t.Errorf("TourPlaceEnded(%v) = %v, %v: want the game that ended there", g.Key, rec, err)
	}
	plain := sessions.Key{Platform: "console", Channel: "t", Thread: "friendly"}
	a, b := sessions.Request{Key: plain, User: ps[0]}, sessions.Request{Key: plain, User: ps[1]}
	if _, err := f.svc.Challenge(ctx, a, sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "5"},
		Invited: []sessions.User{ps[1]}, Play: sessions.DefaultPlayOptions()}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Accept(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Resign(ctx, a); err != nil {
		t.Fatal(err)
	}
	if n := len(f.notes.of(sessions.NoticePlaceDone)); n != 1 {
		t.Errorf("%d NoticePlaceDone, want 1 (an ordinary game's end has none)", n)
	}
	if rec, err := f.svc.TourPlaceEnded(ctx, plain); rec != nil || err != nil {
		t.Errorf("an ordinary game's place: %v, %v", rec, err)
	}
}
