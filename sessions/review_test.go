package sessions_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// fakeReviewer counts the reviews it computes; each waits for a value on
// gate when gate is set (so that a test holds a review on its way), and
// marks every move of the second seat a mistake.
type fakeReviewer struct {
	mu      sync.Mutex
	calls   int
	owners  []string
	nodes   []int64
	started chan string
	gate    chan struct{}
}

func (f *fakeReviewer) review(ctx context.Context, positions []rules.State, played []rules.Move, o ai.ReviewOptions) (ai.Review, error) {
	f.mu.Lock()
	f.calls++
	f.owners = append(f.owners, ai.OwnerOf(ctx))
	f.nodes = append(f.nodes, o.Nodes)
	f.mu.Unlock()
	if f.started != nil {
		f.started <- ai.OwnerOf(ctx)
	}
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-ctx.Done():
			return ai.Review{}, ctx.Err()
		}
	}
	var rv ai.Review
	seats := positions[0].Game().Seats()
	rv.Seats = make([]ai.SeatReview, len(seats))
	for i, st := range positions {
		seat := st.Turn()
		pr := ai.PlyReview{Ply: i, Seat: seat, Played: played[i].Text, Best: played[i].Text, Chances: make([]float64, len(seats)), Before: 0.5, After: 0.5}
		if seat == 1 {
			pr.Mark, pr.After, pr.Best = ai.MarkMistake, 0.3, "1"
			rv.Seats[seat].Mistakes++
		}
		rv.Plies = append(rv.Plies, pr)
	}
	return rv, nil
}

func (f *fakeReviewer) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// reviewed collects the NoticeReviewed notices.
type reviewed struct{ ch chan sessions.Notice }

func (r *reviewed) Notify(ctx context.Context, n sessions.Notice) {
	if n.Kind == sessions.NoticeReviewed {
		r.ch <- n
	}
}

type reviewFixture struct {
	s     *sessions.Service
	store *sessionstest.MemoryStore
	rv    *fakeReviewer
	told  *reviewed
}

func newReviewFixture(t *testing.T, c sessions.Config) *reviewFixture {
	f := &reviewFixture{store: sessionstest.NewMemoryStore(), rv: &fakeReviewer{}, told: &reviewed{ch: make(chan sessions.Notice, 16)}}
	c.Store, c.Notifier, c.Games, c.Rand = f.store, f.told, sessionstest.Games, func(int) int { return 0 }
	if c.Reviewer == nil {
		c.Reviewer = f.rv.review
	}
	f.s = sessions.New(c)
	t.Cleanup(f.s.Close)
	return f
}

// play finishes a count game between alice (White) and bob at k: alice
// 2, bob 1, alice 2, bob resigns; a rated one is long enough to be rated
// (24 moves of 1 each to 100). It returns the game's id.
func (f *reviewFixture) play(t *testing.T, k sessions.Key, rated bool) string {
	t.Helper()
	p := sessions.DefaultPlayOptions()
	p.Color, p.Rated = sessions.ColorWhite, rated
	r := func(u sessions.User) sessions.Request { return sessions.Request{Key: k, User: u} }
	moves := []string{"2", "1", "2"}
	opts := map[string]string{}
	if rated {
		opts["target"], moves = "100", nil
		for range 2 * (sessions.MinRatedMoves + 1) {
			moves = append(moves, "1")
		}
	}
	must(t)(f.s.Challenge(ctx, r(alice), sessions.ChallengeSpec{Game: "count", Options: opts, Invited: []sessions.User{bob}, Play: p}))
	must(t)(f.s.Accept(ctx, r(bob)))
	for i, m := range moves {
		u := alice
		if i%2 == 1 {
			u = bob
		}
		must(t)(f.s.Move(ctx, r(u), m))
	}
	ev := must(t)(f.s.Resign(ctx, r(bob)))
	return ev.Session.Record.ID
}

func TestReviewComputedOnce(t *testing.T) {
	f := newReviewFixture(t, sessions.Config{ReviewNodes: 1234})
	f.rv.gate = make(chan struct{})
	id := f.play(t, key, false)

	first, err := f.s.Review(ctx, sessions.ReviewRequest{Key: key, User: alice, Game: id})
	if err != nil || first.State != sessions.ReviewQueued || first.Game.Record.ID != id {
		t.Fatalf("first ask: %+v, %v; want queued", first, err)
	}
	// bob asks for the same game while it is computed: no second review.
	if r, err := f.s.Review(ctx, sessions.ReviewRequest{Key: key, User: bob}); err != nil || r.State != sessions.ReviewQueued {
		t.Fatalf("bob's ask: %+v, %v; want queued", r, err)
	}
	close(f.rv.gate)
	n := <-f.told.ch
	if n.Key != key || n.Game != id {
		t.Errorf("notice %+v, want the game %s at %s", n, id, key)
	}
	got, err := f.s.Review(ctx, sessions.ReviewRequest{Key: key, User: alice, Game: "#" + id})
	if err != nil || got.State != sessions.ReviewReady || got.Record == nil {
		t.Fatalf("third ask: %+v, %v; want ready", got, err)
	}
	if f.rv.count() != 1 {
		t.Errorf("asked three times, computed %d times, want once", f.rv.count())
	}
	if p := got.Record.Review.Plies; len(p) != 3 || p[1].Mark != ai.MarkMistake || p[1].Played != "1" {
		t.Errorf("stored review %+v", got.Record.Review)
	}
	if got.Record.Nodes != 1234 || f.rv.nodes[0] != 1234 {
		t.Errorf("budget %d (asked with %d), want review.budget 1234", got.Record.Nodes, f.rv.nodes[0])
	}
	if want := "user\x00" + alice.Key("test"); f.rv.owners[0] != want {
		t.Errorf("the review's searches are %q's, want the asker's %q", f.rv.owners[0], want)
	}
	stored, err := f.s.StoredReview(ctx, id)
	if err != nil || stored == nil || stored.Game != id {
		t.Errorf("StoredReview: %+v, %v", stored, err)
	}
	if r, err := f.store.Review(ctx, id); err != nil || r.Game != id {
		t.Errorf("the store holds %+v, %v", r, err)
	}
}

func TestReviewOnePerUser(t *testing.T) {
	f := newReviewFixture(t, sessions.Config{})
	f.rv.gate = make(chan struct{})
	f.rv.started = make(chan string, 4)
	k2 := sessions.Key{Platform: "test", Channel: "c2"}
	id1 := f.play(t, key, false)
	id2 := f.play(t, k2, false)
	if r, err := f.s.Review(ctx, sessions.ReviewRequest{Key: key, User: alice, Game: id1}); err != nil || r.State != sessions.ReviewQueued {
		t.Fatalf("first: %+v, %v", r, err)
	}
	r, err := f.s.Review(ctx, sessions.ReviewRequest{Key: k2, User: alice, Game: id2})
	if err != nil || r.State != sessions.ReviewWaiting || r.Pending != id1 {
		t.Fatalf("alice's second review while the first is on its way: %+v, %v; want waiting for %s", r, err, id1)
	}
	// Someone else may queue the second game.
	if r, err := f.s.Review(ctx, sessions.ReviewRequest{Key: k2, User: bob, Game: id2}); err != nil || r.State != sessions.ReviewQueued {
		t.Fatalf("bob: %+v, %v", r, err)
	}
	close(f.rv.gate)
	got := map[string]sessions.Key{}
	for range 2 {
		n := <-f.told.ch
		got[n.Game] = n.Key
	}
	if got[id1] != key || got[id2] != k2 {
		t.Errorf("announced %v", got)
	}
	if f.rv.count() != 2 {
		t.Errorf("computed %d reviews, want 2", f.rv.count())
	}
	// Once hers is done, alice may ask again: the second is stored.
	if r, err := f.s.Review(ctx, sessions.ReviewRequest{Key: k2, User: alice, Game: id2}); err != nil || r.State != sessions.ReviewReady {
		t.Errorf("after: %+v, %v", r, err)
	}
}

func TestReviewRefusals(t *testing.T) {
	f := newReviewFixture(t, sessions.Config{})
	id := f.play(t, key, false)
	other := sessions.Key{Platform: "test", Channel: "elsewhere"}
	// A game in play at other.
	p := sessions.DefaultPlayOptions()
	must(t)(f.s.Challenge(ctx, sessions.Request{Key: other, User: carol}, sessions.ChallengeSpec{Game: "count", Invited: []sessions.User{dave}, Play: p}))
	must(t)(f.s.Accept(ctx, sessions.Request{Key: other, User: dave}))
	for _, c := range []struct {
		name string
		req  sessions.ReviewRequest
		want error
	}{
		{"no such game", sessions.ReviewRequest{Key: key, User: alice, Game: "999"}, sessions.ErrNoSuchGame},
		{"another platform's", sessions.ReviewRequest{Key: sessions.Key{Platform: "other", Channel: "c1"}, User: alice, Game: id}, sessions.ErrNoSuchGame},
		{"still running", sessions.ReviewRequest{Key: other, User: carol}, sessions.ErrNotFinished},
		{"another chat's private game", sessions.ReviewRequest{Key: other, User: carol, Game: id}, sessions.ErrPrivateGame},
		{"nothing to default to", sessions.ReviewRequest{Key: sessions.Key{Platform: "test", Channel: "empty"}, User: carol}, sessions.ErrNoSuchGame},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := f.s.Review(ctx, c.req)
			if !errors.Is(err, c.want) {
				t.Fatalf("%+v, %v; want %v", r, err, c.want)
			}
		})
	}
	// A player of the private game may review it from elsewhere; by
	// default, the chat's last game, else the speaker's.
	if r, err := f.s.Review(ctx, sessions.ReviewRequest{Key: sessions.Key{Platform: "test", Channel: "dm-bob"}, User: bob}); err != nil || r.Game.Record.ID != id {
		t.Errorf("bob elsewhere, no id: %+v, %v; want his game %s", r, err, id)
	}
	<-f.told.ch
	if f.rv.count() != 1 {
		t.Errorf("refusals queued reviews: %d computed, want only bob's", f.rv.count())
	}
}

func TestReviewAuto(t *testing.T) {
	f := newReviewFixture(t, sessions.Config{ReviewAuto: true})
	f.rv.started = make(chan string, 4)
	f.play(t, sessions.Key{Platform: "test", Channel: "casual"}, false)
	id := f.play(t, key, true)
	if owner := <-f.rv.started; owner != "review\x00auto" {
		t.Errorf("owner %q", owner)
	}
	if err := f.s.Settle(ctx, key); err != nil {
		t.Fatal(err)
	}
	f.s.Close() // waits for the queue
	if r, err := f.store.Review(ctx, id); err != nil || r.Game != id {
		t.Errorf("the rated game's review: %+v, %v", r, err)
	}
	if f.rv.count() != 1 {
		t.Errorf("%d reviews, want 1: the rated game's only", f.rv.count())
	}
}
