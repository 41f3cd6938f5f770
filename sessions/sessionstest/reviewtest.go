package sessionstest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
)

// TestReviewStore runs the contract of sessions.ReviewStore on the stores
// open returns: a review reads back as written, a missing one is
// ErrNotFound, a second write replaces the first.
func TestReviewStore(t *testing.T, open func(t *testing.T) sessions.ReviewStore) {
	ctx := context.Background()
	s := open(t)
	if _, err := s.Review(ctx, "12"); !errors.Is(err, sessions.ErrNotFound) {
		t.Fatalf("a review never written: %v, want ErrNotFound", err)
	}
	r := &sessions.ReviewRecord{V: 1, Game: "12", Nodes: 5000, Made: time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC), Review: ai.Review{
		Plies: []ai.PlyReview{
			{Ply: 0, Seat: 0, Played: "11-15", Best: "11-15", Chances: []float64{0.52, 0.48}, Before: 0.52, After: 0.52, Eval: 10, Nodes: 5000},
			{Ply: 1, Seat: 1, Played: "22-18", Best: "23-19", Chances: []float64{0.9, 0.1}, Before: 0.47, After: 0.1, Eval: 300, Mark: ai.MarkBlunder, Material: 2, Nodes: 4900},
		},
		Seats: []ai.SeatReview{{Accuracy: 100, Worst: -1}, {Accuracy: 41.5, Blunders: 1, Worst: 1}},
	}}
	if err := s.PutReview(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Review(ctx, "12")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("read back %+v, want %+v", got, r)
	}
	r2 := *r
	r2.Nodes = 9000
	if err := s.PutReview(ctx, &r2); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Review(ctx, "12"); err != nil || got.Nodes != 9000 {
		t.Errorf("after a second write: %+v, %v; want Nodes 9000", got, err)
	}
	if _, err := s.Review(ctx, "13"); !errors.Is(err, sessions.ErrNotFound) {
		t.Errorf("another game's review: %v, want ErrNotFound", err)
	}
}
