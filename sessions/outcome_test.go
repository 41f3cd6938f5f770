package sessions_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestUnknownOutcome: when the store cannot tell whether a move was
// saved, the player is told so (ErrUnknownOutcome, not ErrStorage's
// "nothing changed"), and the Service loads the session again: what
// /board shows next is what the store holds, whether the move was saved
// or not.
func TestUnknownOutcome(t *testing.T) {
	lost := fmt.Errorf("etcdstore: committing: connection reset: %w", sessions.ErrUnknownOutcome)
	for _, saved := range []bool{true, false} {
		t.Run(fmt.Sprint("saved=", saved), func(t *testing.T) {
			store := sessionstest.NewMemoryStore()
			s := newService(store)
			setups["playing"](t, s)
			if saved {
				store.Answer = func(_ *sessions.Change, err error) error { return errors.Join(err, lost) }
			} else {
				store.Fail = func(*sessions.Change) error { return lost }
			}
			_, err := s.Move(ctx, req(alice), "2")
			if k := sessions.KindOf(err); k != sessions.ErrUnknownOutcome {
				t.Fatalf("Move: %v (kind %v), want ErrUnknownOutcome", err, k)
			}
			store.Answer, store.Fail = nil, nil
			snap, err := s.Look(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			want, acts, next := "0:0", 0, alice
			if saved {
				want, acts, next = "2:1", 1, bob
			}
			if got := snap.State.FEN(); got != want || len(snap.Record.Actions) != acts {
				t.Fatalf("after the lost answer /board shows %s (%d actions), the store holds %s", got, len(snap.Record.Actions), want)
			}
			if _, err := s.Move(ctx, req(next), "1"); err != nil {
				t.Fatalf("the next move: %v", err)
			}
		})
	}
}
