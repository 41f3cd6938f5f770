package sessionstest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
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
		{"Finish", storeFinish},
		{"History", storeHistory},
		{"Requests", storeRequests},
		{"Ratings", storeRatings},
		{"Concurrent", storeConcurrent},
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
		V: sessions.RecordVersion, Key: key, Game: "count", Options: map[string]string{"target": "1000"},
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
