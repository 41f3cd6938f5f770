package sessions_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestResidentSessionsBounded: with Resident 2, five games in play keep at
// most two sessions in memory; each of the others loads again when used,
// as it stood, and when its clock comes due the clock loads it and plays
// for the player out of time.
func TestResidentSessionsBounded(t *testing.T) {
	clk, n := newClock(), &noticeLog{}
	t0 := clk.Now()
	s := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games, Now: clk.Now,
		Rand: func(int) int { return 0 }, Computer: &firstMove{}, Notifier: n, Resident: 2})
	defer s.Close()
	keys := make([]sessions.Key, 5)
	for i := range keys {
		keys[i] = sessions.Key{Platform: "test", Channel: fmt.Sprint("r", i)}
		r := func(u sessions.User) sessions.Request { return sessions.Request{Key: keys[i], User: u} }
		p := sessions.DefaultPlayOptions()
		p.Color, p.Time = sessions.ColorWhite, sessions.Duration(time.Hour)
		must(t)(s.Challenge(ctx, r(alice), sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "1000"},
			Invited: []sessions.User{bob}, Play: p}))
		must(t)(s.Accept(ctx, r(bob)))
		for range i {
			must(t)(s.Move(ctx, r(alice), "1"))
			must(t)(s.Move(ctx, r(bob), "2"))
		}
		if got := s.Resident(); got > 2 {
			t.Fatalf("after %d games: %d sessions in memory, want at most 2", i+1, got)
		}
	}
	n.take()
	for i, k := range keys {
		snap, err := s.Look(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprint(3 * i); snap.State.FEN() != want+":0" && !strings.HasPrefix(snap.State.FEN(), want+":") {
			t.Fatalf("%s: position %s, want count %s", k, snap.State.FEN(), want)
		}
		if len(snap.Record.Actions) != 2*i {
			t.Fatalf("%s: %d actions, want %d", k, len(snap.Record.Actions), 2*i)
		}
	}
	clk.Set(t0.Add(time.Hour))
	s.Tick(ctx)
	for _, k := range keys {
		if err := s.Settle(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Count(n.take(), "moved(auto):#"); got != len(keys) {
		t.Fatalf("the clock played %d moves, want one in each of the %d games", got, len(keys))
	}
	if got := s.Resident(); got > 2 {
		t.Fatalf("after the clock: %d sessions in memory, want at most 2", got)
	}
	for _, k := range keys {
		if snap, err := s.Look(ctx, k); err != nil || snap.Record.Auto[0] != 1 {
			t.Fatalf("%s after the clock: %v", k, err)
		}
	}
}
