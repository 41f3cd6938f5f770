package bolt_test

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// telegramGroups names the community of a Telegram game of an older bot,
// as the bot does (telegram.Community): a group's chat id is negative.
func telegramGroups(k sessions.Key) string {
	if k.Platform == "telegram" && strings.HasPrefix(k.Channel, "-") {
		return k.Channel
	}
	return ""
}

// copyV2 copies testdata/v2.db (written by the bot before the rating
// history and community ladders: mkv2.go) and returns the copy's path.
func copyV2(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.db")
	if err := scaleCopyFile(path, filepath.Join("testdata", "v2.db")); err != nil {
		t.Fatal(err)
	}
	return path
}

// ladderIDs returns the user ids of a ladder, best first.
func ladderIDs(t *testing.T, s sessions.Store, platform, community, game, period string) []string {
	t.Helper()
	l, err := s.Top(ctx, sessions.TopQuery{Platform: platform, Community: community, Game: game, Period: period})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range l.Rows {
		ids = append(ids, r.User.ID)
	}
	if l.Players != len(ids) {
		t.Fatalf("ladder %s %s %s %s: %d players, %d rows", platform, community, game, period, l.Players, len(ids))
	}
	return ids
}

// TestMigrateRatingHistory opens a database written before the rating
// history (testdata/v2.db): the history of every player is built from
// the finished games, entry for entry what the games' rating changes say,
// and the community ladders of the Telegram groups hold the players of
// their rated games, all-time and by month, rows at their ratings; a game
// finished after that goes on the ladders, and opening the file again
// builds nothing twice. Opened read-only first (bot migrate), the file is
// refused until a bot has opened it.
func TestMigrateRatingHistory(t *testing.T) {
	path := copyV2(t)
	if _, err := bolt.Open(path, bolt.Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "start this bot on it once") {
		t.Fatalf("read-only open of a file without the rating history: %v", err)
	}
	s := open2(t, path, telegramGroups)
	// Every entry is what its game's rating changes say.
	for _, c := range []struct {
		platform, user string
		games          []string
	}{
		{"telegram", "11", []string{"1", "3"}}, // alice: a win in -1001 (October), a draw in -2002
		{"telegram", "22", []string{"1", "2", "4"}},
		{"telegram", "33", []string{"2"}},
		{"telegram", "44", []string{"3", "4"}},
		{"discord", "11", []string{"7"}},
		{"console", "44", []string{"8"}},
	} {
		h, err := s.RatingHistory(ctx, c.platform, c.user, "")
		if err != nil {
			t.Fatal(err)
		}
		var want []sessions.RatedGame
		for _, id := range c.games {
			rec, err := s.Finished(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			rec.Community = telegramGroups(rec.Key)
			for _, g := range sessions.RatedGamesOf(rec) {
				if g.User.ID == c.user {
					want = append(want, g)
				}
			}
		}
		if !reflect.DeepEqual(h, want) {
			t.Fatalf("%s user %s:\n got %+v\nwant %+v", c.platform, c.user, h, want)
		}
	}
	// The groups' ladders: -1001 had alice-bob (October) and bob-carol
	// (November, in a topic); its short and unrated games count for
	// nothing. Ranked by rating: alice 1015 (then a draw: 1014), ...
	for _, c := range []struct {
		community, period string
		want              []string
	}{
		{"-1001", sessions.AllTime, []string{"11", "22", "33"}},
		{"-1001", "2026-10", []string{"11", "22"}},
		{"-1001", "2026-11", []string{"22", "33"}},
		{"-2002", sessions.AllTime, []string{"44", "11", "22"}},
		{"-2002", "2026-11", []string{"44", "11", "22"}},
	} {
		got := ladderIDs(t, s, "telegram", c.community, "spanish", c.period)
		all := ladderIDs(t, s, "telegram", "", "spanish", c.period)
		var want []string // the platform's ladder, its members only
		for _, id := range all {
			if slices.Contains(c.want, id) {
				want = append(want, id)
			}
		}
		if !slices.Equal(got, want) || len(got) != len(c.want) {
			t.Fatalf("ladder of %s %s: %v, want %v (the platform's: %v)", c.community, c.period, got, want, all)
		}
	}
	if got := ladderIDs(t, s, "discord", "chan1", "dame", sessions.AllTime); len(got) != 0 {
		t.Fatalf("a Discord channel's ladder: %v (an older bot's records do not name the server)", got)
	}
	// A game after the upgrade, in the group -1001: dave joins its ladder.
	svc := sessions.New(sessions.Config{Store: s, Rand: func(int) int { return 0 }})
	playToResign(t, svc, sessions.Request{Key: sessions.Key{Platform: "telegram", Channel: "-1001", Thread: "9"}, User: sessions.User{ID: "44", Name: "dave"}, Community: "-1001"},
		sessions.User{ID: "33", Name: "carol"})
	svc.Close()
	if got := ladderIDs(t, s, "telegram", "-1001", "spanish", sessions.AllTime); !slices.Contains(got, "44") || len(got) != 4 {
		t.Fatalf("-1001 after dave's game there: %v", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open2(t, path, telegramGroups)
	defer s.Close()
	if h, err := s.RatingHistory(ctx, "telegram", "22", ""); err != nil || len(h) != 3 {
		t.Fatalf("bob's history after opening again: %d entries, %v", len(h), err)
	}
	if h, err := s.RatingHistory(ctx, "telegram", "44", ""); err != nil || len(h) != 3 {
		t.Fatalf("dave's history after his new game: %d entries, %v", len(h), err)
	}
	if got := ladderIDs(t, s, "telegram", "-1001", "spanish", sessions.AllTime); len(got) != 4 {
		t.Fatalf("-1001 after opening again: %v", got)
	}
	if _, err := bolt.Open(path, bolt.Options{ReadOnly: true}); !errors.Is(err, bolt.ErrLocked) {
		t.Fatalf("read-only open while open: %v", err)
	}
}

// TestMigrateRatingHistoryNoCommunity: without a way to name an older
// game's community, the history is built and no community ladder is.
func TestMigrateRatingHistoryNoCommunity(t *testing.T) {
	s := open2(t, copyV2(t), nil)
	defer s.Close()
	if h, err := s.RatingHistory(ctx, "telegram", "22", "spanish"); err != nil || len(h) != 3 {
		t.Fatalf("bob's history: %d entries, %v", len(h), err)
	}
	if got := ladderIDs(t, s, "telegram", "-1001", "spanish", sessions.AllTime); len(got) != 0 {
		t.Fatalf("-1001: %v", got)
	}
}

func open2(t *testing.T, path string, community func(sessions.Key) string) *bolt.Store {
	t.Helper()
	s, err := bolt.Open(path, bolt.Options{NoSync: true, Community: community})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// playToResign plays a Spanish game at req.Key between req.User (White)
// and b until each side made 11 moves, then b resigns: a rated win.
func playToResign(t *testing.T, svc *sessions.Service, req sessions.Request, b sessions.User) {
	t.Helper()
	p := sessions.DefaultPlayOptions()
	p.Color = sessions.ColorWhite
	if _, err := svc.Challenge(ctx, req, sessions.ChallengeSpec{Game: "spanish", Invited: []sessions.User{b}, Play: p}); err != nil {
		t.Fatal(err)
	}
	other := req
	other.User = b
	if _, err := svc.Accept(ctx, other); err != nil {
		t.Fatal(err)
	}
	for range 22 {
		snap, err := svc.Look(ctx, req.Key)
		if err != nil {
			t.Fatal(err)
		}
		mover := req
		mover.User = snap.Player(snap.Turn())
		var played bool
		for _, m := range snap.State.Moves() {
			if next, _, err := snap.State.Play(m.Text); err == nil && !next.Outcome().Over {
				if _, err := svc.Move(ctx, mover, m.Text); err != nil {
					t.Fatal(err)
				}
				played = true
				break
			}
		}
		if !played {
			t.Fatal("every move ends the game")
		}
	}
	if _, err := svc.Resign(ctx, other); err != nil {
		t.Fatal(err)
	}
}
