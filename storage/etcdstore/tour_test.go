package etcdstore_test

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
	"github.com/boardgamebot/bot/storage/etcdstore"
)

// The tests of this file run tournaments with two bot processes on one
// etcd: each process is a Service on its own Store (its own view of the
// sessions), with its own Places and notices.

// tourChannel is where the tournaments under test are opened.
var tourChannel = sessions.Key{Platform: "test", Channel: "tour", Thread: "lobby"}

// here is a request of u in the tournament's channel, from a thread of it.
func here(u sessions.User) sessions.Request {
	return sessions.Request{Key: sessions.Key{Platform: "test", Channel: "tour", Thread: "chat-" + u.ID}, User: u}
}

// places opens the game places of one process: threads "<process>-g1",
// "<process>-g2"... of the tournament's channel. fail, when set, makes
// an opening fail when it returns true (given the round and how many
// places this process opened so far).
type places struct {
	name   string
	mu     sync.Mutex
	opened []sessions.Key
	fail   func(round, opened int) bool
}

func (v *places) CheckPlaces(ctx context.Context, key sessions.Key) error { return nil }

func (v *places) OpenPlace(ctx context.Context, g sessions.PlaceGame) (sessions.Key, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.fail != nil && v.fail(g.Round, len(v.opened)) {
		return sessions.Key{}, errors.New("the platform refused a thread")
	}
	k := sessions.Key{Platform: "test", Channel: g.Tournament.Key.Channel, Thread: fmt.Sprintf("%s-g%d", v.name, len(v.opened)+1)}
	v.opened = append(v.opened, k)
	return k, nil
}

func (v *places) keys() []sessions.Key {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.opened)
}

// posts records a process's tournament posts: "ended 1", "paired 2",
// "final 3".
type posts struct {
	mu   sync.Mutex
	list []string
	last []tournament.Standing // the standings of the last post
}

func (p *posts) Notify(ctx context.Context, n sessions.Notice) {
	if n.Kind != sessions.NoticeTournament {
		return
	}
	name := map[sessions.TourEventKind]string{sessions.TourRoundEnded: "ended", sessions.TourRoundPaired: "paired", sessions.TourEnded: "final",
		sessions.TourPlaceOpened: "opened", sessions.TourPlaceMissing: "missing"}[n.Tour.Kind]
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, fmt.Sprintf("%s %d", name, n.Tour.Round))
	p.last = n.Tour.Standings
}

func (p *posts) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.list)
}

// gate holds back the answer of each gated Store's first tournament read
// after arm until every Store named in arm has read: so that two
// processes read a tournament at the same Rev before either writes it.
type gate struct {
	mu      sync.Mutex
	pending map[string]bool
	open    chan struct{}
}

// arm makes the next tournament read of each named process wait for the
// others'.
func (g *gate) arm(names ...string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pending, g.open = map[string]bool{}, make(chan struct{})
	for _, n := range names {
		g.pending[n] = true
	}
}

func (g *gate) pass(name string) {
	g.mu.Lock()
	wait := g.pending[name]
	open := g.open
	if wait {
		if delete(g.pending, name); len(g.pending) == 0 {
			close(open)
		}
	}
	g.mu.Unlock()
	if wait {
		<-open
	}
}

// gated is a process's Store whose tournament reads go through gates:
// the first read after a commit that ended a tournament game (the read
// that decides whether the round is over) waits at gate ended before it
// reads (so that it sees what the other process wrote before it came to
// the gate); the others read, then wait at gate g with what they read
// (so that both processes hold the tournament at the same Rev).
type gated struct {
	*etcdstore.Store
	name     string
	g, ended *gate
	mu       sync.Mutex
	justEnd  bool
}

func (s *gated) Tournament(ctx context.Context, id string) (*sessions.Tournament, error) {
	s.mu.Lock()
	after := s.justEnd
	s.justEnd = false
	s.mu.Unlock()
	if after {
		s.ended.pass(s.name)
		return s.Store.Tournament(ctx, id)
	}
	t, err := s.Store.Tournament(ctx, id)
	s.g.pass(s.name)
	return t, err
}

func (s *gated) Commit(ctx context.Context, c *sessions.Change) error {
	err := s.Store.Commit(ctx, c)
	if err == nil && c.Finished != nil && c.Finished.Tour != nil && c.Tournament != nil {
		s.mu.Lock()
		s.justEnd = true
		s.mu.Unlock()
	}
	return err
}

// proc is one bot process.
type proc struct {
	name   string
	svc    *sessions.Service
	places *places
	posts  *posts
}

// newProc starts process name on the test's etcd prefix, its tournament
// reads through the gates g and (after a game's end) ended; with, when
// given, changes its configuration.
func newProc(t *testing.T, name string, g, ended *gate, with ...func(*sessions.Config)) *proc {
	p := &proc{name: name, places: &places{name: name}, posts: &posts{}}
	var store sessions.Store = &gated{Store: open(t), name: name, g: g, ended: ended}
	cfg := sessions.Config{Store: store, Games: sessionstest.Games, Notifier: p.posts,
		Now: func() time.Time { return tourT0 }, Rand: func(int) int { return 0 },
		Places: sessions.PlaceSet{"test": p.places}}
	for _, f := range with {
		f(&cfg)
	}
	p.svc = sessions.New(cfg)
	t.Cleanup(p.svc.Close)
	return p
}

func players(n int) []sessions.User {
	var out []sessions.User
	for i := 1; i <= n; i++ {
		out = append(out, sessions.User{ID: fmt.Sprint("p", i), Name: fmt.Sprint("P", i)})
	}
	return out
}

func must(t *testing.T) func(sessions.TourEvent, error) sessions.TourEvent {
	return func(ev sessions.TourEvent, err error) sessions.TourEvent {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
}

// signUp opens a Swiss of count (target 5) through procs[0], organised by
// ps[0], and signs up ps, each through the processes in turn.
func signUp(t *testing.T, rounds int, ps []sessions.User, procs ...*proc) {
	t.Helper()
	ctx := context.Background()
	spec := sessions.TournamentSpec{Game: "count", Options: map[string]string{"target": "5"}, Play: sessions.DefaultPlayOptions(), Rounds: rounds}
	must(t)(procs[0].svc.NewTournament(ctx, sessions.Request{Key: tourChannel, User: ps[0]}, spec))
	for i, u := range ps {
		must(t)(procs[i%len(procs)].svc.JoinTournament(ctx, here(u)))
	}
}

// stored is the channel's tournament as a process started now reads it.
func stored(t *testing.T) sessions.TourEvent {
	t.Helper()
	return must(t)(newProc(t, "reader", &gate{}, &gate{}).svc.TournamentHere(context.Background(), tourChannel))
}

func userOf(tr *sessions.Tournament, id string) sessions.User {
	for _, e := range tr.Players {
		if e.User.ID == id {
			return e.User
		}
	}
	return sessions.User{}
}

// TestTournamentStartFromTwoProcesses: the organiser and a server manager
// start the tournament at the same moment through two processes, both
// having read it in sign-up: it starts once (the other answer is
// ErrSignupClosed), round 1 is paired once and its games opened once,
// all by the process that started it.
func TestTournamentStartFromTwoProcesses(t *testing.T) {
	ctx := context.Background()
	g, g2 := &gate{}, &gate{}
	a, b := newProc(t, "a", g, g2), newProc(t, "b", g, g2)
	ps := players(6)
	signUp(t, 3, ps, a, b)
	g.arm("a", "b")
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, r := range []sessions.Request{here(ps[0]), {Key: here(ps[3]).Key, User: ps[3], Manager: true}} {
		wg.Go(func() { _, errs[i] = []*proc{a, b}[i].svc.StartTournament(ctx, r) })
	}
	wg.Wait()
	kinds := []error{sessions.KindOf(errs[0]), sessions.KindOf(errs[1])}
	if !slices.Contains(kinds, nil) || !slices.Contains(kinds, sessions.ErrSignupClosed) {
		t.Fatalf("two starts at once: %v", errs)
	}
	winner := a
	if errs[0] != nil {
		winner = b
	}
	tr := stored(t).Tournament
	if tr.Status != sessions.StatusRunning || len(tr.Played) != 1 || len(tr.Played[0].Games) != 3 {
		t.Fatalf("after the starts: %s, rounds %+v", tr.Status, tr.Played)
	}
	var keys []sessions.Key
	for _, gm := range tr.Played[0].Games {
		keys = append(keys, gm.Key)
		snap, err := a.svc.Look(ctx, gm.Key)
		if err != nil || snap.Record.Tour == nil || snap.Record.Tour.ID != tr.ID || snap.Record.Seats[0].ID != gm.White {
			t.Fatalf("the game at %v: %+v, %v", gm.Key, snap, err)
		}
	}
	if got := slices.Concat(a.places.keys(), b.places.keys()); !slices.Equal(got, keys) || !slices.Equal(winner.places.keys(), keys) {
		t.Fatalf("venues opened: %v by a, %v by b; the round's games are at %v (started by %s)", a.places.keys(), b.places.keys(), keys, winner.name)
	}
}

// TestTournamentSwissInTwoProcesses plays a Swiss of six players and
// three rounds through two processes, where the last two games of each
// round end at the same moment, one in each process (both read the
// tournament at the same Rev before either writes its result, and both
// find the round over): both results are recorded, once; the next
// round is paired once (three
// places a round in all, its games those of the stored round); every
// game of the tournament is the one finished game of its place in the
// history, with its id; each post is made once, by one process or the
// other; and a third process reads the standings the two wrote.
func TestTournamentSwissInTwoProcesses(t *testing.T) {
	ctx := context.Background()
	g, g2 := &gate{}, &gate{}
	a, b := newProc(t, "a", g, g2), newProc(t, "b", g, g2)
	ps := players(6)
	signUp(t, 3, ps, a, b)
	must(t)(a.svc.StartTournament(ctx, here(ps[0])))
	score := map[string]float64{}
	for round := 1; round <= 3; round++ {
		tr := stored(t).Tournament
		if len(tr.Played) != round || tr.Status != sessions.StatusRunning {
			t.Fatalf("round %d: %d rounds paired, %s", round, len(tr.Played), tr.Status)
		}
		games := tr.Played[round-1].Games
		if len(games) != 3 {
			t.Fatalf("round %d: %+v", round, games)
		}
		req := func(i int, white bool) sessions.Request {
			id := games[i].Black
			if white {
				id = games[i].White
			}
			return sessions.Request{Key: games[i].Key, User: userOf(tr, id)}
		}
		// Board 1: White reaches 5 (2, 1, 2), the moves through both
		// processes in turn.
		for i, m := range []string{"2", "1", "2"} {
			if _, err := []*proc{a, b}[i%2].svc.Move(ctx, req(0, i%2 == 0), m); err != nil {
				t.Fatalf("round %d board 1 move %s: %v", round, m, err)
			}
		}
		score[games[0].White]++
		if now := stored(t).Tournament; len(now.Played) != round {
			t.Fatalf("round %d paired %d rounds before its last games ended", round, len(now.Played))
		}
		// Boards 2 and 3 end at once: White resigns board 2 in process
		// a, Black accepts White's draw offer on board 3 in process b;
		// then both, each having seen the other's result, find the round
		// over and pair the next one at once.
		if _, err := a.svc.Draw(ctx, req(2, true)); err != nil {
			t.Fatalf("round %d: draw offer: %v", round, err)
		}
		g.arm("a", "b")
		g2.arm("a", "b")
		var wg sync.WaitGroup
		errs := make([]error, 2)
		wg.Go(func() { _, errs[0] = a.svc.Resign(ctx, req(1, true)) })
		wg.Go(func() { _, errs[1] = b.svc.Draw(ctx, req(2, false)) })
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("round %d: the last two games' ends: %v", round, errs)
		}
		score[games[1].Black]++
		score[games[2].White] += 0.5
		score[games[2].Black] += 0.5

		after := stored(t).Tournament
		want := []tournament.Result{tournament.WhiteWins, tournament.BlackWins, tournament.Draw}
		for i, gm := range after.Played[round-1].Games {
			if gm.Result != want[i] || gm.GameID == "" || gm.Key != games[i].Key {
				t.Errorf("round %d board %d: %+v, want %s", round, i+1, gm, want[i])
			}
		}
		if opened := len(a.places.keys()) + len(b.places.keys()); opened != 3*min(round+1, 3) {
			t.Fatalf("after round %d: %d venues opened (a %v, b %v), want %d", round, opened, a.places.keys(), b.places.keys(), 3*min(round+1, 3))
		}
	}
	ev := stored(t)
	tr := ev.Tournament
	if tr.Status != sessions.StatusFinished || len(tr.Played) != 3 {
		t.Fatalf("at the end: %s, %d rounds", tr.Status, len(tr.Played))
	}
	var keys []sessions.Key
	ids := map[string]bool{}
	for _, r := range tr.Played {
		for bd, gm := range r.Games {
			keys = append(keys, gm.Key)
			h, err := a.svc.History(ctx, sessions.HistoryQuery{Platform: "test", Key: gm.Key, Limit: 10})
			if err != nil || len(h) != 1 || h[0].ID != gm.GameID || ids[gm.GameID] {
				t.Fatalf("round %d board %d: game %s; history of %v: %d games, %v", r.Number, bd+1, gm.GameID, gm.Key, len(h), err)
			}
			ids[gm.GameID] = true
			if f := h[0]; f.Tour == nil || f.Tour.ID != tr.ID || f.Tour.Round != r.Number || f.Tour.Board != bd || f.Seats[0].ID != gm.White || f.Seats[1].ID != gm.Black {
				t.Errorf("round %d board %d: the finished game %+v", r.Number, bd+1, f)
			}
		}
	}
	opened := slices.Concat(a.places.keys(), b.places.keys())
	slices.SortFunc(opened, func(x, y sessions.Key) int { return compareKeys(x, y) })
	slices.SortFunc(keys, func(x, y sessions.Key) int { return compareKeys(x, y) })
	if !slices.Equal(opened, keys) {
		t.Errorf("venues opened %v, the tournament's games %v", opened, keys)
	}
	all := slices.Concat(a.posts.all(), b.posts.all())
	slices.Sort(all)
	if want := []string{"ended 1", "ended 2", "final 3", "paired 2", "paired 3"}; !slices.Equal(all, want) {
		t.Errorf("posts: a %q, b %q; want each of %q once", a.posts.all(), b.posts.all(), want)
	}
	if len(ev.Standings) != 6 {
		t.Fatalf("standings: %+v", ev.Standings)
	}
	for _, s := range ev.Standings {
		if s.Points != score[s.Player] {
			t.Errorf("standing %+v, played %v", s, score[s.Player])
		}
	}
	for _, p := range []*proc{a, b} {
		if got := must(t)(p.svc.TournamentHere(ctx, here(ps[5]).Key)); !slices.Equal(got.Standings, ev.Standings) {
			t.Errorf("process %s's standings %+v, want %+v", p.name, got.Standings, ev.Standings)
		}
	}
}

func compareKeys(x, y sessions.Key) int {
	switch {
	case x.String() < y.String():
		return -1
	case x.String() > y.String():
		return 1
	}
	return 0
}

// TestTournamentStandingsInAnotherProcess: a process that serves the
// tournament's channel too sees what the other wrote: the players it
// signed up, then the results and standings of a round played in the
// other process; and a player it signs up late is in the tournament the
// other process reads.
func TestTournamentStandingsInAnotherProcess(t *testing.T) {
	ctx := context.Background()
	g, g2 := &gate{}, &gate{}
	a, c := newProc(t, "a", g, g2), newProc(t, "c", g, g2)
	ps := players(5)
	signUp(t, 3, ps[:4], a) // three rounds: round 3 is left for the late entry of round 2
	if ev := must(t)(c.svc.TournamentHere(ctx, here(ps[4]).Key)); len(ev.Tournament.Players) != 4 || ev.Tournament.Status != sessions.StatusSignup {
		t.Fatalf("process c during sign-up: %+v", ev.Tournament)
	}
	must(t)(a.svc.StartTournament(ctx, here(ps[0])))
	tr := must(t)(a.svc.TournamentHere(ctx, tourChannel)).Tournament
	for _, gm := range tr.Played[0].Games {
		if _, err := a.svc.Resign(ctx, sessions.Request{Key: gm.Key, User: userOf(tr, gm.White)}); err != nil {
			t.Fatal(err)
		}
	}
	mine := must(t)(a.svc.TournamentHere(ctx, tourChannel))
	theirs := must(t)(c.svc.TournamentHere(ctx, here(ps[4]).Key))
	if len(theirs.Tournament.Played) != 2 || !slices.Equal(theirs.Standings, mine.Standings) || theirs.Tournament.Rev != mine.Tournament.Rev {
		t.Fatalf("process c reads rev %d, %d rounds, standings %+v; process a wrote rev %d, standings %+v",
			theirs.Tournament.Rev, len(theirs.Tournament.Played), theirs.Standings, mine.Tournament.Rev, mine.Standings)
	}
	for _, s := range theirs.Standings {
		if won := s.Player == tr.Played[0].Games[0].Black || s.Player == tr.Played[0].Games[1].Black; won != (s.Points == 1) {
			t.Errorf("standing %+v after round 1", s)
		}
	}
	// A late entry (a Swiss) through process c.
	must(t)(c.svc.JoinTournament(ctx, here(ps[4])))
	if ev := must(t)(a.svc.TournamentHere(ctx, tourChannel)); len(ev.Tournament.Players) != 5 || ev.Tournament.Players[4].Joined != 2 || len(ev.Standings) != 5 {
		t.Fatalf("process a after the late entry in c: %+v", ev.Tournament.Players)
	}
}

// TestTournamentResumeInAnotherProcess: a process pairs a round but
// opens only one of its two games (the platform refuses the second
// place), and stops; a process started then on the same etcd completes
// the round in Resume (one place opened, through its own places), and
// the tournament plays on to its end there.
func TestTournamentResumeInAnotherProcess(t *testing.T) {
	ctx := context.Background()
	g, g2 := &gate{}, &gate{}
	a := newProc(t, "a", g, g2)
	a.places.fail = func(round, opened int) bool { return opened >= 1 }
	ps := players(4)
	signUp(t, 2, ps, a)
	must(t)(a.svc.StartTournament(ctx, here(ps[0])))
	tr := stored(t).Tournament
	if games := tr.Played[0].Games; len(games) != 2 || games[0].Key == (sessions.Key{}) || games[1].Key != (sessions.Key{}) {
		t.Fatalf("round 1 after a's start: %+v", tr.Played[0].Games)
	}

	d := newProc(t, "d", g, g2) // a stopped; d starts
	if _, err := d.svc.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	tr = stored(t).Tournament
	games := tr.Played[0].Games
	if dk := d.places.keys(); len(dk) != 1 || games[1].Key != dk[0] || games[0].Key != a.places.keys()[0] {
		t.Fatalf("round 1 after d resumed: %+v; d opened %v", games, dk)
	}
	for round := 1; round <= 2; round++ {
		tr = stored(t).Tournament
		for _, gm := range tr.Played[round-1].Games {
			if _, err := d.svc.Resign(ctx, sessions.Request{Key: gm.Key, User: userOf(tr, gm.Black)}); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
	tr = stored(t).Tournament
	if tr.Status != sessions.StatusFinished || len(tr.Played) != 2 || len(d.places.keys()) != 3 || len(a.places.keys()) != 1 {
		t.Fatalf("at the end: %s, %d rounds; venues a %v, d %v", tr.Status, len(tr.Played), a.places.keys(), d.places.keys())
	}
	// The place d opened is posted with its link (the pairings a posted
	// had none).
	if got, want := d.posts.all(), []string{"opened 1", "ended 1", "paired 2", "final 2"}; !slices.Equal(got, want) {
		t.Errorf("d's posts %q, want %q", got, want)
	}
}

// TestTournamentGameEndedInTwoProcesses: both players of a tournament
// game resign at the same moment, one through each process, both having
// read the tournament at the same Rev: the game ends once, with one
// result and one finished game in the history (not two, each with its
// ratings); the later resignation finds no game.
func TestTournamentGameEndedInTwoProcesses(t *testing.T) {
	ctx := context.Background()
	g, g2 := &gate{}, &gate{}
	a, b := newProc(t, "a", g, g2), newProc(t, "b", g, g2)
	ps := players(4)
	signUp(t, 2, ps, a, b)
	must(t)(a.svc.StartTournament(ctx, here(ps[0])))
	tr := stored(t).Tournament
	gm := tr.Played[0].Games[0]
	g.arm("a", "b")
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, p := range []*proc{a, b} {
		u := userOf(tr, []string{gm.White, gm.Black}[i])
		wg.Go(func() { _, errs[i] = p.svc.Resign(ctx, sessions.Request{Key: gm.Key, User: u}) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case sessions.KindOf(err) != sessions.ErrNoGame:
			t.Fatalf("two resignations at once: %v", errs)
		}
	}
	h, err := a.svc.History(ctx, sessions.HistoryQuery{Platform: "test", Key: gm.Key, Limit: 10})
	if ok != 1 || err != nil || len(h) != 1 {
		t.Fatalf("two resignations at once: %v; the place's history: %d games, %v", errs, len(h), err)
	}
	after := stored(t).Tournament.Played[0].Games[0]
	if after.GameID != h[0].ID || after.Result == tournament.Pending {
		t.Errorf("the tournament's game %+v, the finished game %s", after, h[0].ID)
	}
}

// TestTournamentClockInAnotherProcess: the games of a round opened by
// one process are ended by the clock of the other (the process that
// runs the clocks, reading the due index): the players to move are out
// of time, the clock plays for them and their move wins (count to 1).
// Each result is recorded once, and the round that follows is paired
// once, by the clock's process; the first process's clock, coming round
// after, changes nothing.
func TestTournamentClockInAnotherProcess(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	now := tourT0
	clock := func(c *sessions.Config) {
		c.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		c.Computer = firstMove{}
	}
	g, g2 := &gate{}, &gate{}
	a, b := newProc(t, "a", g, g2, clock), newProc(t, "b", g, g2, clock)
	ps := players(4)
	spec := sessions.TournamentSpec{Game: "count", Options: map[string]string{"target": "1"}, Rounds: 2,
		Play: sessions.PlayOptions{Time: sessions.Duration(time.Hour), Rated: true}}
	must(t)(a.svc.NewTournament(ctx, sessions.Request{Key: tourChannel, User: ps[0]}, spec))
	for _, u := range ps {
		must(t)(a.svc.JoinTournament(ctx, here(u)))
	}
	must(t)(a.svc.StartTournament(ctx, here(ps[0])))
	tr := stored(t).Tournament
	mu.Lock()
	now = now.Add(time.Hour + time.Minute) // White is out of time on both boards
	mu.Unlock()
	for _, p := range []*proc{b, a} {
		p.svc.Tick(ctx)
		for _, gm := range tr.Played[0].Games {
			if err := p.svc.Settle(ctx, gm.Key); err != nil {
				t.Fatal(err)
			}
		}
	}
	after := stored(t).Tournament
	if len(after.Played) != 2 {
		t.Fatalf("after the clocks: %d rounds paired, want 2", len(after.Played))
	}
	for bd, gm := range after.Played[0].Games {
		h, err := a.svc.History(ctx, sessions.HistoryQuery{Platform: "test", Key: gm.Key, Limit: 10})
		if gm.Result != tournament.WhiteWins || err != nil || len(h) != 1 || h[0].ID != gm.GameID {
			t.Errorf("board %d: %+v; history of its place %d games, %v", bd+1, gm, len(h), err)
		}
	}
	var round2 []sessions.Key
	for _, gm := range after.Played[1].Games {
		round2 = append(round2, gm.Key)
	}
	if len(a.places.keys()) != 2 || !slices.Equal(b.places.keys(), round2) {
		t.Errorf("venues: a %v, b %v; round 2 at %v", a.places.keys(), b.places.keys(), round2)
	}
	if got, want := b.posts.all(), []string{"ended 1", "paired 2"}; !slices.Equal(got, want) || len(a.posts.all()) != 0 {
		t.Errorf("posts: a %q, b %q; want b %q", a.posts.all(), got, want)
	}
}
