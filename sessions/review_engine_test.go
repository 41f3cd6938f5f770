package sessions_test

import (
	"testing"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// engineReviews skips the test while rules/ai's Review is not written.
func engineReviews(t *testing.T) {
	t.Helper()
	g, err := games.New("spanish", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := g.Start(0)
	if _, err := ai.New(ai.Config{}).Review(ctx, []rules.State{st}, []rules.Move{st.Moves()[0]}, ai.ReviewOptions{Nodes: 1000}); err != nil {
		t.Skipf("the engine's review is not in yet: %v", err)
	}
}

// TestReviewWithTheEngine: the real engine reviews a Spanish game through
// the service: one verdict per move played, in the game's notation, the
// chances of both seats from 0 to 1, within the budget, stored once.
func TestReviewWithTheEngine(t *testing.T) {
	engineReviews(t)
	store := sessionstest.NewMemoryStore()
	s := sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 }, ReviewNodes: 20000})
	defer s.Close()
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	must(t)(s.Challenge(ctx, sessions.Request{Key: key, User: alice}, sessions.ChallengeSpec{Game: "spanish", Invited: []sessions.User{bob}, Play: p}))
	must(t)(s.Accept(ctx, req(bob)))
	var played []string
	for range 12 {
		snap, _ := s.Look(ctx, key)
		m := snap.State.Moves()[len(snap.State.Moves())-1].Text
		must(t)(s.Move(ctx, sessions.Request{Key: key, User: snap.Player(snap.Turn())}, m))
		played = append(played, m)
	}
	id := must(t)(s.Resign(ctx, req(bob))).Session.Record.ID
	r, err := s.Review(ctx, sessions.ReviewRequest{Key: key, User: alice, Wait: true})
	if err != nil || r.State != sessions.ReviewReady || r.Record.Game != id {
		t.Fatalf("%+v, %v", r, err)
	}
	rv := r.Record.Review
	if len(rv.Plies) != len(played) || len(rv.Seats) != 2 {
		t.Fatalf("%d plies and %d seats reviewed, want %d and 2", len(rv.Plies), len(rv.Seats), len(played))
	}
	// Each ply searches its position at the budget, and a move that looks
	// worse is checked by a second search (the engine checks the budget
	// every 1,024 positions).
	for i, pr := range rv.Plies {
		if pr.Ply != i || pr.Played != played[i] || pr.Best == "" || len(pr.Chances) != 2 || pr.Nodes > 2*20000+4096 {
			t.Errorf("ply %d: %+v (played %s)", i, pr, played[i])
		}
		for _, c := range pr.Chances {
			if c < 0 || c > 1 {
				t.Errorf("ply %d: chances %v", i, pr.Chances)
			}
		}
	}
	if stored, err := store.Review(ctx, id); err != nil || len(stored.Review.Plies) != len(played) {
		t.Errorf("stored: %v", err)
	}
}
