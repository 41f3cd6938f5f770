package sessions_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/sessions/tournament"
)

// tourKey is the channel of the tournaments under test; the organiser
// types in its thread "lobby", the games open in threads g1, g2, ...
var tourKey = sessions.Key{Platform: "console", Channel: "t", Thread: "lobby"}

// fakePlaces opens game places g1, g2, ... in the channel t.
type fakePlaces struct {
	mu     sync.Mutex
	n      int
	refuse error
	// fail, when set, makes OpenPlace fail when it returns an error.
	fail   func(round int, white, black sessions.User) error
	opened []sessions.Key
}

func (v *fakePlaces) CheckPlaces(ctx context.Context, key sessions.Key) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.refuse
}

func (v *fakePlaces) OpenPlace(ctx context.Context, g sessions.PlaceGame) (sessions.Key, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.fail != nil {
		if err := v.fail(g.Round, g.White, g.Black); err != nil {
			return sessions.Key{}, err
		}
	}
	v.n++
	k := sessions.Key{Platform: "console", Channel: "t", Thread: fmt.Sprintf("g%d", v.n)}
	v.opened = append(v.opened, k)
	return k, nil
}

func (v *fakePlaces) count() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.opened)
}

// tourNotices records the notices.
type tourNotices struct {
	mu   sync.Mutex
	list []sessions.Notice
}

func (n *tourNotices) Notify(ctx context.Context, no sessions.Notice) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, no)
}

// posts sums up the NoticeTournament posts: "ended 1", "paired 2", "final 3".
func (n *tourNotices) posts() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	names := map[sessions.TourEventKind]string{sessions.TourRoundEnded: "ended", sessions.TourRoundPaired: "paired",
		sessions.TourEnded: "final"}
	var out []string
	for _, no := range n.list {
		if no.Kind == sessions.NoticeTournament {
			out = append(out, fmt.Sprintf("%s %d", names[no.Tour.Kind], no.Tour.Round))
		}
	}
	return out
}

// of returns the notices of a kind.
func (n *tourNotices) of(kind sessions.NoticeKind) []sessions.Notice {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []sessions.Notice
	for _, no := range n.list {
		if no.Kind == kind {
			out = append(out, no)
		}
	}
	return out
}

type tourFixture struct {
	store  sessions.Store
	places *fakePlaces
	notes  *tourNotices
	svc    *sessions.Service
	// clk and comp, when set, are the clock and the computer of the
	// services made after.
	clk  *sessionstest.Clock
	comp sessions.Computer
}

func newTourFixture(t *testing.T, store sessions.Store) *tourFixture {
	t.Helper()
	f := &tourFixture{store: store, places: &fakePlaces{}, notes: &tourNotices{}}
	f.svc = f.service()
	return f
}

// service returns a new Service on the fixture's store (a restart).
func (f *tourFixture) service() *sessions.Service {
	t0 := time.Date(2026, 11, 2, 3, 4, 5, 0, time.UTC)
	now := func() time.Time { return t0 }
	if f.clk != nil {
		now = f.clk.Now
	}
	return sessions.New(sessions.Config{Store: f.store, Games: sessionstest.Games, Notifier: f.notes,
		Now: now, Rand: func(n int) int { return 0 }, Computer: f.comp,
		Places: sessions.PlaceSet{"console": f.places}})
}

// entrants returns n players p1..pn.
func entrants(n int) []sessions.User {
	var out []sessions.User
	for i := 1; i <= n; i++ {
		out = append(out, sessions.User{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("P%d", i)})
	}
	return out
}

func in(u sessions.User) sessions.Request {
	return sessions.Request{Key: sessions.Key{Platform: "console", Channel: "t"}, User: u}
}

func tourMust(t *testing.T) func(sessions.TourEvent, error) sessions.TourEvent {
	t.Helper()
	return func(ev sessions.TourEvent, err error) sessions.TourEvent {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return ev
	}
}

// open opens a tournament of count (target 5) organised by org and signs
// up the players.
func (f *tourFixture) open(t *testing.T, org sessions.User, spec sessions.TournamentSpec, players []sessions.User) {
	t.Helper()
	spec.Game = "count"
	if spec.Options == nil {
		spec.Options = map[string]string{"target": "5"}
	}
	if spec.Play == (sessions.PlayOptions{}) {
		spec.Play = sessions.DefaultPlayOptions()
	}
	ev := tourMust(t)(f.svc.NewTournament(ctx, sessions.Request{Key: tourKey, User: org}, spec))
	if ev.Kind != sessions.TourOpened || ev.Tournament.Status != sessions.StatusSignup || ev.Tournament.ID == "" {
		t.Fatalf("new: %+v", ev)
	}
	for _, p := range players {
		tourMust(t)(f.svc.JoinTournament(ctx, in(p)))
	}
}

// tour returns the channel's tournament as stored.
func (f *tourFixture) tour(t *testing.T) *sessions.Tournament {
	t.Helper()
	return tourMust(t)(f.svc.TournamentHere(ctx, tourKey)).Tournament
}

// finish plays the game g to the result r: White reaches the target
// (2, 1, 2), White resigns, or both agree to a draw.
func (f *tourFixture) finish(t *testing.T, tr *sessions.Tournament, g sessions.TourGame, r tournament.Result) {
	t.Helper()
	if g.Key == (sessions.Key{}) {
		t.Fatalf("game %s-%s was not opened", g.White, g.Black)
	}
	w := sessions.Request{Key: g.Key, User: playerOf(tr, g.White)}
	b := sessions.Request{Key: g.Key, User: playerOf(tr, g.Black)}
	var ev sessions.Event
	var err error
	switch r {
	case tournament.WhiteWins:
		for i, m := range []string{"2", "1", "2"} {
			who := w
			if i%2 == 1 {
				who = b
			}
			if ev, err = f.svc.Move(ctx, who, m); err != nil {
				t.Fatalf("move %s: %v", m, err)
			}
		}
	case tournament.BlackWins:
		ev, err = f.svc.Resign(ctx, w)
	case tournament.Draw:
		if _, err = f.svc.Draw(ctx, w); err == nil {
			ev, err = f.svc.Draw(ctx, b)
		}
	}
	if err != nil || !ev.Ended() {
		t.Fatalf("finishing %v: %+v, %v", g.Key, ev, err)
	}
}

// points returns what each result gives White and Black.
func points(r tournament.Result) (float64, float64) {
	switch r {
	case tournament.WhiteWins, tournament.WhiteByForfeit, tournament.Bye:
		return 1, 0
	case tournament.BlackWins, tournament.BlackByForfeit:
		return 0, 1
	case tournament.Draw:
		return 0.5, 0.5
	}
	return 0, 0
}

// TestTournamentSwissSixPlayers plays a Swiss of six players and three
// rounds from sign-up to the final standings: each round is paired only
// when the last game of the one before ends, every game's result and id
// are in the tournament, and the standings add up what was played.
func TestTournamentSwissSixPlayers(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(6)
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 3}, ps)
	ev := tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	if ev.Kind != sessions.TourStarted || ev.Round != 1 || ev.Tournament.Status != sessions.StatusRunning || len(ev.Tournament.Played) != 1 {
		t.Fatalf("start: %+v", ev)
	}
	score := map[string]float64{}
	met := map[[2]string]bool{}
	results := []tournament.Result{tournament.WhiteWins, tournament.BlackWins, tournament.Draw}
	for round := 1; round <= 3; round++ {
		tr := f.tour(t)
		if len(tr.Played) != round {
			t.Fatalf("round %d: %d rounds paired", round, len(tr.Played))
		}
		games := tr.Played[round-1].Games
		if len(games) != 3 {
			t.Fatalf("round %d: %+v", round, games)
		}
		for b, g := range games {
			if now := f.tour(t); len(now.Played) != round || now.Status != sessions.StatusRunning {
				t.Fatalf("round %d board %d: round %d paired before the round ended (%s)", round, b+1, len(now.Played), now.Status)
			}
			pair := [2]string{min(g.White, g.Black), max(g.White, g.Black)}
			if met[pair] {
				t.Errorf("round %d: %v meet again", round, pair)
			}
			met[pair] = true
			r := results[(round+b)%3]
			f.finish(t, tr, g, r)
			pw, pb := points(r)
			score[g.White] += pw
			score[g.Black] += pb
		}
	}
	tr := f.tour(t)
	if tr.Status != sessions.StatusFinished || len(tr.Played) != 3 || tr.Ended.IsZero() {
		t.Fatalf("after 3 rounds: %s, %d rounds", tr.Status, len(tr.Played))
	}
	want := []string{"ended 1", "paired 2", "ended 2", "paired 3", "final 3"}
	if got := f.notes.posts(); !slices.Equal(got, want) {
		t.Errorf("posts %q, want %q", got, want)
	}
	for _, no := range f.notes.of(sessions.NoticeTournament) {
		if no.Key != tourKey || no.Tour.Tournament.ID != tr.ID {
			t.Errorf("a post at %v of tournament %s", no.Key, no.Tour.Tournament.ID)
		}
	}
	for _, r := range tr.Played {
		for _, g := range r.Games {
			rec, err := f.store.Finished(ctx, g.GameID)
			if err != nil {
				t.Fatalf("round %d %s-%s: game %q: %v", r.Number, g.White, g.Black, g.GameID, err)
			}
			if rec.Tour == nil || rec.Tour.ID != tr.ID || rec.Seats[0].ID != g.White || rec.Key != g.Key {
				t.Errorf("game %s: %+v", g.GameID, rec)
			}
		}
	}
	final := f.notes.of(sessions.NoticeTournament)
	st := final[len(final)-1].Tour.Standings
	if len(st) != 6 {
		t.Fatalf("final standings: %+v", st)
	}
	for i, s := range st {
		place := i + 1 // or the place of the one before, when tied on every count
		if i > 0 && s.Points == st[i-1].Points && s.Buchholz == st[i-1].Buchholz && s.SonnebornBerger == st[i-1].SonnebornBerger && s.Wins == st[i-1].Wins {
			place = st[i-1].Place
		}
		if s.Points != score[s.Player] || s.Place != place || i > 0 && s.Points > st[i-1].Points {
			t.Errorf("standing %+v, played %v", s, score[s.Player])
		}
	}
	if here := tourMust(t)(f.svc.TournamentByID(ctx, "console", "#"+tr.ID)); !slices.Equal(here.Standings, st) {
		t.Errorf("show: %+v, want %+v", here.Standings, st)
	}
	if _, err := f.svc.TournamentByID(ctx, "telegram", tr.ID); sessions.KindOf(err) != sessions.ErrNoTournament {
		t.Errorf("show on another platform: %v", err)
	}
	// Each game was posted in its place and pinged to both players.
	posted, pinged := map[sessions.Key]int{}, map[string]int{}
	for _, no := range f.notes.of(sessions.NoticeTourGame) {
		if no.To.IsZero() {
			posted[no.Key]++
		} else if no.Session.Record.Key == no.Key && len(no.Session.Record.SeatsOf(no.To)) == 1 {
			pinged[no.To.ID]++
		}
	}
	if len(posted) != 9 || f.places.count() != 9 {
		t.Errorf("%d games posted, %d venues; want 9", len(posted), f.places.count())
	}
	for _, p := range ps {
		if pinged[p.ID] != 3 {
			t.Errorf("%s pinged %d times for 3 games", p.Name, pinged[p.ID])
		}
	}
}

// TestTournamentRoundRobinFour: the rounds of a round-robin of four are
// the Berger table of its players in sign-up order, and it ends after them.
func TestTournamentRoundRobinFour(t *testing.T) {
	for _, double := range []bool{false, true} {
		t.Run(fmt.Sprint("double=", double), func(t *testing.T) {
			f := newTourFixture(t, sessionstest.NewMemoryStore())
			ps := entrants(4)
			org := sessions.User{ID: "o", Name: "organiser"}
			f.open(t, org, sessions.TournamentSpec{Format: sessions.FormatRoundRobin, Double: double, Rounds: 9}, ps)
			ev := tourMust(t)(f.svc.StartTournament(ctx, in(org)))
			sched, err := tournament.RoundRobin([]string{"p1", "p2", "p3", "p4"}, double)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Tournament.Rounds != len(sched) {
				t.Fatalf("rounds %d, want %d", ev.Tournament.Rounds, len(sched))
			}
			for n := 1; n <= len(sched); n++ {
				tr := f.tour(t)
				if len(tr.Played) != n || len(tr.Played[n-1].Games) != len(sched[n-1].Pairings) {
					t.Fatalf("round %d: %+v", n, tr.Played)
				}
				got := tr.Played[n-1]
				for i, p := range sched[n-1].Pairings {
					if g := got.Games[i]; g.White != p.White || g.Black != p.Black {
						t.Fatalf("round %d board %d: %s-%s, want %s-%s", n, i+1, g.White, g.Black, p.White, p.Black)
					}
				}
				for _, g := range got.Games {
					f.finish(t, tr, g, tournament.WhiteWins)
				}
			}
			tr := f.tour(t)
			if tr.Status != sessions.StatusFinished || len(tr.Played) != len(sched) {
				t.Fatalf("%s after %d rounds", tr.Status, len(tr.Played))
			}
		})
	}
}

// TestTournamentLeaveRoundRobin: a player who leaves during a round-robin
// resigns the game under way, and the games of later rounds are forfeits
// that their opponents win without playing.
func TestTournamentLeaveRoundRobin(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(4)
	f.open(t, ps[0], sessions.TournamentSpec{Format: sessions.FormatRoundRobin}, ps)
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	quitter := ps[3]
	tr := f.tour(t)
	var other sessions.TourGame
	for _, g := range tr.Played[0].Games {
		if g.White != quitter.ID && g.Black != quitter.ID {
			other = g
		}
	}
	ev := tourMust(t)(f.svc.LeaveTournament(ctx, in(quitter)))
	if ev.Kind != sessions.TourLeft || ev.Round != 1 {
		t.Fatalf("leave: %+v", ev)
	}
	tr = f.tour(t)
	for _, g := range tr.Played[0].Games {
		switch {
		case g.White == quitter.ID && g.Result != tournament.BlackWins, g.Black == quitter.ID && g.Result != tournament.WhiteWins:
			t.Errorf("the quitter's game: %+v", g)
		case g.White == quitter.ID || g.Black == quitter.ID:
			if _, err := f.store.Finished(ctx, g.GameID); err != nil {
				t.Errorf("the quitter's game is not in the history: %v", err)
			}
		}
	}
	if len(tr.Played) != 1 {
		t.Fatalf("round 2 paired while a game of round 1 is played")
	}
	if _, err := f.svc.LeaveTournament(ctx, in(quitter)); sessions.KindOf(err) != sessions.ErrNotEntered {
		t.Errorf("leaving twice: %v", err)
	}
	f.finish(t, tr, other, tournament.Draw)
	for n := 2; n <= 3; n++ {
		tr = f.tour(t)
		if len(tr.Played) != n {
			t.Fatalf("round %d not paired: %d", n, len(tr.Played))
		}
		for _, g := range tr.Played[n-1].Games {
			switch {
			case g.White == quitter.ID:
				if g.Result != tournament.BlackByForfeit || g.Key != (sessions.Key{}) {
					t.Errorf("round %d: %+v", n, g)
				}
			case g.Black == quitter.ID:
				if g.Result != tournament.WhiteByForfeit || g.Key != (sessions.Key{}) {
					t.Errorf("round %d: %+v", n, g)
				}
			default:
				f.finish(t, tr, g, tournament.BlackWins)
			}
		}
	}
	tr = f.tour(t)
	if tr.Status != sessions.StatusFinished {
		t.Fatalf("status %s", tr.Status)
	}
	st := tourMust(t)(f.svc.TournamentHere(ctx, tourKey)).Standings
	for _, s := range st {
		if s.Player == quitter.ID && (s.Points != 0 || s.Place != 4) {
			t.Errorf("the quitter: %+v", s)
		}
	}
	if f.places.count() != 4 { // two games in round 1, one each in rounds 2 and 3
		t.Errorf("%d venues opened, want 4", f.places.count())
	}
}

// TestTournamentLateJoinSwiss: a player joins a Swiss while it runs, is
// paired from the next round on, and starts with zero points; a player who
// leaves a Swiss resigns the game under way and is not paired again; a
// round-robin refuses late joins.
func TestTournamentLateJoinSwiss(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(6)
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 3}, ps[:5])
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	late := ps[5]
	ev := tourMust(t)(f.svc.JoinTournament(ctx, in(late)))
	if ev.Kind != sessions.TourJoined || len(ev.Tournament.Players) != 6 || ev.Tournament.Players[5].Joined != 1 {
		t.Fatalf("late join: %+v", ev.Tournament.Players)
	}
	tr := f.tour(t)
	byes := 0
	for _, g := range tr.Played[0].Games {
		if g.White == late.ID || g.Black == late.ID {
			t.Fatalf("the late player is in round 1: %+v", g)
		}
		if g.Result == tournament.Bye {
			byes++
			continue
		}
		f.finish(t, tr, g, tournament.WhiteWins)
	}
	if byes != 1 {
		t.Errorf("round 1 of 5 players: %d byes", byes)
	}
	tr = f.tour(t)
	if len(tr.Played) != 2 || len(tr.Played[1].Games) != 3 {
		t.Fatalf("round 2: %+v", tr.Played)
	}
	quitter := ps[1]
	for _, g := range tr.Played[1].Games {
		if g.White == quitter.ID || g.Black == quitter.ID {
			tourMust(t)(f.svc.LeaveTournament(ctx, in(quitter)))
			continue
		}
		f.finish(t, tr, g, tournament.Draw)
	}
	tr = f.tour(t)
	if len(tr.Played) != 3 {
		t.Fatalf("round 3 not paired: %+v", tr.Played)
	}
	for _, g := range tr.Played[1].Games {
		if (g.White == quitter.ID || g.Black == quitter.ID) && g.Result != forfeitResult(g, quitter.ID, false) {
			t.Errorf("the quitter's game of round 2: %+v", g)
		}
	}
	for _, g := range tr.Played[2].Games {
		if g.White == quitter.ID || g.Black == quitter.ID {
			t.Errorf("the quitter is paired in round 3: %+v", g)
		}
	}
	here := tourMust(t)(f.svc.TournamentHere(ctx, tourKey))
	if here.Counted != 2 {
		t.Fatalf("round 3 under way: the standings count %d rounds, want 2", here.Counted)
	}
	lateScore := 0.0 // what the late player scored in round 2 (round 3, under way, counts once over)
	for _, r := range tr.Played[1:here.Counted] {
		for _, g := range r.Games {
			pw, pb := points(g.Result)
			switch late.ID {
			case g.White:
				lateScore += pw
			case g.Black:
				lateScore += pb
			}
		}
	}
	for _, s := range here.Standings {
		if s.Player == late.ID && s.Points != lateScore {
			t.Errorf("the late player: %+v, want %v points", s, lateScore)
		}
	}

	g := newTourFixture(t, sessionstest.NewMemoryStore())
	g.open(t, ps[0], sessions.TournamentSpec{Format: sessions.FormatRoundRobin}, ps[:3])
	tourMust(t)(g.svc.StartTournament(ctx, in(ps[0])))
	if _, err := g.svc.JoinTournament(ctx, in(late)); sessions.KindOf(err) != sessions.ErrSignupClosed {
		t.Errorf("late join of a round-robin: %v", err)
	}
}

// forfeitResult is the result of g when the player id resigned it
// (forfeit: did not play it).
func forfeitResult(g sessions.TourGame, id string, forfeit bool) tournament.Result {
	switch {
	case g.White == id && forfeit:
		return tournament.BlackByForfeit
	case g.White == id:
		return tournament.BlackWins
	case forfeit:
		return tournament.WhiteByForfeit
	}
	return tournament.WhiteWins
}

// TestTournamentSwissEndsEarly: a Swiss of three players asked for five
// rounds ends after the third, when everyone has met everyone.
func TestTournamentSwissEndsEarly(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(3)
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 5}, ps)
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	for n := 1; n <= 3; n++ {
		tr := f.tour(t)
		if len(tr.Played) != n || tr.Status != sessions.StatusRunning {
			t.Fatalf("round %d: %d rounds, %s", n, len(tr.Played), tr.Status)
		}
		for _, g := range tr.Played[n-1].Games {
			if g.Result == tournament.Pending {
				f.finish(t, tr, g, tournament.WhiteWins)
			}
		}
	}
	tr := f.tour(t)
	if tr.Status != sessions.StatusFinished || len(tr.Played) != 3 {
		t.Fatalf("%s after %d rounds", tr.Status, len(tr.Played))
	}
	if got := f.notes.posts(); got[len(got)-1] != "final 3" {
		t.Errorf("posts %q", got)
	}
}

// TestTournamentGameAbandoned: a tournament game that the clock ends (both
// players away: the third move the clock plays for White abandons it)
// records its result like any other end, and the round moves on.
func TestTournamentGameAbandoned(t *testing.T) {
	f := &tourFixture{store: sessionstest.NewMemoryStore(), places: &fakePlaces{}, notes: &tourNotices{}, clk: newClock(), comp: &firstMove{}}
	f.svc = f.service()
	t.Cleanup(func() { f.svc.Close() })
	ps := entrants(4)
	play := sessions.DefaultPlayOptions()
	play.Time = sessions.Duration(5 * time.Minute)
	f.open(t, ps[0], sessions.TournamentSpec{Options: map[string]string{"target": "50"}, Play: play, Rounds: 2}, ps)
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	tr := f.tour(t)
	for range 2*sessions.AutoMovesToAbandon - 1 {
		f.clk.Add(5*time.Minute + time.Second)
		f.svc.Tick(ctx)
		for _, g := range tr.Played[0].Games {
			if err := f.svc.Settle(ctx, g.Key); err != nil {
				t.Fatal(err)
			}
		}
	}
	got := f.tour(t)
	for _, g := range got.Played[0].Games {
		rec, err := f.store.Finished(ctx, g.GameID)
		if g.Result != tournament.BlackWins || err != nil || !rec.Result.Abandoned {
			t.Fatalf("round 1 after the clock: %+v (%v)", got.Played[0].Games, err)
		}
	}
	if len(got.Played) != 2 {
		t.Fatalf("round 2 not paired after the clock ended round 1")
	}
}

// TestTournamentStartsOnce: two starts at once start the tournament once:
// one pairs round 1 and opens its games, the other is told sign-up closed.
func TestTournamentStartsOnce(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(4)
	f.open(t, ps[0], sessions.TournamentSpec{}, ps)
	errs := make(chan error, 2)
	var wg sync.WaitGroup
	for _, r := range []sessions.Request{in(ps[0]), {Key: tourKey, User: ps[2], Manager: true}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := f.svc.StartTournament(ctx, r)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	var kinds []error
	for err := range errs {
		kinds = append(kinds, sessions.KindOf(err))
	}
	if !slices.Contains(kinds, nil) || !slices.Contains(kinds, sessions.ErrSignupClosed) {
		t.Errorf("two starts: %v", kinds)
	}
	if tr := f.tour(t); len(tr.Played) != 1 || f.places.count() != 2 {
		t.Errorf("%d rounds, %d games opened", len(tr.Played), f.places.count())
	}
}

// TestTournamentResultInGameTransaction: when the commit that ends a
// tournament game fails, neither the end nor the result is stored; the
// same command again stores both.
func TestTournamentResultInGameTransaction(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	f := newTourFixture(t, store)
	ps := entrants(4)
	f.open(t, ps[0], sessions.TournamentSpec{}, ps)
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	tr := f.tour(t)
	g := tr.Played[0].Games[0]
	store.Fail = func(c *sessions.Change) error {
		if c.Finished != nil {
			if c.Tournament == nil || c.Finished.Tour == nil {
				t.Errorf("the game's end carries no tournament: %+v", c)
			}
			return errors.New("disk full")
		}
		return nil
	}
	white := sessions.Request{Key: g.Key, User: playerOf(tr, g.White)}
	if _, err := f.svc.Resign(ctx, white); sessions.KindOf(err) != sessions.ErrStorage {
		t.Fatalf("resign on a failing store: %v", err)
	}
	if snap, err := f.svc.Look(ctx, g.Key); err != nil || snap.Record.Result != nil {
		t.Fatalf("the game ended after all: %v", err)
	}
	if got := f.tour(t).Played[0].Games[0]; got.Result != tournament.Pending || got.GameID != "" {
		t.Fatalf("the result is stored without the game: %+v", got)
	}
	store.Fail = nil
	must(t)(f.svc.Resign(ctx, white))
	got := f.tour(t).Played[0].Games[0]
	if got.Result != tournament.BlackWins || got.GameID == "" {
		t.Fatalf("after the retry: %+v", got)
	}
	if rec, err := store.Finished(ctx, got.GameID); err != nil || rec.Result.Winner != 1 {
		t.Fatalf("finished game %q: %v", got.GameID, err)
	}
}

// otherProcess is a store where another process writes a tournament just
// before the next game-ending commit of this one.
type otherProcess struct {
	*sessionstest.MemoryStore
	before func()
	times  int // how many of the next commits
}

func (o *otherProcess) Commit(ctx context.Context, c *sessions.Change) error {
	if o.before != nil && o.times > 0 && c.Finished != nil {
		o.times--
		o.before()
	}
	return o.MemoryStore.Commit(ctx, c)
}

// TestTournamentResultAfterConflict: another process changes the
// tournament between the load and the commit of a game's end, twice in a
// row: each commit conflicts, the Service loads the tournament again and
// records the result on top of the other changes.
func TestTournamentResultAfterConflict(t *testing.T) {
	store := &otherProcess{MemoryStore: sessionstest.NewMemoryStore()}
	f := newTourFixture(t, store)
	ps := entrants(5)
	f.open(t, ps[0], sessions.TournamentSpec{}, ps[:4])
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	tr := f.tour(t)
	late := ps[4]
	conflicts := 0
	store.before = func() {
		// The other process: a late join, then a leave.
		other, err := store.Tournament(ctx, tr.ID)
		if err != nil {
			t.Error(err)
			return
		}
		if conflicts == 0 {
			other.Players = append(other.Players, sessions.Entrant{User: late, Rating: 1000, Joined: 1})
		} else {
			other.Players[4].Left = 1
		}
		other.Rev++
		if err := store.PutTournament(ctx, other); err != nil {
			t.Error(err)
		}
		conflicts++
	}
	store.times = 2
	g := tr.Played[0].Games[1]
	f.finish(t, tr, g, tournament.Draw)
	got := f.tour(t)
	if conflicts != 2 || got.Played[0].Games[1].Result != tournament.Draw || len(got.Players) != 5 || got.Players[4].Left != 1 {
		t.Fatalf("conflicts %d, game %+v, players %d", conflicts, got.Played[0].Games[1], len(got.Players))
	}
}

// failingPuts is a store whose PutTournament fails while armed (a store
// failing after a game's end, before the next round is stored).
type failingPuts struct {
	*sessionstest.MemoryStore
	mu  sync.Mutex
	arm bool
}

func (s *failingPuts) PutTournament(ctx context.Context, t *sessions.Tournament) error {
	s.mu.Lock()
	arm := s.arm
	s.mu.Unlock()
	if arm {
		return errors.New("disk full")
	}
	return s.MemoryStore.PutTournament(ctx, t)
}

// TestTournamentResume: after a restart, Resume opens the games of a round
// whose places were not all opened, and pairs the round that a failure
// left unpaired after the last game of the round before.
func TestTournamentResume(t *testing.T) {
	store := &failingPuts{MemoryStore: sessionstest.NewMemoryStore()}
	f := newTourFixture(t, store)
	ps := entrants(4)
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 2}, ps)
	f.places.fail = func(round int, white, black sessions.User) error {
		if white.ID == "p2" || black.ID == "p2" {
			return errors.New("the platform is down")
		}
		return nil
	}
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	tr := f.tour(t)
	opened := 0
	for _, g := range tr.Played[0].Games {
		if g.Key != (sessions.Key{}) {
			opened++
		}
	}
	if opened != 1 {
		t.Fatalf("%d games of round 1 opened, want 1", opened)
	}

	// Restart: the platform is back.
	f.places.mu.Lock()
	f.places.fail = nil
	f.places.mu.Unlock()
	f.svc = f.service()
	if _, err := f.svc.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	tr = f.tour(t)
	for _, g := range tr.Played[0].Games {
		if g.Key == (sessions.Key{}) {
			t.Fatalf("after resuming: %+v", tr.Played[0].Games)
		}
	}
	if f.places.count() != 2 {
		t.Fatalf("%d venues opened, want 2", f.places.count())
	}
	// The last game's end is stored, but the next round is not.
	f.finish(t, tr, tr.Played[0].Games[0], tournament.WhiteWins)
	store.mu.Lock()
	store.arm = true
	store.mu.Unlock()
	f.finish(t, tr, tr.Played[0].Games[1], tournament.WhiteWins)
	store.mu.Lock()
	store.arm = false
	store.mu.Unlock()
	if tr = f.tour(t); len(tr.Played) != 1 || tr.Played[0].Games[1].Result != tournament.WhiteWins {
		t.Fatalf("before the restart: %+v", tr.Played)
	}
	f.svc = f.service()
	if _, err := f.svc.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	tr = f.tour(t)
	if len(tr.Played) != 2 || f.places.count() != 4 {
		t.Fatalf("after resuming: %d rounds, %d venues", len(tr.Played), f.places.count())
	}
	// A second restart pairs nothing more.
	f.svc = f.service()
	if _, err := f.svc.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if tr = f.tour(t); len(tr.Played) != 2 || f.places.count() != 4 {
		t.Fatalf("after resuming twice: %d rounds, %d venues", len(tr.Played), f.places.count())
	}
}

// TestTournamentRatedGames: a rated tournament game changes the players'
// ratings as any game does; an unrated tournament's do not.
func TestTournamentRatedGames(t *testing.T) {
	for _, rated := range []bool{true, false} {
		t.Run(fmt.Sprint("rated=", rated), func(t *testing.T) {
			f := newTourFixture(t, sessionstest.NewMemoryStore())
			ps := entrants(4)
			play := sessions.DefaultPlayOptions()
			play.Rated = rated
			f.open(t, ps[0], sessions.TournamentSpec{Options: map[string]string{"target": "50"}, Play: play}, ps)
			tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
			tr := f.tour(t)
			g := tr.Played[0].Games[0]
			w := sessions.Request{Key: g.Key, User: playerOf(tr, g.White)}
			b := sessions.Request{Key: g.Key, User: playerOf(tr, g.Black)}
			for range sessions.MinRatedMoves + 1 {
				must(t)(f.svc.Move(ctx, w, "1"))
				must(t)(f.svc.Move(ctx, b, "1"))
			}
			must(t)(f.svc.Resign(ctx, b))
			st, err := f.svc.Standings(ctx, "console", g.White, "count")
			if err != nil {
				t.Fatal(err)
			}
			if rated != (len(st) == 2 && st[0].Rating > sessions.StartRating) {
				t.Errorf("the winner's standings: %+v", st)
			}
		})
	}
}

// playerOf returns the entrant of tr with this user id.
func playerOf(tr *sessions.Tournament, id string) sessions.User {
	for _, e := range tr.Players {
		if e.User.ID == id {
			return e.User
		}
	}
	return sessions.User{}
}

// TestTournamentCancel: only the organiser or a manager cancels; games
// under way play on, and their end does not change the tournament any more.
func TestTournamentCancel(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(4)
	f.open(t, ps[0], sessions.TournamentSpec{}, ps)
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	if _, err := f.svc.CancelTournament(ctx, in(ps[1])); sessions.KindOf(err) != sessions.ErrNotOrganiser {
		t.Fatalf("cancel by a player: %v", err)
	}
	manager := sessions.User{ID: "m", Name: "mod"}
	ev := tourMust(t)(f.svc.CancelTournament(ctx, sessions.Request{Key: tourKey, User: manager, Manager: true}))
	if ev.Kind != sessions.TourCancelled || ev.Tournament.Status != sessions.StatusCancelled {
		t.Fatalf("cancel: %+v", ev)
	}
	tr := ev.Tournament
	f.finish(t, tr, tr.Played[0].Games[0], tournament.WhiteWins)
	if got := f.tour(t); got.Played[0].Games[0].Result != tournament.Pending || got.Status != sessions.StatusCancelled || len(got.Played) != 1 {
		t.Errorf("after a game's end: %+v", got)
	}
	if _, err := f.svc.CancelTournament(ctx, in(ps[0])); sessions.KindOf(err) != sessions.ErrNoTournament {
		t.Errorf("cancel twice: %v", err)
	}
	// The channel is free for a new one.
	f.open(t, ps[1], sessions.TournamentSpec{}, nil)
}

// TestTournamentRefusals: what each command refuses, and that a refusal
// changes nothing.
func TestTournamentRefusals(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(13)
	org := ps[0]
	spec := func(opts map[string]string) sessions.TournamentSpec {
		return sessions.TournamentSpec{Game: "count", Options: opts, Play: sessions.DefaultPlayOptions()}
	}
	badValue := func(err error, key string) bool {
		var bv *sessions.BadValue
		return sessions.KindOf(err) == sessions.ErrBadOption && errors.As(err, &bv) && bv.Key == key
	}
	if _, err := f.svc.NewTournament(ctx, in(org), spec(map[string]string{"players": "4"})); !badValue(err, "players") {
		t.Errorf("four players: %v", err)
	}
	if _, err := f.svc.NewTournament(ctx, in(org), sessions.TournamentSpec{Game: "count", Rounds: 12}); !badValue(err, "rounds") {
		t.Errorf("12 rounds: %v", err)
	}
	if _, err := f.svc.NewTournament(ctx, in(org), sessions.TournamentSpec{Game: "count", Format: "knockout"}); !badValue(err, "format") {
		t.Errorf("knockout: %v", err)
	}
	if _, err := f.svc.NewTournament(ctx, in(org), spec(map[string]string{"size": "9"})); sessions.KindOf(err) != sessions.ErrBadOption {
		t.Errorf("bad option: %v", err)
	}
	elsewhere := sessions.Request{Key: sessions.Key{Platform: "discord", Channel: "x"}, User: org}
	var nv *sessions.NoPlaces
	if _, err := f.svc.NewTournament(ctx, elsewhere, spec(nil)); sessions.KindOf(err) != sessions.ErrNoPlaces || !errors.As(err, &nv) || nv.Problem != sessions.PlaceNone {
		t.Errorf("a platform without venues: %v", err)
	}
	refusal := &sessions.Error{Kind: sessions.ErrNoPlaces, Err: &sessions.NoPlaces{Problem: sessions.PlaceNoRights}}
	f.places.refuse = refusal
	if _, err := f.svc.NewTournament(ctx, in(org), spec(nil)); err != refusal {
		t.Errorf("venues refused: %v", err)
	}
	f.places.refuse = &sessions.NoPlaces{Problem: sessions.PlaceNotForum}
	if _, err := f.svc.NewTournament(ctx, in(org), spec(nil)); sessions.KindOf(err) != sessions.ErrNoPlaces || !errors.As(err, &nv) || nv.Problem != sessions.PlaceNotForum {
		t.Errorf("not a forum: %v", err)
	}
	down := errors.New("getChat: connection refused")
	f.places.refuse = down
	if _, err := f.svc.NewTournament(ctx, in(org), spec(nil)); sessions.KindOf(err) != sessions.ErrNoPlaces || !errors.As(err, &nv) ||
		nv.Problem != sessions.PlaceUnreachable || !errors.Is(err, down) {
		t.Errorf("the platform could not be asked: %v", err)
	}
	f.places.refuse = nil
	halma := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Places: sessions.PlaceSet{"console": f.places}})
	if _, err := halma.NewTournament(ctx, in(org), sessions.TournamentSpec{Game: "halma", Options: map[string]string{"players": "4", "size": "16"}}); !badValue(err, "players") {
		t.Errorf("four-player Halma: %v", err)
	}
	if ev, err := halma.NewTournament(ctx, in(org), sessions.TournamentSpec{Game: "halma"}); err != nil || ev.Tournament.Game != "halma" {
		t.Errorf("two-player Halma: %+v, %v", ev, err)
	}
	for _, cmd := range []func(context.Context, sessions.Request) (sessions.TourEvent, error){
		f.svc.JoinTournament, f.svc.LeaveTournament, f.svc.StartTournament, f.svc.CancelTournament} {
		if _, err := cmd(ctx, in(org)); sessions.KindOf(err) != sessions.ErrNoTournament {
			t.Errorf("no tournament: %v", err)
		}
	}
	if _, err := f.svc.TournamentHere(ctx, tourKey); sessions.KindOf(err) != sessions.ErrNoTournament {
		t.Errorf("standings of none: %v", err)
	}
	if _, err := f.svc.TournamentByID(ctx, "console", "7"); sessions.KindOf(err) != sessions.ErrNoTournament {
		t.Errorf("show 7: %v", err)
	}

	f.open(t, org, sessions.TournamentSpec{Format: sessions.FormatRoundRobin}, ps[1:3])
	if _, err := f.svc.NewTournament(ctx, in(org), spec(nil)); sessions.KindOf(err) != sessions.ErrTournamentOpen {
		t.Errorf("a second one: %v", err)
	}
	if _, err := f.svc.JoinTournament(ctx, in(ps[1])); sessions.KindOf(err) != sessions.ErrAlreadyJoined {
		t.Errorf("joining twice: %v", err)
	}
	if _, err := f.svc.LeaveTournament(ctx, in(org)); sessions.KindOf(err) != sessions.ErrNotEntered {
		t.Errorf("the organiser did not join: %v", err)
	}
	if _, err := f.svc.StartTournament(ctx, in(ps[1])); sessions.KindOf(err) != sessions.ErrNotOrganiser {
		t.Errorf("start by a player: %v", err)
	}
	var bc *sessions.BadCount
	if _, err := f.svc.StartTournament(ctx, in(org)); sessions.KindOf(err) != sessions.ErrPlayerCount ||
		!errors.As(err, &bc) || *bc != (sessions.BadCount{Players: 2, Min: 3, Max: 12}) {
		t.Errorf("two players: %v", err)
	}
	for _, p := range ps[3:] {
		tourMust(t)(f.svc.JoinTournament(ctx, in(p)))
	}
	tourMust(t)(f.svc.JoinTournament(ctx, in(org)))
	if _, err := f.svc.StartTournament(ctx, in(org)); sessions.KindOf(err) != sessions.ErrPlayerCount || !errors.As(err, &bc) || bc.Players != 13 {
		t.Errorf("thirteen players: %v", err)
	}
	// Leaving during sign-up: simply gone.
	tourMust(t)(f.svc.LeaveTournament(ctx, in(org)))
	ev := tourMust(t)(f.svc.StartTournament(ctx, in(org)))
	if ev.Tournament.Rounds != 11 || f.places.count() != 6 {
		t.Errorf("round-robin of 12: %d rounds, %d games", ev.Tournament.Rounds, f.places.count())
	}
	if _, err := f.svc.StartTournament(ctx, in(org)); sessions.KindOf(err) != sessions.ErrSignupClosed {
		t.Errorf("start twice: %v", err)
	}
	if slices.ContainsFunc(ev.Tournament.Players, func(e sessions.Entrant) bool { return e.User.Is(org) }) {
		t.Errorf("the organiser left but plays: %+v", ev.Tournament.Players)
	}
}

// TestTournamentGamesEndAtOnce: the games of a round that end at the same
// moment record both results, and the next round is paired once.
func TestTournamentGamesEndAtOnce(t *testing.T) {
	f := newTourFixture(t, sessionstest.NewMemoryStore())
	ps := entrants(8)
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 2}, ps)
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	tr := f.tour(t)
	var wg sync.WaitGroup
	errs := make(chan error, len(tr.Played[0].Games))
	for _, g := range tr.Played[0].Games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := f.svc.Resign(ctx, sessions.Request{Key: g.Key, User: playerOf(tr, g.White)})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	tr = f.tour(t)
	for _, g := range tr.Played[0].Games {
		if g.Result != tournament.BlackWins || g.GameID == "" {
			t.Errorf("round 1: %+v", g)
		}
	}
	if len(tr.Played) != 2 || f.places.count() != 8 {
		t.Errorf("%d rounds, %d venues; want 2, 8", len(tr.Played), f.places.count())
	}
	if got, want := f.notes.posts(), []string{"ended 1", "paired 2"}; !slices.Equal(got, want) {
		t.Errorf("posts %q, want %q", got, want)
	}
}

// TestTournamentRetryByTick: a game whose place the platform failed to
// open, and a round the store failed to write, are tried again by the
// clock after TourRetryEvery, without a restart.
func TestTournamentRetryByTick(t *testing.T) {
	store := &failingPuts{MemoryStore: sessionstest.NewMemoryStore()}
	f := &tourFixture{store: store, places: &fakePlaces{}, notes: &tourNotices{}, clk: newClock()}
	f.svc = f.service()
	ps := entrants(4)
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 2}, ps)
	f.places.fail = func(round int, white, black sessions.User) error {
		if white.ID == "p2" || black.ID == "p2" {
			return errors.New("the platform is down")
		}
		return nil
	}
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	f.places.mu.Lock()
	f.places.fail = nil
	f.places.mu.Unlock()
	unopened := func() int {
		n := 0
		for _, g := range f.tour(t).Played[len(f.tour(t).Played)-1].Games {
			if g.Key == (sessions.Key{}) {
				n++
			}
		}
		return n
	}
	f.clk.Add(sessions.TourRetryEvery - time.Second)
	f.svc.Tick(ctx)
	if n := unopened(); n != 1 {
		t.Fatalf("before TourRetryEvery: %d games unopened, want 1", n)
	}
	f.clk.Add(time.Second)
	f.svc.Tick(ctx)
	if n := unopened(); n != 0 || f.places.count() != 2 {
		t.Fatalf("after TourRetryEvery: %d games unopened, %d venues", n, f.places.count())
	}

	tr := f.tour(t)
	f.finish(t, tr, tr.Played[0].Games[0], tournament.WhiteWins)
	store.mu.Lock()
	store.arm = true
	store.mu.Unlock()
	f.finish(t, tr, tr.Played[0].Games[1], tournament.WhiteWins)
	store.mu.Lock()
	store.arm = false
	store.mu.Unlock()
	if n := len(f.tour(t).Played); n != 1 {
		t.Fatalf("round 2 stored on a failing store: %d rounds", n)
	}
	f.clk.Add(sessions.TourRetryEvery)
	f.svc.Tick(ctx)
	if tr := f.tour(t); len(tr.Played) != 2 || unopened() != 0 {
		t.Fatalf("after TourRetryEvery: %d rounds, %d unopened", len(tr.Played), unopened())
	}
}

// barrierStore holds back the answers of the first n TournamentsAt until
// n were read, so that n processes find a channel free before any opens
// a tournament there.
type barrierStore struct {
	sessions.Store
	mu      sync.Mutex
	n       int
	arrived chan struct{}
}

func (b *barrierStore) TournamentsAt(ctx context.Context, key sessions.Key, limit int) ([]*sessions.Tournament, error) {
	b.mu.Lock()
	wait := b.n > 0
	if wait {
		if b.n--; b.n == 0 {
			close(b.arrived)
		}
	}
	b.mu.Unlock()
	ts, err := b.Store.TournamentsAt(ctx, key, limit)
	if wait {
		<-b.arrived
	}
	return ts, err
}

// TestTournamentNewInTwoServices: two services (two processes) on one
// store open a tournament in the same channel at the same moment, both
// having found the channel free: the store keeps one, and the other
// process answers ErrTournamentOpen with the one that was opened.
func TestTournamentNewInTwoServices(t *testing.T) {
	store := &barrierStore{Store: sessionstest.NewMemoryStore(), n: 2, arrived: make(chan struct{})}
	a, b := newTourFixture(t, store), newTourFixture(t, store)
	spec := sessions.TournamentSpec{Game: "count", Options: map[string]string{"target": "5"}, Play: sessions.DefaultPlayOptions()}
	type answer struct {
		ev  sessions.TourEvent
		err error
	}
	answers := make(chan answer, 2)
	for i, f := range []*tourFixture{a, b} {
		go func() {
			key := tourKey
			key.Thread = fmt.Sprint("lobby", i)
			ev, err := f.svc.NewTournament(ctx, sessions.Request{Key: key, User: entrants(2)[i]}, spec)
			answers <- answer{ev, err}
		}()
	}
	var opened, refused []sessions.TourEvent
	for range 2 {
		x := <-answers
		switch {
		case x.err == nil:
			opened = append(opened, x.ev)
		case sessions.KindOf(x.err) == sessions.ErrTournamentOpen:
			refused = append(refused, x.ev)
		default:
			t.Fatalf("new: %v", x.err)
		}
	}
	if len(opened) != 1 || len(refused) != 1 {
		t.Fatalf("two tournaments opened at once: %d opened, %d refused", len(opened), len(refused))
	}
	if refused[0].Tournament == nil || refused[0].Tournament.ID != opened[0].Tournament.ID {
		t.Errorf("the refusal shows %+v, want tournament %s", refused[0].Tournament, opened[0].Tournament.ID)
	}
	ts, err := store.TournamentsAt(ctx, tourKey, 0)
	if err != nil || len(ts) != 1 {
		t.Fatalf("tournaments stored in the channel: %d, %v", len(ts), err)
	}
}

// TestTournamentStalledRoundTakenOver: the process that paired a round
// dies while opening its games (here: its platform fails for one game,
// and it never ticks again). Another process's Tick leaves the round alone
// while the first may still be opening it, and opens the missing game
// once TourStallAfter has passed since the pairing, once. A round whose
// results are all in but whose next round nobody paired (its last game's
// process died between the two) is paired by the next Tick.
func TestTournamentStalledRoundTakenOver(t *testing.T) {
	f := &tourFixture{store: sessionstest.NewMemoryStore(), places: &fakePlaces{}, notes: &tourNotices{}, clk: newClock()}
	f.svc = f.service()
	ps := entrants(4)
	f.open(t, ps[0], sessions.TournamentSpec{Rounds: 2}, ps)
	f.places.fail = func(round int, white, black sessions.User) error {
		if white.ID == "p2" || black.ID == "p2" {
			return errors.New("the process dies here")
		}
		return nil
	}
	tourMust(t)(f.svc.StartTournament(ctx, in(ps[0])))
	f.svc.Close() // the first process is gone

	other := &fakePlaces{n: 100} // its places are g101, g102, ...
	b := sessions.New(sessions.Config{Store: f.store, Games: sessionstest.Games, Notifier: f.notes, Now: f.clk.Now,
		Rand: func(n int) int { return 0 }, Places: sessions.PlaceSet{"console": other}})
	defer b.Close()
	unopened := func() int {
		n := 0
		tr := f.tour(t)
		for _, g := range tr.Played[len(tr.Played)-1].Games {
			if g.Key == (sessions.Key{}) {
				n++
			}
		}
		return n
	}
	for d := time.Duration(0); d < sessions.TourStallAfter; d += sessions.TourRetryEvery {
		b.Tick(ctx)
		if n := unopened(); n != 1 || other.count() != 0 {
			t.Fatalf("%v after the pairing: %d games unopened, %d opened by the other process; want 1 and 0", d, n, other.count())
		}
		f.clk.Add(sessions.TourRetryEvery)
	}
	b.Tick(ctx)
	b.Tick(ctx)
	f.clk.Add(sessions.TourRetryEvery)
	b.Tick(ctx)
	if n := unopened(); n != 0 || other.count() != 1 {
		t.Fatalf("after TourStallAfter: %d games unopened, %d opened by the other process; want 0 and 1", n, other.count())
	}

	// Round 1's results are stored, as by a process that died before it
	// paired round 2.
	tr := f.tour(t)
	for i := range tr.Played[0].Games {
		tr.Played[0].Games[i].Result = tournament.WhiteWins
	}
	tr.Rev++
	if err := f.store.PutTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	f.clk.Add(sessions.TourRetryEvery)
	b.Tick(ctx)
	if tr := f.tour(t); len(tr.Played) != 2 || unopened() != 0 || other.count() != 3 {
		t.Fatalf("the next Tick: %d rounds, %d unopened, %d opened by the other process; want 2, 0 and 3", len(tr.Played), unopened(), other.count())
	}
}
