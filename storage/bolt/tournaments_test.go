package bolt_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/tournament"
	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/boardgamebot/bot/storage/dump"
	"go.etcd.io/bbolt"
)

// tour is a running tournament of alice and bob opened in channel ch,
// round 1 paired with boards games, not yet stored.
func tour(ch string, boards int) *sessions.Tournament {
	t := &sessions.Tournament{V: sessions.TournamentVersion, Rev: 1, Key: key(ch), Organiser: alice, Game: "damas",
		Play: sessions.PlayOptions{Time: sessions.Duration(time.Hour), Rated: true}, Format: sessions.FormatSwiss, Rounds: 3,
		Status: sessions.StatusRunning, Players: []sessions.Entrant{{User: alice}, {User: bob}}, Created: t0, Started: t0}
	r := sessions.TourRound{Number: 1}
	for i := range boards {
		r.Games = append(r.Games, sessions.TourGame{White: alice.ID, Black: bob.ID, Key: key(fmt.Sprint(ch, "-", i))})
	}
	t.Played = []sessions.TourRound{r}
	return t
}

func putTour(t *testing.T, s *bolt.Store, tr *sessions.Tournament) {
	t.Helper()
	if err := s.PutTournament(ctx, tr); err != nil {
		t.Fatalf("PutTournament %q: %v", tr.ID, err)
	}
}

// TestTournamentsReopen: tournaments, their indexes and their sequence
// are in the file: after closing and opening it, each reads as written,
// the active ones and a channel's are found, and a new one takes the
// next id.
func TestTournamentsReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	var want []*sessions.Tournament
	for i := range 3 {
		tr := tour("c", 2)
		if i == 1 {
			tr.Key = key("other")
		}
		putTour(t, s, tr)
		want = append(want, tr)
		if i == 0 {
			// It ends before the third opens in its channel.
			tr.Status, tr.Rev = sessions.StatusFinished, 2
			putTour(t, s, tr)
		}
	}
	s.Close()

	s = open(t, path)
	defer s.Close()
	for _, w := range want {
		got, err := s.Tournament(ctx, w.ID)
		if err != nil || !reflect.DeepEqual(got, w) {
			t.Fatalf("tournament %s after reopening:\n got %+v, %v\nwant %+v", w.ID, got, err, w)
		}
	}
	active, err := s.ActiveTournaments(ctx)
	if err != nil || len(active) != 2 || active[0].ID != "3" || active[1].ID != "2" {
		t.Fatalf("active tournaments after reopening: %v, %v; want 3, 2", active, err)
	}
	at, err := s.TournamentsAt(ctx, key("c"), 5)
	if err != nil || len(at) != 2 || at[0].ID != "3" || at[1].ID != "1" {
		t.Fatalf("tournaments of channel c after reopening: %v, %v; want 3, 1", at, err)
	}
	next := tour("c", 0)
	if err := s.PutTournament(ctx, next); !errors.Is(err, sessions.ErrTournamentOpen) {
		t.Fatalf("a second active tournament in channel c after reopening: %v, want ErrTournamentOpen", err)
	}
	next.Key = key("d")
	putTour(t, s, next)
	if next.ID != "4" {
		t.Fatalf("a new tournament after reopening: id %q, want 4", next.ID)
	}
}

// TestTourOpenFilled: a file with tournaments written before the unique
// index of a channel's active tournament (bucket tour_open) gets it
// filled when opened: a second tournament in a channel with an active
// one is refused, one in a channel whose tournament ended is not.
func TestTourOpenFilled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	running, ended := tour("c", 1), tour("e", 1)
	putTour(t, s, running)
	putTour(t, s, ended)
	ended.Status, ended.Rev = sessions.StatusFinished, 2
	putTour(t, s, ended)
	s.Close()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bbolt.Tx) error { return tx.DeleteBucket([]byte("tour_open")) }); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s = open(t, path)
	defer s.Close()
	if err := s.PutTournament(ctx, tour("c", 0)); !errors.Is(err, sessions.ErrTournamentOpen) {
		t.Fatalf("a second active tournament in channel c: %v, want ErrTournamentOpen", err)
	}
	putTour(t, s, tour("e", 0))
	running.Status, running.Rev = sessions.StatusCancelled, 2
	putTour(t, s, running)
	putTour(t, s, tour("c", 0))
}

// TestTournamentsInOldFile: a database of schema 2 written before
// tournaments (no tournament buckets) opens as it is: its games are
// there, and tournaments are stored in it from then on.
func TestTournamentsInOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	fin := fullRecord(key("done"))
	fin.Result = &sessions.Result{Winner: 0, Reason: "resigned", Ended: t0}
	if err := s.Commit(ctx, &sessions.Change{Key: fin.Key, Finished: fin}); err != nil {
		t.Fatal(err)
	}
	live := fullRecord(key("live"))
	if err := s.Commit(ctx, &sessions.Change{Key: live.Key, Live: live.Clone()}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		for _, b := range []string{"tournaments", "tour_active", "tour_by_channel"} {
			if err := tx.DeleteBucket([]byte(b)); err != nil {
				return fmt.Errorf("bucket %s: %w", b, err)
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	s = open(t, path)
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Finished(ctx, fin.ID); err != nil {
		t.Fatalf("the old finished game: %v", err)
	}
	if got, err := s.Load(ctx, live.Key); err != nil || !reflect.DeepEqual(got, live) {
		t.Fatalf("the old live game: %+v, %v", got, err)
	}
	if active, err := s.ActiveTournaments(ctx); err != nil || len(active) != 0 {
		t.Fatalf("active tournaments of an old file: %v, %v", active, err)
	}
	tr := tour("c", 1)
	putTour(t, s, tr)
	if got, err := s.Tournament(ctx, tr.ID); err != nil || tr.ID != "1" || !reflect.DeepEqual(got, tr) {
		t.Fatalf("a tournament in the old file: %+v, %v", got, err)
	}
}

// TestDamagedTournament: a tournament record that does not decode (or of
// a newer version) fails its reads and writes with ErrDamaged and is not
// overwritten; the other tournaments are still read, ActiveTournaments
// with ErrDamaged; a change carrying it commits nothing; Export (bot
// migrate) refuses it.
func TestDamagedTournament(t *testing.T) {
	for _, bad := range []string{`{"v":1,"id":"2","rev":`, `{"v":99,"id":"2","rev":1}`} {
		t.Run(bad, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.db")
			s := open(t, path)
			for i := range 3 {
				tr := tour("c", 1) // 2 and 3 in channel c, 3 ended
				switch i {
				case 0:
					tr.Key = key("c1")
				case 2:
					tr.Status = sessions.StatusFinished
				}
				putTour(t, s, tr)
			}
			s.Close()
			db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Update(func(tx *bbolt.Tx) error {
				return tx.Bucket([]byte("tournaments")).Put([]byte{0, 0, 0, 0, 0, 0, 0, 2}, []byte(bad))
			}); err != nil {
				t.Fatal(err)
			}
			db.Close()

			s = open(t, path)
			defer s.Close()
			if _, err := s.Tournament(ctx, "2"); !errors.Is(err, sessions.ErrDamaged) {
				t.Fatalf("Tournament(2): %v, want ErrDamaged", err)
			}
			over := tour("c", 1)
			over.ID, over.Rev = "2", 2
			if err := s.PutTournament(ctx, over); !errors.Is(err, sessions.ErrDamaged) {
				t.Fatalf("writing over the damaged tournament: %v, want ErrDamaged", err)
			}
			r := fullRecord(key("g"))
			r.Result = &sessions.Result{Winner: 0, Reason: "resigned", Ended: t0}
			r.Tour = &sessions.TourRef{ID: "2", Round: 1}
			if err := s.Commit(ctx, &sessions.Change{Key: r.Key, Finished: r, Tournament: over}); !errors.Is(err, sessions.ErrDamaged) {
				t.Fatalf("a game's end with the damaged tournament: %v, want ErrDamaged", err)
			}
			if _, err := s.Finished(ctx, "1"); !errors.Is(err, sessions.ErrNotFound) {
				t.Fatalf("the game of the failed change: %v, want ErrNotFound", err)
			}
			active, err := s.ActiveTournaments(ctx)
			if !errors.Is(err, sessions.ErrDamaged) || len(active) != 1 || active[0].ID != "1" {
				t.Fatalf("ActiveTournaments: %d, %v; want 1 with ErrDamaged", len(active), err)
			}
			if _, err := s.TournamentsAt(ctx, key("c"), 0); !errors.Is(err, sessions.ErrDamaged) {
				t.Fatalf("TournamentsAt: %v, want ErrDamaged", err)
			}
			if got, err := s.TournamentsAt(ctx, key("c"), 1); err != nil || len(got) != 1 || got[0].ID != "3" {
				t.Fatalf("the newest tournament of the channel: %v, %v", got, err)
			}
			// bot migrate copies nothing of it.
			if _, err := dump.TallyOf(ctx, s); !errors.Is(err, sessions.ErrDamaged) || !strings.Contains(err.Error(), "tournament 2") {
				t.Fatalf("Export: %v, want ErrDamaged naming tournament 2", err)
			}
		})
	}
}

// TestTournamentCrash runs a child process that ends tournament games,
// each change a finished game with its result in the tournament, four
// tournaments at once, and prints each acknowledgement; the test kills
// it with SIGKILL in the middle. Then every acknowledged result is in
// the file, and every game's end is whole: a finished game and its
// result (with its id) are both there or neither.
func TestTournamentCrash(t *testing.T) {
	if path := os.Getenv("STORAGE_TOUR_CRASH_CHILD"); path != "" {
		tourCrashChild(path)
		return
	}
	path := filepath.Join(t.TempDir(), "bot.db")
	acked := killAfterAcks(t, "TestTournamentCrash", "STORAGE_TOUR_CRASH_CHILD", path, 200) // tournament id -> boards acknowledged
	s, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatalf("reopening after the crash: %v", err)
	}
	defer s.Close()
	if err := s.Check(); err != nil {
		t.Fatalf("consistency check: %v", err)
	}
	games := 0
	for id := 1; id <= 4; id++ {
		tr, err := s.Tournament(ctx, strconv.Itoa(id))
		if err != nil {
			t.Fatalf("tournament %d: %v", id, err)
		}
		done := 0
		for b, g := range tr.Played[0].Games {
			hist, err := s.History(ctx, sessions.HistoryQuery{Key: g.Key})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case g.Result == tournament.Pending && g.GameID == "" && len(hist) == 0:
				continue
			case g.Result != tournament.WhiteWins || len(hist) != 1 || g.GameID != hist[0].ID ||
				hist[0].Tour == nil || hist[0].Tour.ID != tr.ID || hist[0].Tour.Board != b:
				t.Fatalf("tournament %d board %d: result %q, game %q; history %v", id, b, g.Result, g.GameID, hist)
			}
			done++
			games++
		}
		if int64(done)+1 != tr.Rev || done < acked[tr.ID] {
			t.Fatalf("tournament %d at rev %d: %d results, %d acknowledged", id, tr.Rev, done, acked[tr.ID])
		}
	}
	if h, err := s.History(ctx, sessions.HistoryQuery{Platform: "test", User: alice.ID}); err != nil || len(h) != games {
		t.Fatalf("alice's history: %d games, %v; the tournaments hold %d", len(h), err, games)
	}
	t.Logf("acknowledged before the kill: %v", acked)
}

func tourCrashChild(path string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		fail(err)
	}
	const boards = 200 // 800 games in all; the test kills the child after 200
	var tours []*sessions.Tournament
	for i := range 4 {
		tr := tour(fmt.Sprint("t", i), boards)
		if err := s.PutTournament(ctx, tr); err != nil {
			fail(err)
		}
		tours = append(tours, tr)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, tr := range tours {
		wg.Go(func() {
			for b := range boards {
				g := tr.Played[0].Games[b]
				r := &sessions.Record{V: sessions.RecordVersion, Key: g.Key, Game: "spanish", Seats: []sessions.User{alice, bob}, Started: t0,
					Actions: []sessions.Action{{Kind: sessions.ActMove, Text: "1", At: t0}},
					Result:  &sessions.Result{Winner: 0, Reason: "resigned", Ended: t0},
					Tour:    &sessions.TourRef{ID: tr.ID, Round: 1, Board: b}}
				next := tr.Clone()
				next.Rev++
				next.Played[0].Games[b].Result = tournament.WhiteWins
				if err := s.Commit(ctx, &sessions.Change{Key: r.Key, Finished: r, Tournament: next}); err != nil {
					fail(err)
				}
				tr = next
				mu.Lock()
				fmt.Printf("ack %s %d\n", tr.ID, b+1)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// BenchmarkActiveTournaments: start-up's read of the active tournaments
// and a channel's newest, among 10,000 tournaments that ended (through
// the indexes, not a scan of them all).
//
//	go test -run '^$' -bench BenchmarkActiveTournaments -benchtime 2000x ./storage/
func BenchmarkActiveTournaments(b *testing.B) {
	s, err := bolt.Open(filepath.Join(b.TempDir(), "bot.db"), bolt.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for i := range 10003 {
		tr := tour(fmt.Sprint("c", i%100), 4)
		if i%5000 != 0 {
			tr.Status = sessions.StatusFinished
		} else {
			tr.Key = key(fmt.Sprint("open", i)) // one active tournament a channel
		}
		if err := s.PutTournament(ctx, tr); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("active", func(b *testing.B) {
		for b.Loop() {
			if a, err := s.ActiveTournaments(ctx); err != nil || len(a) != 3 {
				b.Fatalf("%d active, %v", len(a), err)
			}
		}
	})
	b.Run("channel", func(b *testing.B) {
		for b.Loop() {
			if a, err := s.TournamentsAt(ctx, key("c7"), 1); err != nil || len(a) != 1 {
				b.Fatalf("%d, %v", len(a), err)
			}
		}
	})
}

// TestTournamentCounterBehind: a tournament sequence behind its records
// (a file pieced together by hand) never lets a new tournament overwrite
// an existing one: the write fails as damage and the old one is intact.
func TestTournamentCounterBehind(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	first := tour("c", 1)
	putTour(t, s, first)
	s.Close()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bbolt.Tx) error { return tx.Bucket([]byte("tournaments")).SetSequence(0) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = open(t, path)
	defer s.Close()
	if err := s.PutTournament(ctx, tour("other", 0)); !errors.Is(err, sessions.ErrDamaged) {
		t.Fatalf("a new tournament with the counter behind: %v, want ErrDamaged", err)
	}
	got, err := s.Tournament(ctx, first.ID)
	if err != nil || got.Key != first.Key || len(got.Played) != 1 {
		t.Fatalf("tournament %s after the refused write: %+v, %v", first.ID, got, err)
	}
}
