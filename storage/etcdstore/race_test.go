package etcdstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

var (
	ann = sessions.User{ID: "a", Name: "ann"}
	bob = sessions.User{ID: "b", Name: "bob"}
)

// service is one bot process's Service on store.
func service(store sessions.Store) *sessions.Service {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Now: func() time.Time { return t0 }, Rand: func(int) int { return 0 }})
}

// twoProcesses returns two Services, each on its own Store (as two bot
// processes have) on the same keys, with a game of count between ann
// (seat 0) and bob started at key.
func twoProcesses(t *testing.T, key sessions.Key) (*sessions.Service, *sessions.Service, func() *sessions.Snapshot) {
	t.Helper()
	ctx := context.Background()
	a, b := service(open(t)), service(open(t))
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	if _, err := a.Challenge(ctx, sessions.Request{Key: key, User: ann}, sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "1000"}, Invited: []sessions.User{bob}, Play: p}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Accept(ctx, sessions.Request{Key: key, User: bob}); err != nil {
		t.Fatal(err)
	}
	// stored reads the session as a third process, started now, sees it.
	stored := func() *sessions.Snapshot {
		t.Helper()
		snap, err := service(open(t)).Look(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	return a, b, stored
}

// TestSameMoveFromTwoProcesses sends each move of a game through two
// processes at the same moment: one applies it, the other, having lost
// the race, loads the session again and refuses it (not your turn).
func TestSameMoveFromTwoProcesses(t *testing.T) {
	ctx := context.Background()
	key := sessions.Key{Platform: "test", Channel: "race"}
	a, b, stored := twoProcesses(t, key)
	const rounds = 60
	for i := range rounds {
		u := []sessions.User{ann, bob}[i%2]
		var errs [2]error
		var wg sync.WaitGroup
		start := make(chan struct{})
		for j, s := range []*sessions.Service{a, b} {
			wg.Go(func() {
				<-start
				_, errs[j] = s.Move(ctx, sessions.Request{Key: key, User: u}, "1")
			})
		}
		close(start)
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, sessions.ErrNotYourTurn):
				t.Fatalf("round %d: %v", i, err)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: the move applied %d times", i, ok)
		}
	}
	snap := stored()
	if len(snap.Record.Actions) != rounds || snap.State.FEN() != fmt.Sprintf("%d:%d", rounds, rounds%2) {
		t.Fatalf("%d moves stored, position %s, want %d", len(snap.Record.Actions), snap.State.FEN(), rounds)
	}
	for i, a := range snap.Record.Actions {
		if a.Seat != i%2 {
			t.Fatalf("action %d by seat %d", i, a.Seat)
		}
	}
}

// TestBothPlayersFromTwoProcesses has ann play through one process and
// bob through the other, both sending moves as fast as they can: every
// move acknowledged is stored once, in turn, and none is lost.
func TestBothPlayersFromTwoProcesses(t *testing.T) {
	ctx := context.Background()
	key := sessions.Key{Platform: "test", Channel: "both"}
	a, b, stored := twoProcesses(t, key)
	var mu sync.Mutex
	ok := 0
	var wg sync.WaitGroup
	for _, p := range []struct {
		s *sessions.Service
		u sessions.User
	}{{a, ann}, {b, bob}} {
		wg.Go(func() {
			for range 100 {
				_, err := p.s.Move(ctx, sessions.Request{Key: key, User: p.u}, "1")
				switch {
				case err == nil:
					mu.Lock()
					ok++
					mu.Unlock()
				case !errors.Is(err, sessions.ErrNotYourTurn):
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	snap := stored()
	if ok == 0 || len(snap.Record.Actions) != ok || snap.State.FEN() != fmt.Sprintf("%d:%d", ok, ok%2) {
		t.Fatalf("%d moves acknowledged, %d stored, position %s", ok, len(snap.Record.Actions), snap.State.FEN())
	}
	for i, a := range snap.Record.Actions {
		if a.Seat != i%2 {
			t.Fatalf("action %d by seat %d", i, a.Seat)
		}
	}
}

// TestDuplicateInTwoProcesses delivers the same update (one request id)
// to two processes at once: it applies once, the other is a duplicate.
func TestDuplicateInTwoProcesses(t *testing.T) {
	ctx := context.Background()
	key := sessions.Key{Platform: "test", Channel: "dup"}
	a, b, stored := twoProcesses(t, key)
	const rounds = 20
	for i := range rounds {
		r := sessions.Request{Key: key, User: []sessions.User{ann, bob}[i%2], ID: fmt.Sprint("update-", i)}
		var errs [2]error
		var wg sync.WaitGroup
		start := make(chan struct{})
		for j, s := range []*sessions.Service{a, b} {
			wg.Go(func() {
				<-start
				_, errs[j] = s.Move(ctx, r, "1")
			})
		}
		close(start)
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, sessions.ErrDuplicate):
				t.Fatalf("round %d: %v, want ErrDuplicate", i, err)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: the update applied %d times", i, ok)
		}
	}
	if n := len(stored().Record.Actions); n != rounds {
		t.Fatalf("%d moves stored, want %d", n, rounds)
	}
}

// TestOtherProcessSeesFinishedGame: a game finished in one process is
// in the other's history, and the ratings are one.
func TestOtherProcessSeesFinishedGame(t *testing.T) {
	ctx := context.Background()
	key := sessions.Key{Platform: "test", Channel: "fin"}
	a, b, _ := twoProcesses(t, key)
	if _, err := a.Resign(ctx, sessions.Request{Key: key, User: ann}); err != nil {
		t.Fatal(err)
	}
	hist, err := b.History(ctx, sessions.HistoryQuery{Platform: "test", User: bob.ID, Limit: 5})
	if err != nil || len(hist) != 1 || hist[0].Result == nil {
		t.Fatalf("bob's history in the other process: %v, %v", hist, err)
	}
	if _, err := b.Move(ctx, sessions.Request{Key: key, User: bob}, "1"); !errors.Is(err, sessions.ErrNoGame) {
		t.Fatalf("a move in the other process after the game ended: %v, want ErrNoGame", err)
	}
}
