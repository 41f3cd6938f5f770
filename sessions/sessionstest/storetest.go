package sessionstest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
)

// TestStore is the contract of sessions.Store: every implementation runs
// it (package storage on bbolt, MemoryStore here). open returns an empty
// store; the suite closes nothing (open registers its own cleanup).
func TestStore(t *testing.T, open func(t *testing.T) sessions.Store) {
	for _, c := range []struct {
		name string
		fn   func(t *testing.T, s sessions.Store)
	}{
		{"LoadMissing", storeLoadMissing},
		{"RoundTrip", storeRoundTrip},
		{"MoveByMove", storeMoveByMove},
		{"TakeBack", storeTakeBack},
		{"Remove", storeRemove},
		{"Live", storeLive},
		{"LiveOf", storeLiveOf},
		{"Finish", storeFinish},
		{"History", storeHistory},
		{"Requests", storeRequests},
		{"Ratings", storeRatings},
		{"Concurrent", storeConcurrent},
		{"Tournaments", storeTournaments},
		{"ActiveTournaments", storeActiveTournaments},
		{"TournamentsAt", storeTournamentsAt},
		{"TourCommit", storeTourCommit},
		{"OneActivePerChannel", storeOneActivePerChannel},
		{"RatingHistory", storeRatingHistory},
		{"CommunityLadders", storeCommunityLadders},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, open(t)) })
	}
}

var (
	st0   = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	sAnn  = sessions.User{ID: "1", Name: "Ann"}
	sBen  = sessions.User{ID: "2", Name: "ben"}
	sCleo = sessions.User{ID: "3", Name: "cleo"}
)

func skey(ch string) sessions.Key { return sessions.Key{Platform: "test", Channel: ch} }

// storeRecord is a game in play at key with every field set and n moves.
func storeRecord(key sessions.Key, n int) *sessions.Record {
	r := &sessions.Record{
		V: sessions.RecordVersion, Key: key, Community: "guild1", Game: "count", Options: map[string]string{"target": "1000"},
		Play:       sessions.PlayOptions{Time: sessions.Duration(24 * time.Hour), Color: sessions.ColorBlack, Rated: true, Level: 3},
		Challenger: sAnn, Invited: []sessions.User{{Name: "ben"}}, Seats: []sessions.User{sBen, sAnn},
		First: 1, Start: "5", DrawOffer: []int{1},
		Created: st0, Started: st0, Updated: st0,
		Version: 7, Deadline: st0.Add(24 * time.Hour), Reminded: true, Auto: []int{0, 2},
		Expires: st0.Add(48 * time.Hour), Takeback: []int{0},
	}
	for i := range n {
		addMove(r, strconv.Itoa(i%2+1))
	}
	return r
}

func addMove(r *sessions.Record, text string) {
	seat := len(r.Actions) % 2
	r.Actions = append(r.Actions, sessions.Action{Kind: sessions.ActMove, Seat: seat, Text: text, At: st0.Add(time.Duration(len(r.Actions)) * time.Minute)})
	r.Version++
	r.Updated = st0.Add(time.Duration(len(r.Actions)) * time.Minute)
}

func commit(t *testing.T, s sessions.Store, c *sessions.Change) {
	t.Helper()
	if err := s.Commit(context.Background(), c); err != nil {
		t.Fatalf("commit %s: %v", c.Key, err)
	}
}

func load(t *testing.T, s sessions.Store, key sessions.Key) *sessions.Record {
	t.Helper()
	r, err := s.Load(context.Background(), key)
	if err != nil {
		t.Fatalf("load %s: %v", key, err)
	}
	return r
}

func same(t *testing.T, what string, got, want *sessions.Record) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func storeLoadMissing(t *testing.T, s sessions.Store) {
	if _, err := s.Load(context.Background(), skey("none")); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("Load of no session: %v, want ErrNotFound", err)
	}
	if _, err := s.Finished(context.Background(), "1"); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("Finished(1) of an empty store: %v, want ErrNotFound", err)
	}
	if _, err := s.Finished(context.Background(), "x"); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("Finished(x): %v, want ErrNotFound", err)
	}
}

func storeRoundTrip(t *testing.T, s sessions.Store) {
	want := storeRecord(skey("a"), 3)
	want.Key.Thread = "t1"
	want.Actions = append(want.Actions,
		sessions.Action{Kind: sessions.ActForm, Seat: 0, Text: "default", At: st0},
		sessions.Action{Kind: sessions.ActHuff, Seat: 1, Text: "d4", At: st0},
		sessions.Action{Kind: sessions.ActRetire, Seat: 1, Text: "resigned", At: st0},
		sessions.Action{Kind: "future", Seat: 2, Text: "", At: time.Time{}})
	want.Snap, want.SnapAt = []byte{0, 1, 2, 255}, 5
	commit(t, s, &sessions.Change{Key: want.Key, Live: want.Clone()})
	same(t, "loaded", load(t, s, want.Key), want)
	// A challenge: no seats filled, no actions.
	ch := &sessions.Record{V: sessions.RecordVersion, Key: skey("b"), Game: "count", Challenger: sAnn,
		Seats: []sessions.User{sAnn, {}}, Created: st0, Updated: st0, Expires: st0.Add(time.Hour), Version: 1}
	commit(t, s, &sessions.Change{Key: ch.Key, Live: ch.Clone()})
	same(t, "challenge", load(t, s, ch.Key), ch)
}

func storeMoveByMove(t *testing.T, s sessions.Store) {
	r := storeRecord(skey("m"), 0)
	for i := range 40 {
		addMove(r, strconv.Itoa(i%2+1))
		if i == 20 {
			r.Deadline, r.Reminded, r.DrawOffer = time.Time{}, false, nil
		}
		commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone(), Request: fmt.Sprint("m", i), At: st0})
	}
	same(t, "after 40 moves", load(t, s, r.Key), r)
}

func storeTakeBack(t *testing.T, s sessions.Store) {
	r := storeRecord(skey("tb"), 10)
	commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
	r.Actions = append([]sessions.Action(nil), r.Actions[:7]...)
	r.Version++
	commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
	same(t, "after taking 3 back", load(t, s, r.Key), r)
	addMove(r, "2")
	addMove(r, "2")
	commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
	same(t, "moves after the takeback", load(t, s, r.Key), r)
	// Long games: a store may keep older actions apart (storage does,
	// in chunks of 32); takebacks across those bounds.
	for range 61 {
		addMove(r, "1")
		commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
	}
	for _, n := range []int{64, 63, 31, 33} {
		for len(r.Actions) < n {
			addMove(r, "2")
		}
		r.Actions = append([]sessions.Action(nil), r.Actions[:n]...)
		commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
		same(t, fmt.Sprint(n, " actions"), load(t, s, r.Key), r)
	}
	// Every action taken back, then a new game in the same place.
	r.Actions = nil
	commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
	same(t, "no actions", load(t, s, r.Key), r)
}

func storeRemove(t *testing.T, s sessions.Store) {
	r := storeRecord(skey("rm"), 5)
	commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
	commit(t, s, &sessions.Change{Key: r.Key})
	if _, err := s.Load(context.Background(), r.Key); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("Load of a removed session: %v, want ErrNotFound", err)
	}
	// A new session at the same key starts with its own actions only.
	n := storeRecord(skey("rm"), 2)
	commit(t, s, &sessions.Change{Key: n.Key, Live: n.Clone()})
	same(t, "the new session", load(t, s, n.Key), n)
}

func storeLive(t *testing.T, s sessions.Store) {
	want := map[sessions.Key]*sessions.Record{}
	for i := range 5 {
		r := storeRecord(skey(fmt.Sprint("l", i)), i*20)
		switch i {
		case 1:
			r.Deadline = time.Time{} // no clock
		case 2:
			r.Seats[1] = sessions.ComputerUser()
		}
		commit(t, s, &sessions.Change{Key: r.Key, Live: r})
		want[r.Key] = r
	}
	commit(t, s, &sessions.Change{Key: skey("l3")})
	delete(want, skey("l3"))
	live, err := s.Live(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != len(want) {
		t.Fatalf("Live: %d sessions, want %d", len(live), len(want))
	}
	for _, r := range live {
		same(t, "Live", r, want[r.Key])
	}
	index, err := s.LiveIndex(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[sessions.Key]sessions.LiveEntry{}
	for _, x := range index {
		got[x.Key] = x
	}
	if len(got) != len(want) || len(index) != len(want) {
		t.Fatalf("LiveIndex: %v, want %d sessions", index, len(want))
	}
	for k, r := range want {
		if x := got[k]; !x.Due.Equal(r.Due()) || x.Computer != (k == skey("l2")) {
			t.Errorf("LiveIndex of %s: %+v, want due %v, computer %v", k, x, r.Due(), k == skey("l2"))
		}
	}
}

// storeLiveOf: the live sessions a user holds a seat in, as heads without
// actions, kept as seats fill and sessions end (the caps count them).
func storeLiveOf(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	keys := func(platform, id string) string {
		t.Helper()
		recs, err := s.LiveOf(ctx, platform, id)
		if err != nil {
			t.Fatalf("LiveOf %s %s: %v", platform, id, err)
		}
		var out []string
		for _, r := range recs {
			if len(r.Actions) != 0 {
				t.Errorf("LiveOf %s: %s with %d actions, want a head without them", id, r.Key.Channel, len(r.Actions))
			}
			out = append(out, fmt.Sprintf("%s:%s", r.Key.Channel, r.Phase()))
		}
		slices.Sort(out)
		return fmt.Sprint(out)
	}
	// Ann's open challenge, Ann's game with Ben (40 moves), Ann against
	// the computer, Cleo's challenge to Ann (not yet accepted).
	open := storeRecord(skey("open"), 0)
	open.Started, open.Seats = time.Time{}, []sessions.User{sAnn, {}}
	game := storeRecord(skey("game"), 40)
	bot := storeRecord(skey("bot"), 3)
	bot.Seats[0] = sessions.ComputerUser()
	invite := storeRecord(skey("invite"), 0)
	invite.Started, invite.Challenger, invite.Seats = time.Time{}, sCleo, []sessions.User{sCleo, {}}
	elsewhere := storeRecord(sessions.Key{Platform: "other", Channel: "game"}, 2)
	for _, r := range []*sessions.Record{open, game, bot, invite, elsewhere} {
		commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
	}
	for _, c := range []struct{ platform, id, want string }{
		{"test", sAnn.ID, "[bot:playing game:playing open:challenge]"},
		{"test", sBen.ID, "[game:playing]"},
		{"test", sCleo.ID, "[invite:challenge]"},
		{"other", sAnn.ID, "[game:playing]"},
		{"test", "nobody", "[]"},
		{"test", "", "[]"},
	} {
		if got := keys(c.platform, c.id); got != c.want {
			t.Errorf("LiveOf %s %q: %s, want %s", c.platform, c.id, got, c.want)
		}
	}
	// Ann takes the seat of Cleo's challenge, which starts; Ann's game
	// with Ben ends; her challenge is withdrawn; a move against the
	// computer changes nothing.
	invite.Seats[1], invite.Started = sAnn, st0
	commit(t, s, &sessions.Change{Key: invite.Key, Live: invite.Clone()})
	finish(t, s, game, false)
	commit(t, s, &sessions.Change{Key: open.Key})
	addMove(bot, "1")
	commit(t, s, &sessions.Change{Key: bot.Key, Live: bot.Clone()})
	for _, c := range []struct{ id, want string }{
		{sAnn.ID, "[bot:playing invite:playing]"},
		{sBen.ID, "[]"},
		{sCleo.ID, "[invite:playing]"},
	} {
		if got := keys("test", c.id); got != c.want {
			t.Errorf("after the changes, LiveOf %q: %s, want %s", c.id, got, c.want)
		}
	}
}

// finish ends r (a live session) with seat 0 winning and commits it.
func finish(t *testing.T, s sessions.Store, r *sessions.Record, rate bool) *sessions.Record {
	t.Helper()
	r = r.Clone()
	r.Result = &sessions.Result{Winner: 0, Reason: "resigned", Ended: st0.Add(time.Hour)}
	c := &sessions.Change{Key: r.Key, Finished: r}
	if rate {
		c.Rate = &sessions.RateRequest{Platform: r.Key.Platform, Game: r.Game, Month: sessions.Month(st0),
			Players: [2]sessions.User{r.Seats[0], r.Seats[1]}, Score: 1, Rated: true}
	}
	commit(t, s, c)
	if r.ID == "" {
		t.Fatal("the finished game has no id")
	}
	return r
}

func storeFinish(t *testing.T, s sessions.Store) {
	r := storeRecord(skey("f"), 0)
	for i := range 30 {
		addMove(r, strconv.Itoa(i%2+1))
		commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
	}
	f := finish(t, s, r, true)
	if _, err := s.Load(context.Background(), r.Key); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("Load after the game ended: %v, want ErrNotFound", err)
	}
	got, err := s.Finished(context.Background(), f.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Ratings) != 2 {
		t.Fatalf("ratings of the finished game: %v", f.Ratings)
	}
	same(t, "finished game", got, f)
	if live, err := s.Live(context.Background()); err != nil || len(live) != 0 {
		t.Fatalf("Live after the game ended: %v, %v", live, err)
	}
	if index, err := s.LiveIndex(context.Background()); err != nil || len(index) != 0 {
		t.Fatalf("LiveIndex after the game ended: %v, %v", index, err)
	}
	// The next game at the key starts empty.
	n := storeRecord(skey("f"), 1)
	commit(t, s, &sessions.Change{Key: n.Key, Live: n.Clone()})
	same(t, "the next game", load(t, s, n.Key), n)
}

func storeHistory(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	var ids []string
	for i := range 6 {
		r := storeRecord(skey(fmt.Sprint("h", i%2)), i)
		if i == 4 {
			r.Seats = []sessions.User{sAnn, sCleo}
		}
		if i%3 == 2 {
			r.Game = "other"
		}
		commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
		ids = append(ids, finish(t, s, r, false).ID)
	}
	check := func(what string, q sessions.HistoryQuery, want ...int) {
		t.Helper()
		h, err := s.History(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var got, wantIDs []string
		for _, r := range h {
			got = append(got, r.ID)
		}
		for _, i := range want {
			wantIDs = append(wantIDs, ids[i])
		}
		if !reflect.DeepEqual(got, wantIDs) {
			t.Fatalf("%s: games %v, want %v", what, got, wantIDs)
		}
		for _, r := range h {
			if len(r.Actions) == 0 && r.ID != ids[0] {
				t.Fatalf("%s: game %s has no moves", what, r.ID)
			}
		}
	}
	check("ben's", sessions.HistoryQuery{Platform: "test", User: "2"}, 5, 3, 2, 1, 0)
	check("ann's, 2", sessions.HistoryQuery{Platform: "test", User: "1", Limit: 2}, 5, 4)
	check("cleo's", sessions.HistoryQuery{Platform: "test", User: "3"}, 4)
	check("ben's elsewhere", sessions.HistoryQuery{Platform: "other", User: "2"})
	check("ben's other", sessions.HistoryQuery{Platform: "test", User: "2", Game: "other"}, 5, 2)
	check("channel h0", sessions.HistoryQuery{Key: skey("h0")}, 4, 2, 0)
	check("channel h1, 1", sessions.HistoryQuery{Key: skey("h1"), Limit: 1}, 5)
	// With: the games another user played in too.
	check("ann's with ben", sessions.HistoryQuery{Platform: "test", User: "1", With: "2"}, 5, 3, 2, 1, 0)
	check("ben's with ann", sessions.HistoryQuery{Platform: "test", User: "2", With: "1"}, 5, 3, 2, 1, 0)
	check("ann's with cleo", sessions.HistoryQuery{Platform: "test", User: "1", With: "3"}, 4)
	check("ben's with cleo", sessions.HistoryQuery{Platform: "test", User: "2", With: "3"})
	check("ann's other with ben", sessions.HistoryQuery{Platform: "test", User: "1", With: "2", Game: "other"}, 5, 2)
	check("ann's with ben, 2", sessions.HistoryQuery{Platform: "test", User: "1", With: "2", Limit: 2}, 5, 3)
	check("ann's with ben elsewhere", sessions.HistoryQuery{Platform: "other", User: "1", With: "2"})
}

func storeRequests(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	r := storeRecord(skey("rq"), 1)
	commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone(), Request: "u1", At: st0})
	if seen, err := s.Seen(ctx, "test", "u1"); err != nil || !seen {
		t.Fatalf("Seen(u1): %v, %v", seen, err)
	}
	if seen, err := s.Seen(ctx, "other", "u1"); err != nil || seen {
		t.Fatalf("Seen(u1) on another platform: %v, %v", seen, err)
	}
	dup := r.Clone()
	addMove(dup, "1")
	if err := s.Commit(ctx, &sessions.Change{Key: r.Key, Live: dup, Request: "u1", At: st0}); !errors.Is(err, sessions.ErrDuplicate) {
		t.Fatalf("a request committed twice: %v, want ErrDuplicate", err)
	}
	same(t, "after the duplicate", load(t, s, r.Key), r)
	commit(t, s, &sessions.Change{Key: skey("rq2"), Live: storeRecord(skey("rq2"), 0), Request: "u2", At: st0.Add(time.Hour)})
	if err := s.Forget(ctx, st0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if seen, _ := s.Seen(ctx, "test", "u1"); seen {
		t.Fatal("u1 not forgotten")
	}
	if seen, _ := s.Seen(ctx, "test", "u2"); !seen {
		t.Fatal("u2 forgotten too early")
	}
}

func storeRatings(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	r := storeRecord(skey("r"), 30)
	r.Seats = []sessions.User{sAnn, sBen}
	commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone()})
	finish(t, s, r, true)
	st, err := s.Standings(ctx, "test", "1", "")
	if err != nil || len(st) != 2 || st[0].Period != sessions.Month(st0) || st[1].Period != sessions.AllTime ||
		st[1].Rating <= sessions.StartRating || st[1].Won != 1 {
		t.Fatalf("Ann's standings: %+v, %v", st, err)
	}
	l, err := s.Top(ctx, sessions.TopQuery{Platform: "test", Game: "count", Period: sessions.AllTime, Limit: 1, User: "2"})
	if err != nil || l.Players != 2 || len(l.Rows) != 1 || l.Rows[0].User.ID != "1" || l.Me == nil || l.Place != 2 {
		t.Fatalf("Top: %+v, %v", l, err)
	}
	if u, err := s.FindUser(ctx, "test", "@ANN"); err != nil || u.ID != "1" {
		t.Fatalf("FindUser(@ANN): %v, %v", u, err)
	}
	if _, err := s.FindUser(ctx, "test", "nobody"); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("FindUser(nobody): %v", err)
	}
}

func storeConcurrent(t *testing.T, s sessions.Store) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Go(func() {
			r := storeRecord(skey(fmt.Sprint("c", w)), 0)
			for i := range 25 {
				addMove(r, strconv.Itoa(i%2+1))
				if err := s.Commit(context.Background(), &sessions.Change{Key: r.Key, Live: r.Clone()}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	for w := range 8 {
		if r := load(t, s, skey(fmt.Sprint("c", w))); len(r.Actions) != 25 {
			t.Fatalf("session c%d: %d moves, want 25", w, len(r.Actions))
		}
	}
}

// storeTour is a tournament of three players opened in channel ch (a
// thread of it) with every field set, in sign-up, not yet stored.
func storeTour(ch string) *sessions.Tournament {
	return &sessions.Tournament{
		V: sessions.TournamentVersion, Rev: 1, Key: sessions.Key{Platform: "test", Channel: ch, Thread: "th"},
		Community: "guild1", Organiser: sAnn, Game: "count", Options: map[string]string{"target": "100"},
		Play:   sessions.PlayOptions{Time: sessions.Duration(time.Hour), Rated: true},
		Format: sessions.FormatSwiss, Rounds: 3, Status: sessions.StatusSignup,
		Players: []sessions.Entrant{{User: sAnn, Rating: 1500}, {User: sBen, Rating: 1600, Joined: 1}, {User: sCleo, Rating: 1400, Left: 2}},
		Created: st0,
	}
}

// paired is t running with round 1 paired: ann-ben at skey(game), cleo's bye.
func paired(t *sessions.Tournament, game string) {
	t.Status, t.Started = sessions.StatusRunning, st0.Add(time.Minute)
	t.Played = append(t.Played, sessions.TourRound{Number: 1, Games: []sessions.TourGame{
		{White: sAnn.ID, Black: sBen.ID, Key: skey(game)},
		{White: sCleo.ID, Result: "bye"},
	}})
}

func putTour(t *testing.T, s sessions.Store, tour *sessions.Tournament) {
	t.Helper()
	if err := s.PutTournament(context.Background(), tour); err != nil {
		t.Fatalf("PutTournament %q at rev %d: %v", tour.ID, tour.Rev, err)
	}
}

func getTour(t *testing.T, s sessions.Store, id string) *sessions.Tournament {
	t.Helper()
	tour, err := s.Tournament(context.Background(), id)
	if err != nil {
		t.Fatalf("Tournament(%s): %v", id, err)
	}
	return tour
}

func sameTour(t *testing.T, what string, got, want *sessions.Tournament) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func tourIDs(ts []*sessions.Tournament) []string {
	var ids []string
	for _, t := range ts {
		ids = append(ids, t.ID)
	}
	return ids
}

// storeTournaments: a tournament reads back as written; ids come from
// the store's own sequence, in decimal; a write is a compare-and-set on
// Rev: a stale or skipping Rev is a conflict that changes nothing, and
// of two writers at the same Rev one wins.
func storeTournaments(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	for _, id := range []string{"1", "x", ""} {
		if _, err := s.Tournament(ctx, id); !errors.Is(err, sessions.ErrNotFound) {
			t.Fatalf("Tournament(%q) of an empty store: %v, want ErrNotFound", id, err)
		}
	}
	a := storeTour("ta")
	putTour(t, s, a)
	if a.ID != "1" {
		t.Fatalf("the first tournament's id: %q, want 1", a.ID)
	}
	sameTour(t, "tournament 1", getTour(t, s, "1"), a)
	b := storeTour("tb")
	putTour(t, s, b)
	if b.ID != "2" {
		t.Fatalf("the second tournament's id: %q, want 2", b.ID)
	}
	// A finished game stored in between takes nothing from the sequence.
	r := storeRecord(skey("tg"), 2)
	finish(t, s, r, false)
	c := storeTour("tc")
	putTour(t, s, c)
	if c.ID != "3" {
		t.Fatalf("the third tournament's id: %q, want 3", c.ID)
	}

	next := a.Clone()
	next.Rev = 2
	paired(next, "tg1")
	next.Played[0].Games[0].Result = "1-0"
	putTour(t, s, next)
	sameTour(t, "tournament 1 at rev 2", getTour(t, s, "1"), next)
	for _, rev := range []int64{1, 2, 4} {
		stale := next.Clone()
		stale.Rev, stale.Status = rev, sessions.StatusCancelled
		if err := s.PutTournament(ctx, stale); !errors.Is(err, sessions.ErrConflict) {
			t.Fatalf("writing tournament 1 at rev %d over rev 2: %v, want ErrConflict", rev, err)
		}
	}
	sameTour(t, "tournament 1 after the conflicts", getTour(t, s, "1"), next)
	fresh := storeTour("td")
	fresh.Rev = 2
	if err := s.PutTournament(ctx, fresh); !errors.Is(err, sessions.ErrConflict) || fresh.ID != "" {
		t.Fatalf("a new tournament at rev 2: %v, id %q; want ErrConflict", err, fresh.ID)
	}
	ghost := storeTour("ta")
	ghost.ID, ghost.Rev = "99", 2
	if err := s.PutTournament(ctx, ghost); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("writing tournament 99, never created: %v, want ErrNotFound", err)
	}
	fresh.Rev = 1
	putTour(t, s, fresh)
	if fresh.ID != "4" {
		t.Fatalf("the id after the refused writes: %q, want 4", fresh.ID)
	}

	// Two writers at the same Rev: exactly one wins, and its write is
	// the one stored.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	mine := make([]*sessions.Tournament, 2)
	for w := range 2 {
		mine[w] = next.Clone()
		mine[w].Rev = 3
		mine[w].Players[0].Rating = 2000 + w
		wg.Go(func() { errs[w] = s.PutTournament(ctx, mine[w]) })
	}
	wg.Wait()
	won := -1
	for w, err := range errs {
		switch {
		case err == nil && won < 0:
			won = w
		case errors.Is(err, sessions.ErrConflict):
		default:
			t.Fatalf("two writers at rev 3: %v", errs)
		}
	}
	if won < 0 {
		t.Fatalf("two writers at rev 3: both failed: %v", errs)
	}
	sameTour(t, "the winner's write", getTour(t, s, "1"), mine[won])
}

// storeActiveTournaments: the tournaments in sign-up or running, and no
// more once they end or are cancelled.
func storeActiveTournaments(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	active := func(what string, want ...string) {
		t.Helper()
		got, err := s.ActiveTournaments(ctx)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		ids := tourIDs(got)
		slices.Sort(ids)
		if !slices.Equal(ids, want) {
			t.Fatalf("%s: active %v, want %v", what, ids, want)
		}
		for _, tour := range got {
			if !tour.Status.Active() {
				t.Fatalf("%s: tournament %s is %s", what, tour.ID, tour.Status)
			}
		}
	}
	active("an empty store")
	var ts []*sessions.Tournament
	for i := range 4 {
		tour := storeTour(fmt.Sprint("act", i))
		putTour(t, s, tour)
		ts = append(ts, tour)
	}
	active("four in sign-up", "1", "2", "3", "4")
	paired(ts[0], "g0")
	ts[0].Rev++
	putTour(t, s, ts[0])
	ts[1].Status, ts[1].Rev = sessions.StatusCancelled, 2
	putTour(t, s, ts[1])
	ts[2].Rev++
	paired(ts[2], "g2")
	putTour(t, s, ts[2])
	ts[2].Status, ts[2].Ended, ts[2].Rev = sessions.StatusFinished, st0.Add(time.Hour), 3
	putTour(t, s, ts[2])
	active("one running, one cancelled, one finished", "1", "4")
	stale := ts[1].Clone()
	stale.Status = sessions.StatusSignup // at rev 2 again: a conflict
	if err := s.PutTournament(ctx, stale); !errors.Is(err, sessions.ErrConflict) {
		t.Fatalf("reopening a cancelled tournament at its own rev: %v, want ErrConflict", err)
	}
	active("after a refused write", "1", "4")
	sameTour(t, "the running one", getTour(t, s, "1"), ts[0])
}

// storeTournamentsAt: a channel's tournaments (any thread), newest
// first, at most the limit (0: all); other channels' and platforms' are
// not among them.
func storeTournamentsAt(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	var ids []string
	for i, k := range []sessions.Key{
		{Platform: "test", Channel: "c", Thread: "t1"},
		{Platform: "test", Channel: "c"},
		{Platform: "test", Channel: "c2"},
		{Platform: "other", Channel: "c"},
		{Platform: "test", Channel: "c", Thread: "t2"},
		{Platform: "test", Channel: "cc"},
		{Platform: "test", Channel: "c", Thread: "t1"},
	} {
		tour := storeTour("")
		tour.Key = k
		if k.Platform == "test" && k.Channel == "c" && i < 6 {
			tour.Status = sessions.StatusFinished // one active tournament a channel
		}
		putTour(t, s, tour)
		ids = append(ids, tour.ID)
	}
	at := func(k sessions.Key, limit int, want ...int) {
		t.Helper()
		got, err := s.TournamentsAt(ctx, k, limit)
		if err != nil {
			t.Fatalf("TournamentsAt(%s, %d): %v", k, limit, err)
		}
		var wantIDs []string
		for _, i := range want {
			wantIDs = append(wantIDs, ids[i])
		}
		if g := tourIDs(got); !slices.Equal(g, wantIDs) {
			t.Fatalf("TournamentsAt(%s, %d): %v, want %v", k, limit, g, wantIDs)
		}
	}
	at(sessions.Key{Platform: "test", Channel: "c"}, 10, 6, 4, 1, 0)
	at(sessions.Key{Platform: "test", Channel: "c", Thread: "t9"}, 2, 6, 4)
	at(sessions.Key{Platform: "test", Channel: "c"}, 0, 6, 4, 1, 0)
	at(sessions.Key{Platform: "test", Channel: "c2"}, 10, 2)
	at(sessions.Key{Platform: "other", Channel: "c"}, 1, 3)
	at(sessions.Key{Platform: "test", Channel: "none"}, 10)
	got, err := s.TournamentsAt(ctx, sessions.Key{Platform: "test", Channel: "c"}, 1)
	if err != nil || len(got) != 1 {
		t.Fatalf("TournamentsAt: %v, %v", got, err)
	}
	want := storeTour("")
	want.ID, want.Key = ids[6], sessions.Key{Platform: "test", Channel: "c", Thread: "t1"}
	sameTour(t, "the newest of channel c", got[0], want)
}

// storeTourCommit: Change.Tournament is written with the change, on the
// terms of PutTournament: a stale Rev fails the whole change (no move, no
// finished game, no ratings, no request id), and the store does not
// forget the session (the same change at the right Rev then commits).
// With the finished game of a tournament game, the store writes the
// game's id in its TourGame, and gives the written tournament back.
func storeTourCommit(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	tour := storeTour("tc")
	putTour(t, s, tour)
	// Round 1 paired, then its game opened with the tournament recording
	// its key in the same change.
	paired(tour, "")
	tour.Played[0].Games[0].Key = sessions.Key{}
	// The platform refused its place at first: it waits, and says why.
	tour.Played[0].Games[0].Wait = &sessions.NoPlaces{Problem: sessions.PlaceNoRights, Right: sessions.RightManageTopics}
	tour.Rev = 2
	putTour(t, s, tour)
	sameTour(t, "a game waiting for its place", getTour(t, s, tour.ID), tour)
	r := storeRecord(skey("tc1"), 0)
	r.Seats = []sessions.User{sAnn, sBen}
	r.Tour = &sessions.TourRef{ID: tour.ID, Round: 1, Board: 0}
	opened := tour.Clone()
	opened.Rev = 3
	opened.Played[0].Games[0].Key, opened.Played[0].Games[0].Wait = r.Key, nil
	commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone(), Tournament: opened})
	sameTour(t, "the tournament after its game opened", getTour(t, s, tour.ID), opened)
	same(t, "the tournament game", load(t, s, r.Key), r)

	// A move whose tournament write is stale: nothing of it is written.
	moved := r.Clone()
	addMove(moved, "1")
	if err := s.Commit(ctx, &sessions.Change{Key: r.Key, Live: moved.Clone(), Tournament: opened.Clone(), Request: "tm", At: st0}); !errors.Is(err, sessions.ErrConflict) {
		t.Fatalf("a move with a stale tournament: %v, want ErrConflict", err)
	}
	same(t, "the game after the conflict", load(t, s, r.Key), r)
	if seen, err := s.Seen(ctx, "test", "tm"); err != nil || seen {
		t.Fatalf("the request of the refused move: seen %v, %v", seen, err)
	}

	// The game ends; the change carries a stale tournament.
	r.Result = &sessions.Result{Winner: 0, Reason: "resigned", Ended: st0.Add(time.Hour)}
	result := opened.Clone()
	result.Played[0].Games[0].Result = "1-0"
	rate := &sessions.RateRequest{Platform: "test", Game: r.Game, Month: sessions.Month(st0),
		Players: [2]sessions.User{sAnn, sBen}, Score: 1, Rated: true}
	c := &sessions.Change{Key: r.Key, Finished: r.Clone(), Rate: rate, Request: "end", At: st0, Tournament: result.Clone()}
	if err := s.Commit(ctx, c); !errors.Is(err, sessions.ErrConflict) {
		t.Fatalf("the game's end with a stale tournament: %v, want ErrConflict", err)
	}
	if _, err := s.Finished(ctx, "1"); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("the finished game of the refused change: %v, want ErrNotFound", err)
	}
	if h, err := s.History(ctx, sessions.HistoryQuery{Platform: "test", User: sAnn.ID}); err != nil || len(h) != 0 {
		t.Fatalf("Ann's history after the refused change: %v, %v", h, err)
	}
	if st, err := s.Standings(ctx, "test", sAnn.ID, ""); err != nil || len(st) != 0 {
		t.Fatalf("Ann's ratings after the refused change: %v, %v", st, err)
	}
	if seen, err := s.Seen(ctx, "test", "end"); err != nil || seen {
		t.Fatalf("the request of the refused change: seen %v, %v", seen, err)
	}
	sameTour(t, "the tournament after the refused change", getTour(t, s, tour.ID), opened)

	// At the right Rev, without loading the session again: the game is
	// in the history, its id in the tournament.
	result.Rev = 4
	c = &sessions.Change{Key: r.Key, Finished: r.Clone(), Rate: rate, Request: "end", At: st0, Tournament: result.Clone()}
	commit(t, s, c)
	if c.Finished.ID == "" || len(c.Finished.Ratings) != 2 {
		t.Fatalf("the finished game: id %q, ratings %v", c.Finished.ID, c.Finished.Ratings)
	}
	result.Played[0].Games[0].GameID = c.Finished.ID
	sameTour(t, "the tournament given back", c.Tournament, result)
	sameTour(t, "the stored tournament", getTour(t, s, tour.ID), result)
	f, err := s.Finished(ctx, c.Finished.ID)
	if err != nil || f.Tour == nil || *f.Tour != *r.Tour {
		t.Fatalf("the finished tournament game: %+v, %v", f, err)
	}
	if _, err := s.Load(ctx, r.Key); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("the game's session after its end: %v, want ErrNotFound", err)
	}
	if seen, err := s.Seen(ctx, "test", "end"); err != nil || !seen {
		t.Fatalf("the request of the change: seen %v, %v", seen, err)
	}

	// A finished game that is not of this tournament leaves its games be.
	other := storeRecord(skey("tc2"), 1)
	other.Tour = &sessions.TourRef{ID: "77", Round: 1, Board: 0}
	other.Result = &sessions.Result{Winner: 1, Reason: "resigned", Ended: st0.Add(time.Hour)}
	cancelled := result.Clone()
	cancelled.Rev, cancelled.Status = 5, sessions.StatusCancelled
	c = &sessions.Change{Key: other.Key, Finished: other, Tournament: cancelled.Clone()}
	commit(t, s, c)
	sameTour(t, "the tournament after another game", getTour(t, s, tour.ID), cancelled)
	if active, err := s.ActiveTournaments(ctx); err != nil || len(active) != 0 {
		t.Fatalf("active tournaments after the cancel: %v, %v", tourIDs(active), err)
	}

	// A tournament created in a change gets the next id.
	nt := storeTour("tc")
	c = &sessions.Change{Key: skey("tc3"), Live: storeRecord(skey("tc3"), 0), Tournament: nt}
	commit(t, s, c)
	if nt.ID != "2" {
		t.Fatalf("a tournament created in a change: id %q, want 2", nt.ID)
	}
	sameTour(t, "the tournament created in a change", getTour(t, s, "2"), nt)
}

// storeOneActivePerChannel: a channel (platform and channel, any thread)
// has at most one tournament in sign-up or running: a write that would
// make a second one active there, alone or in a change, fails with
// ErrTournamentOpen (and ErrConflict) and writes nothing, and of two
// opened there at once one is stored. Once the active one ends, the
// channel takes a new one, and the one that ended cannot be reopened.
func storeOneActivePerChannel(t *testing.T, s sessions.Store) {
	ctx := context.Background()
	taken := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, sessions.ErrTournamentOpen) || !errors.Is(err, sessions.ErrConflict) {
			t.Fatalf("%s: %v, want ErrTournamentOpen and ErrConflict", what, err)
		}
	}
	at := func(what, ch string, want ...string) {
		t.Helper()
		got, err := s.TournamentsAt(ctx, sessions.Key{Platform: "test", Channel: ch}, 0)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ids := tourIDs(got); !slices.Equal(ids, want) {
			t.Fatalf("%s: tournaments %v in %s, want %v", what, ids, ch, want)
		}
	}
	a := storeTour("oc")
	putTour(t, s, a)
	b := storeTour("oc")
	b.Key.Thread = "elsewhere"
	taken("a second tournament in sign-up in the channel", s.PutTournament(ctx, b))
	if b.ID != "" {
		t.Fatalf("the refused tournament got id %q", b.ID)
	}
	at("after the refused tournament", "oc", a.ID)
	// Another channel, and the same channel's name on another platform,
	// take one each.
	other := storeTour("oc2")
	putTour(t, s, other)
	elsewhere := storeTour("oc")
	elsewhere.Key.Platform = "other"
	putTour(t, s, elsewhere)

	// Written in a change with a new session: nothing of it is stored.
	r := storeRecord(skey("oc-game"), 0)
	c := &sessions.Change{Key: r.Key, Live: r, Tournament: b.Clone()}
	taken("a change opening a second tournament in the channel", s.Commit(ctx, c))
	if _, err := s.Load(ctx, r.Key); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("the session of the refused change: %v, want ErrNotFound", err)
	}
	at("after the refused change", "oc", a.ID)

	// The active one runs on (its writes are not refused), then ends:
	// the channel takes a new one, and the old one cannot be reopened.
	a.Rev++
	paired(a, "oc-g1")
	putTour(t, s, a)
	a.Rev, a.Status, a.Ended = a.Rev+1, sessions.StatusCancelled, st0.Add(time.Hour)
	putTour(t, s, a)
	putTour(t, s, b)
	at("after the first ended", "oc", b.ID, a.ID)
	reopen := a.Clone()
	reopen.Rev, reopen.Status, reopen.Ended = a.Rev+1, sessions.StatusSignup, time.Time{}
	taken("reopening the one that ended", s.PutTournament(ctx, reopen))
	sameTour(t, "the one that ended", getTour(t, s, a.ID), a)
	// b ends in a change (its last game's end): the channel is free again.
	b.Rev, b.Status, b.Ended = b.Rev+1, sessions.StatusFinished, st0.Add(2*time.Hour)
	commit(t, s, &sessions.Change{Key: r.Key, Live: r.Clone(), Tournament: b})
	n := storeTour("oc")
	commit(t, s, &sessions.Change{Key: skey("oc-game2"), Live: storeRecord(skey("oc-game2"), 0), Tournament: n})
	at("after the second ended", "oc", n.ID, b.ID, a.ID)
	active, err := s.ActiveTournaments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := tourIDs(active)
	slices.Sort(ids)
	want := []string{other.ID, elsewhere.ID, n.ID}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Fatalf("active tournaments %v, want %v", ids, want)
	}

	// Two opened in one channel at once: one is stored.
	for i := range 10 {
		ch := fmt.Sprint("ocrace", i)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		start := make(chan struct{})
		for w := range 2 {
			nt := storeTour(ch)
			nt.Key.Thread = fmt.Sprint("t", w)
			wg.Go(func() {
				<-start
				errs[w] = s.PutTournament(ctx, nt)
			})
		}
		close(start)
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, sessions.ErrTournamentOpen):
				t.Fatalf("two tournaments opened in %s at once: %v", ch, errs)
			}
		}
		got, err := s.TournamentsAt(ctx, sessions.Key{Platform: "test", Channel: ch}, 0)
		if ok != 1 || err != nil || len(got) != 1 {
			t.Fatalf("two tournaments opened in %s at once: %v; stored %v, %v", ch, errs, tourIDs(got), err)
		}
	}
}
