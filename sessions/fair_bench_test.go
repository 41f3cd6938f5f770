package sessions_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// movedAt is a Notifier that reports the computer's moves in one session.
type movedAt struct {
	key  sessions.Key
	done chan struct{}
}

func (m *movedAt) Notify(ctx context.Context, n sessions.Notice) {
	if n.Kind == sessions.NoticeMoved && n.Key == m.key {
		select {
		case m.done <- struct{}{}:
		default:
		}
	}
}

// BenchmarkComputerUnderLoad measures how long another user waits for the
// computer's reply while one user holds many games against the computer
// at level 5, every one of them waiting for a search (the computer opens
// them; bob plays once they all wait): the real rules/ai Player with its defaults (two searches at
// once, 1 s for level 5), Spanish draughts. bob then plays the computer
// at level 3 and moves; reply-ms is the time from his move to the
// computer's reply.
//
//	go test ./sessions -run '^$' -bench ComputerUnderLoad -benchtime 1x
func BenchmarkComputerUnderLoad(b *testing.B) {
	for _, games := range []int{300} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				total += computerReplyUnderLoad(b, games)
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "reply-ms")
		})
	}
}

func computerReplyUnderLoad(b *testing.B, games int) time.Duration {
	bobKey := sessions.Key{Platform: "bench", Channel: "bob"}
	n := &movedAt{key: bobKey, done: make(chan struct{}, 1)}
	s := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Notifier: n, Computer: ai.New(ai.Config{}),
		Rand: func(int) int { return 0 }})
	defer s.Close()
	p := sessions.DefaultPlayOptions()
	p.Color, p.Level = sessions.ColorBlack, 5
	for i := range games {
		k := sessions.Key{Platform: "bench", Channel: fmt.Sprint("alice-", i)}
		if _, err := s.Challenge(ctx, sessions.Request{Key: k, User: alice}, sessions.ChallengeSpec{Game: "spanish", Computer: true, Play: p}); err != nil {
			b.Fatal(err)
		}
	}
	// Every search of alice's is waiting for the computer before bob
	// plays (the goroutines that run them reach the computer in their own
	// order; bob's, started last, could otherwise get ahead of them).
	time.Sleep(2 * time.Second)
	p.Color, p.Level = sessions.ColorWhite, 3
	if _, err := s.Challenge(ctx, sessions.Request{Key: bobKey, User: bob}, sessions.ChallengeSpec{Game: "spanish", Computer: true, Play: p}); err != nil {
		b.Fatal(err)
	}
	if _, err := s.Move(ctx, sessions.Request{Key: bobKey, User: bob}, "b3-a4"); err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	<-n.done
	return time.Since(t0)
}
