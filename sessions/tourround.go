package sessions

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/boardgamebot/bot/sessions/tournament"
)

// pair returns t's next round (numbered len(t.Played)+1): the stored
// schedule of a round-robin, where the games of players who left are
// forfeits, or a Swiss pairing of the players still in. It does not add it
// to t.
func (tr *Tournaments) pair(t *Tournament) (TourRound, error) {
	n := len(t.Played) + 1
	r := TourRound{Number: n, Paired: tr.now().UTC()}
	if t.Format == FormatRoundRobin {
		sched, err := tournament.RoundRobin(t.ids(), t.Double)
		if err != nil {
			return TourRound{}, err
		}
		if n > len(sched) {
			return TourRound{}, tournament.ErrNoPairing
		}
		left := map[string]bool{}
		for _, e := range t.Players {
			if e.Left > 0 {
				left[e.User.ID] = true
			}
		}
		for _, p := range sched[n-1].Pairings {
			g := TourGame{White: p.White, Black: p.Black, Result: p.Result}
			switch {
			case p.IsBye() && left[p.White], left[p.White] && left[p.Black]:
				continue // both out (or a bye of one who left): nobody scores
			case left[p.White]:
				g.Result = tournament.BlackByForfeit
			case left[p.Black]:
				g.Result = tournament.WhiteByForfeit
			}
			r.Games = append(r.Games, g)
		}
		return r, nil
	}
	next, err := tournament.Swiss(t.players(), t.rounds())
	if err != nil {
		return TourRound{}, err
	}
	for _, p := range next.Pairings {
		r.Games = append(r.Games, TourGame{White: p.White, Black: p.Black, Result: p.Result})
	}
	return r, nil
}

// userOf returns the entrant with this user id.
func (t *Tournament) userOf(id string) User {
	for _, e := range t.Players {
		if e.User.ID == id {
			return e.User
		}
	}
	return User{ID: id, Name: id}
}

// left reports whether the player with this id has left t.
func (t *Tournament) left(id string) bool {
	for _, e := range t.Players {
		if e.User.ID == id {
			return e.Left > 0
		}
	}
	return false
}

// openRound opens the games of round n of t not opened yet and sends the
// notices of each; it returns the tournament as it stands after. late
// says that the round's pairings were posted before (a retry by Tick, a
// restart): the places that open now are posted in the tournament's
// channel with their links (TourPlaceOpened), as the pairings would have.
// Places the platform refuses for want of a right are told at once
// (TourPlaceMissing), once per game and reason.
func (tr *Tournaments) openRound(ctx context.Context, t *Tournament, n int, late bool) *Tournament {
	if n < 1 || n > len(t.Played) {
		return t
	}
	l := &tr.tours
	l.mu.Lock()
	if l.opening[t.ID] {
		l.mu.Unlock()
		return t // another goroutine opens them
	}
	if l.opening == nil {
		l.opening = map[string]bool{}
	}
	l.opening[t.ID] = true
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.opening, t.ID)
		l.mu.Unlock()
	}()
	failed := false
	var opened []int
	refused := map[NoPlaces][]int{}
	for b, g := range t.Played[n-1].Games {
		if !g.Waiting() {
			continue
		}
		next, retry, why := tr.openGame(ctx, t, n, b)
		if next != nil {
			t = next
			opened = append(opened, b)
		}
		if why != nil {
			refused[*why] = append(refused[*why], b)
		}
		failed = failed || retry
	}
	for why, boards := range refused {
		t = tr.placesMissing(ctx, t, n, boards, why)
	}
	if failed {
		tr.stuck(t.ID)
	}
	if late && len(opened) > 0 {
		ev := tr.tourEvent(TourPlaceOpened, User{}, n, t)
		ev.Boards = opened
		tr.svc.send(ctx, Notice{Kind: NoticeTournament, Key: t.Key, Tour: &ev})
	}
	return t
}

// placesMissing marks the games boards of round n as waiting for a place
// the platform refused (why), and tells the organiser and their players
// (TourPlaceMissing) about the games not marked so before; it returns
// the tournament after.
func (tr *Tournaments) placesMissing(ctx context.Context, t *Tournament, n int, boards []int, why NoPlaces) *Tournament {
	var told []int
	after, err := tr.changeTourID(ctx, t.ID, func(cur *Tournament) (bool, error) {
		told = nil
		if cur.Status != StatusRunning || n > len(cur.Played) {
			return false, nil
		}
		for _, b := range boards {
			if b >= len(cur.Played[n-1].Games) {
				continue
			}
			g := &cur.Played[n-1].Games[b]
			if !g.Waiting() || g.Wait != nil && *g.Wait == why {
				continue
			}
			w := why
			g.Wait = &w
			told = append(told, b)
		}
		return len(told) > 0, nil
	})
	if err != nil || after == nil {
		return t // logged where it failed; the next retry tells
	}
	if len(told) > 0 {
		ev := tr.tourEvent(TourPlaceMissing, User{}, n, after)
		ev.Boards, ev.Missing = told, &why
		tr.svc.send(ctx, Notice{Kind: NoticeTournament, Key: after.Key, Tour: &ev})
	}
	return after
}

// stuck has Tick try again, after TourRetryEvery, to open the games of the
// tournament and to pair its next round.
func (tr *Tournaments) stuck(id string) {
	l := &tr.tours
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stuck == nil {
		l.stuck = map[string]time.Time{}
	}
	if _, ok := l.stuck[id]; !ok {
		l.stuck[id] = tr.now().Add(TourRetryEvery)
	}
}

// retryTournaments, from Tick, tries again what failed in the tournaments
// marked stuck whose time has come: opening their games, pairing their
// next round.
func (tr *Tournaments) retryTournaments(ctx context.Context, now time.Time) {
	l := &tr.tours
	var ids []string
	l.mu.Lock()
	for id, at := range l.stuck {
		if !now.Before(at) {
			ids = append(ids, id)
			delete(l.stuck, id)
		}
	}
	sweep := now.Sub(l.swept) >= TourRetryEvery
	if sweep {
		l.swept = now
	}
	l.mu.Unlock()
	if sweep {
		ids = append(ids, tr.stalledTournaments(ctx, now)...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for _, id := range ids {
		t, err := tr.loadTour(ctx, id)
		if err != nil {
			if KindOf(err) != ErrNoTournament {
				tr.stuck(id)
			}
			continue
		}
		if t.Status == StatusRunning && len(t.Played) > 0 {
			tr.openRound(ctx, t, len(t.Played), true)
			tr.advance(ctx, id)
		}
	}
}

// stalledTournaments returns the running tournaments whose last round
// has games nobody opened TourStallAfter after it was paired (the process
// that paired it died while opening them), or is complete with no next
// round (the process that ended its last game died before pairing):
// nothing else would move them on until a restart.
func (tr *Tournaments) stalledTournaments(ctx context.Context, now time.Time) []string {
	ts, err := tr.store.ActiveTournaments(ctx)
	if err != nil {
		tr.svc.storeFailed("reading the active tournaments failed", err)
	}
	var ids []string
	for _, t := range ts {
		if t.Status != StatusRunning || len(t.Played) == 0 {
			continue
		}
		r := t.Played[len(t.Played)-1]
		unopened := slices.ContainsFunc(r.Games, func(g TourGame) bool {
			return g.Waiting() && !t.left(g.White) && !t.left(g.Black)
		})
		if t.complete() || unopened && now.Sub(r.Paired) >= TourStallAfter {
			ids = append(ids, t.ID)
		}
	}
	return ids
}

// openGame opens the place of board b of round n through the platform's
// Places and commits its game there, already started (seat 0 is White),
// with the game's key written in the tournament in the same transaction.
// It returns the tournament after, nil when nothing was opened; retry
// reports a failure worth trying again (logged; Tick tries again after
// TourRetryEvery, Resume after a restart), why the platform's refusal for
// want of a right. A place opened but whose game could not be committed
// stays unused.
func (tr *Tournaments) openGame(ctx context.Context, t *Tournament, n, b int) (_ *Tournament, retry bool, why *NoPlaces) {
	g := t.Played[n-1].Games[b]
	log := tr.log.With("tournament", t.ID, "round", n, "board", b+1)
	v := tr.places[t.Key.Platform]
	if v == nil {
		log.Error("no venues for the tournament's platform", "platform", t.Key.Platform)
		return nil, false, nil
	}
	if t.left(g.White) || t.left(g.Black) {
		return nil, false, nil // LeaveTournament made it a forfeit
	}
	game, err := tr.games(t.Game, t.Options)
	if err != nil {
		log.Error("tournament game does not build", "err", err)
		return nil, false, nil
	}
	white, black := t.userOf(g.White), t.userOf(g.Black)
	newGame := func(key Key, cur *Tournament) (*live, error) {
		now := tr.now().UTC()
		rec := &Record{V: RecordVersion, Key: key, Community: cur.Community, Game: game.ID(), Options: game.Options(), Play: cur.Play,
			Challenger: white, Seats: []User{white, black}, Created: now, Started: now, Updated: now,
			Tour: &TourRef{ID: cur.ID, Round: n, Board: b}}
		l := &live{rec: rec, game: game}
		l.state, err = startState(game, rec)
		return l, err
	}
	start, err := newGame(Key{}, t)
	if err != nil {
		log.Error("tournament game does not start", "err", err)
		return nil, false, nil
	}
	key, err := v.OpenPlace(ctx, PlaceGame{Tournament: t, Round: n, Board: b, White: white, Black: black, Start: start.snapshot()})
	if err != nil {
		var nv *NoPlaces
		if KindOf(err) == ErrNoPlaces && errors.As(err, &nv) && nv.Problem != PlaceNone {
			log.Warn("the platform refused a tournament game's place", "err", err)
			return nil, true, nv
		}
		log.Error("opening a tournament game's venue failed", "err", err)
		return nil, true, nil
	}
	e, err := tr.svc.acquire(ctx, key)
	if err != nil {
		return nil, true, nil // acquire logged it
	}
	defer tr.svc.release(e)
	if e.cur != nil {
		log.Error("a tournament game's venue holds a session already", key.LogAttr())
		return nil, false, nil
	}
	unlock, err := tr.lockTour(ctx, t.ID)
	if err != nil {
		return nil, true, nil
	}
	defer unlock()
	for try := 0; try <= tourRetries; try++ {
		cur, err := tr.loadTour(ctx, t.ID)
		if err != nil {
			return nil, KindOf(err) != ErrNoTournament, nil
		}
		if cur.Status != StatusRunning || n > len(cur.Played) || b >= len(cur.Played[n-1].Games) {
			return nil, false, nil
		}
		if cg := cur.Played[n-1].Games[b]; cg.Result != tournament.Pending || cg.Key != (Key{}) {
			log.Warn("tournament game opened elsewhere first: its venue stays unused", key.LogAttr())
			return nil, false, nil
		}
		l, err := newGame(key, cur)
		if err != nil {
			log.Error("tournament game does not start", "err", err)
			return nil, false, nil
		}
		cur.Played[n-1].Games[b].Key = key
		cur.Played[n-1].Games[b].Wait = nil
		cur.Rev++
		ev := Event{Kind: EvStarted, Seat: -1, tourPut: cur}
		err = tr.svc.commit(ctx, e, l, "", &ev)
		if KindOf(err) == ErrStorage && errors.Is(err, ErrConflict) {
			e.loaded = true // the session is new: only the tournament moved
			continue
		}
		if err != nil {
			return nil, true, nil // commit logged it
		}
		tev := &TourEvent{Kind: TourRoundPaired, Round: n, Tournament: cur}
		tr.svc.send(ctx, Notice{Kind: NoticeTourGame, Key: key, Session: ev.Session, Tour: tev})
		for _, u := range l.rec.Seats {
			tr.svc.send(ctx, Notice{Kind: NoticeTourGame, Key: key, To: u, Session: ev.Session, Tour: tev})
		}
		return cur, false, nil
	}
	log.Error("opening a tournament game: the tournament keeps changing")
	return nil, true, nil
}

// tourResult, for a change that finishes a tournament game, takes the
// tournament's lock and puts the game's result in c.Tournament (nil when
// the tournament does not run any more or the game is not its pending
// board). It returns the unlock.
func (tr *Tournaments) tourResult(ctx context.Context, c *Change) (func(), error) {
	f := c.Finished
	unlock, err := tr.lockTour(ctx, f.Tour.ID)
	if err != nil {
		return nil, err
	}
	if err := tr.setTourResult(ctx, c); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// setTourResult loads the tournament of c.Finished and sets c.Tournament.
func (tr *Tournaments) setTourResult(ctx context.Context, c *Change) error {
	f := c.Finished
	c.Tournament = nil
	t, err := tr.loadTour(ctx, f.Tour.ID)
	if KindOf(err) == ErrNoTournament {
		tr.log.Warn("a tournament game's tournament is gone", "tournament", f.Tour.ID, f.Key.LogAttr())
		return nil
	}
	if err != nil {
		return err
	}
	n, b := f.Tour.Round, f.Tour.Board
	if t.Status != StatusRunning || n < 1 || n > len(t.Played) || b < 0 || b >= len(t.Played[n-1].Games) {
		return nil
	}
	g := &t.Played[n-1].Games[b]
	if g.Result != tournament.Pending || len(f.Seats) != 2 || g.White != f.Seats[0].ID || g.Black != f.Seats[1].ID {
		return nil
	}
	switch f.Result.Winner {
	case 0:
		g.Result = tournament.WhiteWins
	case 1:
		g.Result = tournament.BlackWins
	default:
		g.Result = tournament.Draw
	}
	t.Rev++
	c.Tournament = t
	return nil
}

// commitTour commits c, whose tournament (when set) is locked; when another
// process wrote the tournament first, it loads it again and retries (a
// conflict on the session itself is returned as is).
func (tr *Tournaments) commitTour(ctx context.Context, c *Change) error {
	err := tr.store.Commit(ctx, c)
	for try := 0; try < tourRetries && c.Tournament != nil && c.Finished != nil && c.Finished.Tour != nil && errors.Is(err, ErrConflict); try++ {
		if !tr.sessionHeld(ctx, c) {
			// Another process changed the game too (ended it, maybe):
			// the caller loads it again and judges the request on it.
			return err
		}
		rev := c.Tournament.Rev - 1
		if serr := tr.setTourResult(ctx, c); serr != nil {
			return serr
		}
		if c.Tournament != nil && c.Tournament.Rev-1 == rev {
			return err // the tournament had not moved: the session had
		}
		err = tr.store.Commit(ctx, c)
	}
	return err
}

// sessionHeld reports whether the stored session of c, a game's end, is
// still the one the change was made on (the version before c.Finished):
// then a conflict was the tournament's alone. Both may conflict at once
// (another process ended the same game): retrying with the tournament
// alone loaded again would store the game's end twice.
func (tr *Tournaments) sessionHeld(ctx context.Context, c *Change) bool {
	rec, err := tr.store.Load(ctx, c.Key)
	return err == nil && rec.Version == c.Finished.Version-1
}

// advance moves the tournament on after one of its games ended: when its
// current round is complete, it posts the standings and pairs the next
// round (opening its games), or ends the tournament after the last round.
// It runs outside every session's lock.
func (tr *Tournaments) advance(ctx context.Context, id string) {
	for range 1000 { // each pass pairs a round: a bound, never reached
		t, n := tr.advanceOnce(ctx, id)
		if t == nil {
			return
		}
		t = tr.openRound(ctx, t, n, false)
		ev := tr.tourEvent(TourRoundPaired, User{}, n, t)
		tr.svc.send(ctx, Notice{Kind: NoticeTournament, Key: t.Key, Tour: &ev})
	}
}

// complete reports whether every game of the last round has a result.
func (t *Tournament) complete() bool {
	if len(t.Played) == 0 {
		return false
	}
	for _, g := range t.Played[len(t.Played)-1].Games {
		if g.Result == tournament.Pending {
			return false
		}
	}
	return true
}

// advanceOnce, under the tournament's lock: when its last round is
// complete, it stores the next round (and returns the tournament and the
// round's number, for its games to be opened) or the tournament's end.
func (tr *Tournaments) advanceOnce(ctx context.Context, id string) (*Tournament, int) {
	var ended, paired *Tournament
	var before *Tournament
	_, err := tr.changeTourID(ctx, id, func(t *Tournament) (bool, error) {
		ended, paired, before = nil, nil, nil
		if t.Status != StatusRunning || !t.complete() {
			return false, nil
		}
		before = t.Clone()
		now := tr.now().UTC()
		if len(t.Played) >= t.Rounds {
			t.Status, t.Ended = StatusFinished, now
			ended = t
			return true, nil
		}
		r, err := tr.pair(t)
		if err != nil {
			// No pairing satisfies the rules (a Swiss with too few
			// players left for its rounds): the tournament ends early.
			tr.log.Warn("tournament ends early: the next round cannot be paired", "tournament", t.ID, "round", len(t.Played)+1, "err", err)
			t.Status, t.Ended = StatusFinished, now
			ended = t
			return true, nil
		}
		t.Played = append(t.Played, r)
		paired = t
		return true, nil
	})
	if err != nil {
		tr.stuck(id) // logged where it failed
		return nil, 0
	}
	switch {
	case ended != nil:
		ev := tr.tourEvent(TourEnded, User{}, len(ended.Played), ended)
		tr.svc.send(ctx, Notice{Kind: NoticeTournament, Key: ended.Key, Tour: &ev})
		return nil, 0
	case paired != nil:
		ev := tr.tourEvent(TourRoundEnded, User{}, len(before.Played), before)
		tr.svc.send(ctx, Notice{Kind: NoticeTournament, Key: before.Key, Tour: &ev})
		return paired, len(paired.Played)
	}
	return nil, 0
}

// resumeTournaments, at start-up, completes the rounds of the running
// tournaments whose games were not all opened, and pairs the next round of
// those whose round is complete.
func (tr *Tournaments) resumeTournaments(ctx context.Context) {
	ts, err := tr.store.ActiveTournaments(ctx)
	if err != nil {
		tr.svc.storeFailed("resuming tournaments failed", err)
	}
	for _, t := range ts {
		if t.Status != StatusRunning || len(t.Played) == 0 {
			continue
		}
		tr.openRound(ctx, t, len(t.Played), true)
		tr.advance(ctx, t.ID)
	}
}
