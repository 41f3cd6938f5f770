package etcdstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/tournament"
)

var tourT0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func newTour(ch string) *sessions.Tournament {
	return &sessions.Tournament{V: sessions.TournamentVersion, Rev: 1, Key: sessions.Key{Platform: "test", Channel: ch},
		Organiser: ann, Game: "count", Format: sessions.FormatSwiss, Rounds: 3, Status: sessions.StatusRunning,
		Players: []sessions.Entrant{{User: ann}, {User: bob}}, Created: tourT0,
		Played: []sessions.TourRound{{Number: 1, Games: []sessions.TourGame{{White: "a", Black: "b"}, {White: "b", Black: "a"}}}}}
}

// TestTournamentFromTwoProcesses: two processes (each its own Store)
// commit a move of their own game at the same moment, each with the
// same tournament at the same Rev: one change commits, the other fails
// whole with ErrConflict (its move is not stored), and that process then
// commits its move alone without loading its session again. Two
// processes creating tournaments at once get distinct ids.
func TestTournamentFromTwoProcesses(t *testing.T) {
	ctx := context.Background()
	stores := []sessions.Store{open(t), open(t)}
	tour := newTour("race")
	if err := stores[0].PutTournament(ctx, tour); err != nil {
		t.Fatal(err)
	}
	recs := make([]*sessions.Record, 2)
	for i, s := range stores {
		key := sessions.Key{Platform: "test", Channel: fmt.Sprint("g", i)}
		recs[i] = &sessions.Record{V: sessions.RecordVersion, Key: key, Game: "count", Seats: []sessions.User{ann, bob},
			Tour: &sessions.TourRef{ID: tour.ID, Round: 1, Board: i}}
		if err := s.Commit(ctx, &sessions.Change{Key: key, Live: recs[i].Clone()}); err != nil {
			t.Fatal(err)
		}
	}
	for round := range 30 {
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, 2)
		mine := make([]*sessions.Tournament, 2)
		moved := make([]*sessions.Record, 2)
		for i, s := range stores {
			mine[i] = tour.Clone()
			mine[i].Rev++
			mine[i].Played[0].Games[i].Result = tournament.Result(fmt.Sprint("r", round))
			moved[i] = recs[i].Clone()
			moved[i].Actions = append(moved[i].Actions, sessions.Action{Kind: sessions.ActMove, Text: "1"})
			wg.Go(func() {
				<-start
				errs[i] = s.Commit(ctx, &sessions.Change{Key: moved[i].Key, Live: moved[i].Clone(), Tournament: mine[i].Clone(),
					Request: fmt.Sprint("req", round, i), At: tourT0})
			})
		}
		close(start)
		wg.Wait()
		won := -1
		for i, err := range errs {
			switch {
			case err == nil && won < 0:
				won = i
			case errors.Is(err, sessions.ErrConflict):
			default:
				t.Fatalf("round %d: %v", round, errs)
			}
		}
		if won < 0 {
			t.Fatalf("round %d: both changes failed: %v", round, errs)
		}
		lost := 1 - won
		got, err := stores[lost].Tournament(ctx, tour.ID)
		if err != nil || got.Rev != mine[won].Rev || got.Played[0].Games[won].Result != mine[won].Played[0].Games[won].Result {
			t.Fatalf("round %d: stored %+v, %v; want the winner's", round, got, err)
		}
		if seen, err := stores[0].Seen(ctx, "test", fmt.Sprint("req", round, lost)); err != nil || seen {
			t.Fatalf("round %d: the loser's request stored: %v, %v", round, seen, err)
		}
		// The loser's session did not change: its move, alone, commits
		// on what the process holds.
		if err := stores[lost].Commit(ctx, &sessions.Change{Key: moved[lost].Key, Live: moved[lost].Clone()}); err != nil {
			t.Fatalf("round %d: the loser's move alone: %v", round, err)
		}
		recs[0], recs[1], tour = moved[0], moved[1], got
	}
	for i, s := range stores {
		r, err := s.Load(ctx, recs[i].Key)
		if err != nil || len(r.Actions) != 30 {
			t.Fatalf("game %d: %v, %v; want 30 moves", i, r, err)
		}
	}

	var wg sync.WaitGroup
	ids := make([][]string, 2)
	for i, s := range stores {
		wg.Go(func() {
			for j := range 10 {
				nt := newTour(fmt.Sprint("new", i, "-", j))
				if err := s.PutTournament(ctx, nt); err != nil {
					t.Error(err)
					return
				}
				ids[i] = append(ids[i], nt.ID)
			}
		})
	}
	wg.Wait()
	all := slices.Concat(ids...)
	slices.Sort(all)
	if all = slices.Compact(all); len(all) != 20 {
		t.Fatalf("20 tournaments created at once: ids %v", ids)
	}
}

// TestDamagedTournament: a tournament record in etcd that does not decode
// (or of a newer version) fails its reads and writes with ErrDamaged;
// the other tournaments are still read, ActiveTournaments with
// ErrDamaged; a change carrying it commits nothing.
func TestDamagedTournament(t *testing.T) {
	ctx := context.Background()
	for i, bad := range []string{`{"v":1,"id":"2","rev":`, `{"v":99,"id":"2","rev":1}`} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			s := open(t)
			for _, ch := range []string{"c1", "c", "c3"} { // 2 in channel c
				if err := s.PutTournament(ctx, newTour(ch)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := cli.Put(ctx, "/"+t.Name()+"/t/0000000000000002", bad); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Tournament(ctx, "2"); !errors.Is(err, sessions.ErrDamaged) {
				t.Fatalf("Tournament(2): %v, want ErrDamaged", err)
			}
			over := newTour("c")
			over.ID, over.Rev = "2", 2
			if err := s.PutTournament(ctx, over); !errors.Is(err, sessions.ErrDamaged) {
				t.Fatalf("writing over the damaged tournament: %v, want ErrDamaged", err)
			}
			k := sessions.Key{Platform: "test", Channel: "g"}
			r := &sessions.Record{V: sessions.RecordVersion, Key: k, Game: "count", Seats: []sessions.User{ann, bob},
				Result: &sessions.Result{Winner: 0, Reason: "resigned", Ended: tourT0}, Tour: &sessions.TourRef{ID: "2", Round: 1}}
			if err := s.Commit(ctx, &sessions.Change{Key: k, Finished: r, Tournament: over}); !errors.Is(err, sessions.ErrDamaged) {
				t.Fatalf("a game's end with the damaged tournament: %v, want ErrDamaged", err)
			}
			if _, err := s.Finished(ctx, "1"); !errors.Is(err, sessions.ErrNotFound) {
				t.Fatalf("the game of the failed change: %v, want ErrNotFound", err)
			}
			active, err := s.ActiveTournaments(ctx)
			if !errors.Is(err, sessions.ErrDamaged) || len(active) != 2 || active[0].ID != "3" || active[1].ID != "1" {
				t.Fatalf("ActiveTournaments: %d, %v; want 3 and 1 with ErrDamaged", len(active), err)
			}
			if _, err := s.TournamentsAt(ctx, sessions.Key{Platform: "test", Channel: "c"}, 0); !errors.Is(err, sessions.ErrDamaged) {
				t.Fatalf("TournamentsAt: %v, want ErrDamaged", err)
			}
		})
	}
}

// TestTournamentCounterBehind: with the tournament counter lost (keys
// written by hand), a new tournament does not overwrite tournament 1: the
// write fails as damage and tournament 1 is intact.
func TestTournamentCounterBehind(t *testing.T) {
	ctx := context.Background()
	s := open(t)
	first := newTour("c")
	if err := s.PutTournament(ctx, first); err != nil {
		t.Fatal(err)
	}
	if _, err := cli.Delete(ctx, "/"+t.Name()+"/meta/next-tournament"); err != nil {
		t.Fatal(err)
	}
	if err := s.PutTournament(ctx, newTour("other")); !errors.Is(err, sessions.ErrDamaged) {
		t.Fatalf("a new tournament with the counter lost: %v, want ErrDamaged", err)
	}
	got, err := s.Tournament(ctx, first.ID)
	if err != nil || got.Key != first.Key {
		t.Fatalf("tournament %s after the refused write: %+v, %v", first.ID, got, err)
	}
}
