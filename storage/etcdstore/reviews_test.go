package etcdstore_test

import (
	"context"
	"sync"
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/dump"
	"github.com/boardgamebot/bot/storage/etcdstore"
	clientv3 "go.etcd.io/etcd/client/v3"
)

func TestReviewContract(t *testing.T) {
	sessionstest.TestReviewStore(t, func(t *testing.T) sessions.ReviewStore { return open(t) })
}

// reviewNotices passes on the NoticeReviewed notices.
type reviewNotices chan sessions.Notice

func (c reviewNotices) Notify(ctx context.Context, n sessions.Notice) {
	if n.Kind == sessions.NoticeReviewed {
		c <- n
	}
}

// TestReviewComputedOnceAcrossProcesses: two processes on one etcd asked
// for the same review at once: one computes it (it claims it), the other
// waits for it, and both announce it.
func TestReviewComputedOnceAcrossProcesses(t *testing.T) {
	ctx := context.Background()
	prefix := "/" + t.Name() + "/"
	t.Cleanup(func() { cli.Delete(context.Background(), prefix, clientv3.WithPrefix()) })
	var mu sync.Mutex
	calls := 0
	gate := make(chan struct{})
	started := make(chan struct{}, 2)
	reviewer := func(ctx context.Context, positions []rules.State, played []rules.Move, o ai.ReviewOptions) (ai.Review, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		started <- struct{}{}
		<-gate
		return ai.Review{Plies: make([]ai.PlyReview, len(played)), Seats: make([]ai.SeatReview, 2)}, nil
	}
	notices := reviewNotices(make(chan sessions.Notice, 4))
	svc := func() *sessions.Service {
		s := sessions.New(sessions.Config{Store: etcdstore.New(cli, etcdstore.Options{Prefix: prefix}), Games: sessionstest.Games,
			Notifier: notices, Reviewer: reviewer, Rand: func(int) int { return 0 }})
		t.Cleanup(s.Close)
		return s
	}
	a, b := svc(), svc()
	k := sessions.Key{Platform: "test", Channel: "c"}
	alice, bob := sessions.User{ID: "a", Name: "alice"}, sessions.User{ID: "b", Name: "bob"}
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	if _, err := a.Challenge(ctx, sessions.Request{Key: k, User: alice}, sessions.ChallengeSpec{Game: "count", Invited: []sessions.User{bob}, Play: p}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Accept(ctx, sessions.Request{Key: k, User: bob}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Move(ctx, sessions.Request{Key: k, User: alice}, "2"); err != nil {
		t.Fatal(err)
	}
	ev, err := a.Resign(ctx, sessions.Request{Key: k, User: bob})
	if err != nil {
		t.Fatal(err)
	}
	id := ev.Session.Record.ID
	var wg sync.WaitGroup
	for _, c := range []struct {
		s *sessions.Service
		u sessions.User
	}{{a, alice}, {b, bob}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.s.Review(ctx, sessions.ReviewRequest{Key: k, User: c.u, Game: id})
			if err != nil || r.State != sessions.ReviewQueued {
				t.Errorf("%s: %+v, %v; want queued", c.u.Name, r, err)
			}
		}()
	}
	wg.Wait()
	<-started // one process computes: the other waits for it, or finds it stored
	close(gate)
	for range 2 {
		if n := <-notices; n.Game != id {
			t.Errorf("notice %+v", n)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if calls != 1 {
		t.Errorf("two processes computed the review %d times, want once", calls)
	}
	for _, s := range []*sessions.Service{a, b} {
		if r, err := s.StoredReview(ctx, id); err != nil || r == nil || r.Game != id {
			t.Errorf("stored: %+v, %v", r, err)
		}
	}
}

// TestReviewClaim: a claim holds until released; WaitReview returns
// the review once stored, nothing once the claim is gone without one.
func TestReviewClaim(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	rel, ok, err := s.ClaimReview(ctx, "5")
	if err != nil || !ok {
		t.Fatalf("first claim: %v, %v", ok, err)
	}
	if _, ok, err := s.ClaimReview(ctx, "5"); err != nil || ok {
		t.Fatalf("second claim while the first holds: %v, %v; want refused", ok, err)
	}
	done := make(chan *sessions.ReviewRecord)
	go func() {
		r, err := s.WaitReview(ctx, "5")
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	if err := s.PutReview(ctx, &sessions.ReviewRecord{V: 1, Game: "5"}); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r == nil || r.Game != "5" {
		t.Errorf("WaitReview: %+v", r)
	}
	rel()
	if r, err := s.WaitReview(ctx, "6"); r != nil || err != nil {
		t.Errorf("WaitReview of an unclaimed review: %+v, %v; want nil, nil", r, err)
	}
	rel6, ok, _ := s.ClaimReview(ctx, "6")
	if !ok {
		t.Fatal("claim of 6 refused")
	}
	go rel6()
	if r, err := s.WaitReview(ctx, "6"); r != nil || err != nil {
		t.Errorf("WaitReview of a released claim: %+v, %v; want nil, nil", r, err)
	}
	if _, ok, err := s.ClaimReview(ctx, "5"); err != nil || !ok {
		t.Errorf("claim after release: %v, %v", ok, err)
	}
}

// TestReviewDumpRoundTrip: a review is a dump item and comes back.
func TestReviewDumpRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := open(t)
	if err := src.PutReview(ctx, &sessions.ReviewRecord{V: 1, Game: "9", Nodes: 77}); err != nil {
		t.Fatal(err)
	}
	var got []dump.Item
	if err := src.Export(ctx, func(it dump.Item) error {
		if it.Kind == dump.KindReview {
			got = append(got, it)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != "9" {
		t.Fatalf("exported %q", got)
	}
}
