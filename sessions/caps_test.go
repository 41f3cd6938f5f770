package sessions_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/bolt"
)

// capsService is a service on store with the default caps (10 open
// challenges, 3 games against the computer, 2 tournaments), a clock that
// moves a minute per call (so that newer sessions are newer) and the
// first legal move as the computer.
func capsService(store sessions.Store) *sessions.Service {
	var mu sync.Mutex
	t := time.Date(2026, 5, 6, 7, 0, 0, 0, time.UTC)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Minute)
		return t
	}
	return sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }, Now: now,
		Computer: &firstMove{}, Caps: sessions.DefaultCaps(), Places: sessions.PlaceSet{"test": &fakePlaces{}}})
}

func at(ch string) sessions.Key { return sessions.Key{Platform: "test", Channel: ch} }

// open opens a challenge (or, computer, a game against the computer) of
// count by u at ch.
func open(s *sessions.Service, u sessions.User, ch string, computer bool) error {
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	_, err := s.Challenge(ctx, sessions.Request{Key: at(ch), User: u},
		sessions.ChallengeSpec{Game: "count", Options: map[string]string{"target": "1000"}, Computer: computer, Play: p})
	return err
}

// capped returns the cap err refused, nil when it is no ErrCapped.
func capped(err error) *sessions.Capped {
	var c *sessions.Capped
	if !errors.Is(err, sessions.ErrCapped) || !errors.As(err, &c) {
		return nil
	}
	return c
}

func liveCount(t *testing.T, store sessions.Store) int {
	t.Helper()
	live, err := store.Live(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return len(live)
}

// TestCaps: the 11th open challenge and the 4th game against the computer
// of one user are refused, saying the count, the cap and where the others
// are, newest first; nothing is stored. Other users, the other kind and a
// freed place are not held back.
func TestCaps(t *testing.T) {
	for _, c := range []struct {
		name     string
		computer bool
		cap      sessions.CapKind
		most     int
	}{
		{"challenges", false, sessions.CapChallenges, 10},
		{"computer games", true, sessions.CapComputerGames, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := sessionstest.NewMemoryStore()
			s := capsService(store)
			defer s.Close()
			var keys []sessions.Key
			for i := range c.most {
				ch := fmt.Sprint("c", i)
				if err := open(s, alice, ch, c.computer); err != nil {
					t.Fatalf("%s %d of %d: %v", c.name, i+1, c.most, err)
				}
				keys = append([]sessions.Key{at(ch)}, keys...)
			}
			err := open(s, alice, "over", c.computer)
			got := capped(err)
			if got == nil {
				t.Fatalf("one past the cap: %v, want ErrCapped", err)
			}
			want := &sessions.Capped{Cap: c.cap, Count: c.most, Max: c.most, Keys: keys}
			if got.Cap != want.Cap || got.Count != want.Count || got.Max != want.Max || !slices.Equal(got.Keys, want.Keys) {
				t.Errorf("refusal %+v, want %+v", got, want)
			}
			if _, err := s.Look(ctx, at("over")); !errors.Is(err, sessions.ErrNoGame) {
				t.Errorf("after the refusal the place holds a session: %v", err)
			}
			if n := liveCount(t, store); n != c.most {
				t.Errorf("%d live sessions stored, want %d", n, c.most)
			}
			// bob is not alice; the other kind has its own cap.
			if err := open(s, bob, "bob", c.computer); err != nil {
				t.Errorf("bob: %v", err)
			}
			if err := open(s, alice, "other kind", !c.computer); err != nil {
				t.Errorf("alice, the other kind: %v", err)
			}
			// One of hers ends: she may open one more, and only one.
			if c.computer {
				must(t)(s.Resign(ctx, sessions.Request{Key: keys[0], User: alice}))
			} else {
				must(t)(s.Cancel(ctx, sessions.Request{Key: keys[0], User: alice}))
			}
			if err := open(s, alice, "over", c.computer); err != nil {
				t.Errorf("after one ended: %v", err)
			}
			if err := open(s, alice, "over again", c.computer); capped(err) == nil {
				t.Errorf("at the cap again: %v, want ErrCapped", err)
			}
		})
	}
}

// TestCapRematch: a rematch against the computer is a new game against
// it, held to the same cap.
func TestCapRematch(t *testing.T) {
	s := capsService(sessionstest.NewMemoryStore())
	defer s.Close()
	for _, ch := range []string{"a", "b", "c"} {
		if err := open(s, alice, ch, true); err != nil {
			t.Fatal(err)
		}
	}
	must(t)(s.Resign(ctx, sessions.Request{Key: at("a"), User: alice}))
	if err := open(s, alice, "d", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Rematch(ctx, sessions.Request{Key: at("a"), User: alice}); capped(err) == nil {
		t.Fatalf("a 4th game by /rematch: %v, want ErrCapped", err)
	}
	if _, err := s.Look(ctx, at("a")); !errors.Is(err, sessions.ErrNoGame) {
		t.Errorf("the refused rematch left a session: %v", err)
	}
}

// TestCapsAfterRestart: the counts come from the store, so a restarted
// bot (a new service on the same bbolt file) still refuses the 11th.
func TestCapsAfterRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "caps.db")
	store, err := bolt.Open(path, bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	s := capsService(store)
	for i := range 10 {
		if err := open(s, alice, fmt.Sprint("c", i), false); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	store.Close()
	store, err = bolt.Open(path, bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s = capsService(store)
	defer s.Close()
	if err := open(s, alice, "over", false); capped(err) == nil {
		t.Fatalf("the 11th challenge after a restart: %v, want ErrCapped", err)
	}
}

// TestCapsAtOnce: one user's 40 challenges sent at once to 40 places
// (a script; every chat has its own lane) open exactly 10.
func TestCapsAtOnce(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	s := capsService(store)
	defer s.Close()
	var wg sync.WaitGroup
	var mu sync.Mutex
	opened, refused := 0, 0
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := open(s, alice, fmt.Sprint("c", i), false)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				opened++
			case capped(err) != nil:
				refused++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if opened != 10 || refused != 30 || liveCount(t, store) != 10 {
		t.Errorf("%d opened, %d refused, %d stored; want 10, 30, 10", opened, refused, liveCount(t, store))
	}
}

// TestCapTournaments: a third tournament organised by one user while two
// are open is refused with their ids; nothing is stored.
func TestCapTournaments(t *testing.T) {
	store := sessionstest.NewMemoryStore()
	s := capsService(store)
	defer s.Close()
	newTour := func(u sessions.User, ch string) error {
		_, err := s.NewTournament(ctx, sessions.Request{Key: at(ch), User: u}, sessions.TournamentSpec{Game: "count", Play: sessions.DefaultPlayOptions()})
		return err
	}
	var ids []string
	for _, ch := range []string{"t1", "t2"} {
		if err := newTour(alice, ch); err != nil {
			t.Fatal(err)
		}
		ev, err := s.TournamentHere(ctx, at(ch))
		if err != nil {
			t.Fatal(err)
		}
		ids = append([]string{ev.Tournament.ID}, ids...)
	}
	err := newTour(alice, "t3")
	got := capped(err)
	if got == nil || got.Cap != sessions.CapTournaments || got.Count != 2 || got.Max != 2 || !slices.Equal(got.Tournaments, ids) {
		t.Fatalf("a third tournament: %v (%+v), want ErrCapped with %v", err, got, ids)
	}
	if active, _ := store.ActiveTournaments(ctx); len(active) != 2 {
		t.Errorf("%d active tournaments stored, want 2", len(active))
	}
	if err := newTour(bob, "t3"); err != nil {
		t.Errorf("bob's: %v", err)
	}
	if _, err := s.CancelTournament(ctx, sessions.Request{Key: at("t1"), User: alice}); err != nil {
		t.Fatal(err)
	}
	if err := newTour(alice, "t4"); err != nil {
		t.Errorf("after one was cancelled: %v", err)
	}
}

// TestUserKey: a user's key is their id on the platform, or their name
// when they have none, compared as User.Is compares names.
func TestUserKey(t *testing.T) {
	for _, c := range []struct {
		platform string
		a, b     sessions.User
		same     bool
	}{
		{"tg", sessions.User{ID: "1", Name: "Alice"}, sessions.User{ID: "1", Name: "al"}, true},
		{"tg", sessions.User{ID: "1"}, sessions.User{ID: "2"}, false},
		{"console", sessions.User{Name: "Alice"}, sessions.User{Name: "@alice"}, true},
		{"console", sessions.User{Name: "alice"}, sessions.User{Name: "bob"}, false},
		{"console", sessions.User{ID: "alice"}, sessions.User{Name: "alice"}, false},
	} {
		if got := c.a.Key(c.platform) == c.b.Key(c.platform); got != c.same {
			t.Errorf("%+v and %+v on %s: same key %v, want %v", c.a, c.b, c.platform, got, c.same)
		}
	}
	if u := (sessions.User{ID: "1"}); u.Key("tg") == u.Key("discord") {
		t.Error("one key on two platforms")
	}
}
