package sessions_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// searchLog is a Computer on a real rules/ai Player that logs, in order,
// when each search is asked for (call) and when it gets its turn and
// starts (start), with its owner.
type searchLog struct {
	pl     *ai.Player
	mu     sync.Mutex
	events []searchEvent
}

type searchEvent struct {
	start bool
	owner string
}

func (l *searchLog) add(start bool, owner string) {
	l.mu.Lock()
	l.events = append(l.events, searchEvent{start, owner})
	l.mu.Unlock()
}

// asked counts the searches owner asked for.
func (l *searchLog) asked(owner string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, e := range l.events {
		if !e.start && e.owner == owner {
			n++
		}
	}
	return n
}

func (l *searchLog) Move(ctx context.Context, s rules.State, level int, seed uint64) (rules.Move, error) {
	owner := ai.OwnerOf(ctx)
	l.add(false, owner)
	return l.pl.Move(ai.WithStart(ctx, func() { l.add(true, owner) }), s, level, seed)
}

// TestReviewTakesTurns: a review's searches take turns with the
// computer's live searches as its asker's: while alice floods the
// computer with 300 games and carol's review searches every position
// again and again, bob's computer reply waits for at most one search of
// each other owner waiting (one table, round robin), counted in the
// order the searches start, not timed.
func TestReviewTakesTurns(t *testing.T) {
	const flood = 300
	log := &searchLog{pl: ai.New(ai.Config{Searches: 1})}
	reviewing := make(chan struct{})
	reviewer := func(ctx context.Context, positions []rules.State, played []rules.Move, o ai.ReviewOptions) (ai.Review, error) {
		var rv ai.Review
		close(reviewing)
		for round := range 20 {
			for i, st := range positions {
				if _, err := log.Move(ctx, st, ai.MinLevel, uint64(round*100+i)); err != nil {
					return rv, err
				}
			}
		}
		rv.Seats = make([]ai.SeatReview, 2)
		for i := range played {
			rv.Plies = append(rv.Plies, ai.PlyReview{Ply: i, Played: played[i].Text, Best: played[i].Text})
		}
		return rv, nil
	}
	bobKey := sessions.Key{Platform: "test", Channel: "bob"}
	moved := &movedAt{key: bobKey, done: make(chan struct{}, 1)}
	s := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Notifier: moved, Computer: log, Reviewer: reviewer,
		Rand: func(int) int { return 0 }})
	defer s.Close()

	// carol's finished game: four moves, then dave resigns.
	ck := sessions.Key{Platform: "test", Channel: "carol"}
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	must(t)(s.Challenge(ctx, sessions.Request{Key: ck, User: carol}, sessions.ChallengeSpec{Game: "spanish", Invited: []sessions.User{dave}, Play: p}))
	must(t)(s.Accept(ctx, sessions.Request{Key: ck, User: dave}))
	for range 4 {
		snap, _ := s.Look(ctx, ck)
		must(t)(s.Move(ctx, sessions.Request{Key: ck, User: snap.Player(snap.Turn())}, snap.State.Moves()[0].Text))
	}
	id := must(t)(s.Resign(ctx, sessions.Request{Key: ck, User: dave})).Session.Record.ID

	// alice's flood: the computer opens each of her games.
	p.Color, p.Level = sessions.ColorBlack, ai.MinLevel
	for i := range flood {
		k := sessions.Key{Platform: "test", Channel: fmt.Sprint("alice-", i)}
		must(t)(s.Challenge(ctx, sessions.Request{Key: k, User: alice}, sessions.ChallengeSpec{Game: "spanish", Computer: true, Play: p}))
	}
	if r, err := s.Review(ctx, sessions.ReviewRequest{Key: ck, User: carol, Game: id}); err != nil || r.State != sessions.ReviewQueued {
		t.Fatalf("carol's review: %+v, %v", r, err)
	}
	<-reviewing // the review searches before bob plays
	// Every game of alice's has asked for its search before bob plays
	// (the goroutines that run them reach the computer in their own time).
	aliceOwner := "user\x00" + alice.Key("test")
	for deadline := time.Now().Add(30 * time.Second); log.asked(aliceOwner) < flood; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("alice's games asked for %d searches, want %d", log.asked(aliceOwner), flood)
		}
	}
	p.Color = sessions.ColorWhite
	must(t)(s.Challenge(ctx, sessions.Request{Key: bobKey, User: bob}, sessions.ChallengeSpec{Game: "spanish", Computer: true, Play: p}))
	must(t)(s.Move(ctx, sessions.Request{Key: bobKey, User: bob}, "b3-a4"))
	<-moved.done

	bobOwner := "user\x00" + bob.Key("test")
	carolOwner := "user\x00" + carol.Key("test")
	log.mu.Lock()
	events := append([]searchEvent(nil), log.events...)
	log.mu.Unlock()
	asked, others, reviewSearches, aliceWaiting := -1, 0, 0, 0
	for i, e := range events {
		switch {
		case e.owner == carolOwner && !e.start && asked < 0:
			reviewSearches++
		case e.owner == bobOwner && !e.start:
			asked = i
			for _, f := range events[:i] {
				if f.owner != bobOwner && f.owner != carolOwner {
					if f.start {
						aliceWaiting--
					} else {
						aliceWaiting++
					}
				}
			}
		case e.owner == bobOwner && e.start && asked >= 0:
			t.Logf("bob's search started after %d searches of others; alice had %d waiting, carol's review had asked for %d searches",
				others, aliceWaiting, reviewSearches)
			// One per other owner waiting (alice, carol's review), and one
			// that had its table as bob asked.
			if others > 3 {
				t.Errorf("bob's reply waited for %d searches of others, want at most 3", others)
			}
			if reviewSearches == 0 || aliceWaiting < 2 {
				t.Errorf("carol's review had asked for %d searches and alice had %d waiting as bob asked: the test did not flood what it means to", reviewSearches, aliceWaiting)
			}
			return
		case asked >= 0 && e.start:
			others++
		}
	}
	t.Fatalf("bob's search was not logged (asked at event %d of %d)", asked, len(events))
}
