package etcdstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/tournament"
	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/boardgamebot/bot/storage/dump"
	"github.com/boardgamebot/bot/storage/etcdstore"
)

// bot is one store with what the bot asks of it.
type bot interface {
	sessions.Store
	dump.Exporter
	SetNotify(ctx context.Context, platform, userID string, on bool) error
	SetLang(ctx context.Context, platform, userID, lang string) error
	NotifyPrefs(ctx context.Context, platform string) (map[string]bool, error)
	Langs(ctx context.Context, platform string) (map[string]string, error)
	SaveRoute(ctx context.Context, platform, channel string, key sessions.Key) error
	Routes(ctx context.Context, platform string) (map[string]sessions.Key, error)
	sessions.LinkGenerations
}

var (
	alice = sessions.User{ID: "a", Name: "alice"}
	carol = sessions.User{ID: "c", Name: "Carol"}
)

// playRandom plays n random legal moves at key that do not end the game.
func playRandom(t testing.TB, svc *sessions.Service, key sessions.Key, n int, seed uint64) {
	t.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(seed, 1))
	for range n {
		snap, err := svc.Look(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		ms := snap.State.Moves()
		r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		i := slices.IndexFunc(ms, func(m rules.Move) bool {
			next, _, err := snap.State.Play(m.Text)
			return err == nil && !next.Outcome().Over
		})
		if i < 0 {
			t.Fatalf("%s: every move ends the game", key)
		}
		if _, err := svc.Move(ctx, sessions.Request{Key: key, User: snap.Player(snap.Turn())}, ms[i].Text); err != nil {
			t.Fatal(err)
		}
	}
}

// clockService is a Service on store whose clock ticks a second a call;
// tournament games on platform test open in threads v-g1, v-g2... of
// their tournament's channel.
func clockService(store sessions.Store) *sessions.Service {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	return sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 },
		Now:    func() time.Time { now = now.Add(time.Second); return now },
		Places: sessions.PlaceSet{"test": &places{name: "v"}}})
}

// tourGame is the game in play of tournament id's last round (not a bye).
func tourGame(t testing.TB, store sessions.Store, id string) sessions.TourGame {
	t.Helper()
	tr, err := store.Tournament(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range tr.Played[len(tr.Played)-1].Games {
		if g.Black != "" && g.Result == tournament.Pending {
			return g
		}
	}
	t.Fatalf("tournament %s has no game in play: %+v", id, tr.Played)
	return sessions.TourGame{}
}

// fill writes into store what a bot that ran a while has: games in play
// (mid-game with a clock, Ultradamas in its formation step, an open
// challenge), finished games with ratings, finished games more than
// finished (a number of rated games between three players), preferences,
// a route, and tournaments on platform test: 1 finished in channel t1,
// 2 cancelled and 3 running (its game under way) in t2, 4 in sign-up in
// t3.
func fill(t testing.TB, store bot, finished int) {
	t.Helper()
	ctx := context.Background()
	svc := clockService(store)
	defer svc.Close()
	community := "" // of the games start starts
	start := func(key sessions.Key, game string, opts map[string]string, a, b sessions.User, clock sessions.Duration) {
		t.Helper()
		p := sessions.DefaultPlayOptions()
		p.Color, p.Time = sessions.ColorWhite, clock
		if _, err := svc.Challenge(ctx, sessions.Request{Key: key, User: a, Community: community}, sessions.ChallengeSpec{Game: game, Options: opts, Invited: []sessions.User{b}, Play: p}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Accept(ctx, sessions.Request{Key: key, User: b}); err != nil {
			t.Fatal(err)
		}
	}
	players := []sessions.User{alice, bob, carol}
	for i := range finished {
		key := sessions.Key{Platform: "console", Channel: fmt.Sprint("done", i%7)}
		community = map[bool]string{true: "club"}[i%7 < 2] // community ladders
		if i%5 == 4 {
			key = sessions.Key{Platform: "discord", Channel: "chan1", Thread: fmt.Sprint("t", i)}
			community = "guild1"
		}
		a, b := players[i%3], players[(i+1)%3]
		start(key, "spanish", nil, a, b, 0)
		playRandom(t, svc, key, 22+i%5, uint64(i)) // more than MinRatedMoves each: rated
		if _, err := svc.Resign(ctx, sessions.Request{Key: key, User: []sessions.User{a, b}[i%2]}); err != nil {
			t.Fatal(err)
		}
	}
	community = ""
	start(sessions.Key{Platform: "console", Channel: "mid"}, "spanish", nil, alice, bob, sessions.Duration(24*time.Hour))
	playRandom(t, svc, sessions.Key{Platform: "console", Channel: "mid"}, 40, 99) // more than a chunk of the move logs
	start(sessions.Key{Platform: "console", Channel: "halma"}, "halma", map[string]string{"size": "10"}, bob, carol, 0)
	playRandom(t, svc, sessions.Key{Platform: "console", Channel: "halma"}, 7, 98)
	start(sessions.Key{Platform: "discord", Channel: "chan2", Thread: "th"}, "ultradamas", nil, alice, carol, 0)
	if _, err := svc.Challenge(ctx, sessions.Request{Key: sessions.Key{Platform: "telegram", Channel: "-100"}, User: carol},
		sessions.ChallengeSpec{Game: "spanish", Play: sessions.DefaultPlayOptions()}); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		store.SetNotify(ctx, "console", "b", false),
		store.SetNotify(ctx, "discord", "a", true),
		store.SetLang(ctx, "telegram", "c", "de"),
		store.SaveRoute(ctx, "discord", "thread9", sessions.Key{Platform: "discord", Channel: "chan1", Thread: "thread9"}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []string{"a", "a", "c"} {
		if _, err := store.RaiseLinkGeneration(ctx, "telegram", u); err != nil {
			t.Fatal(err)
		}
	}

	tour := func(ch string, rounds int, start bool) {
		t.Helper()
		req := func(u sessions.User) sessions.Request {
			return sessions.Request{Key: sessions.Key{Platform: "test", Channel: ch}, User: u}
		}
		spec := sessions.TournamentSpec{Game: "spanish", Play: sessions.DefaultPlayOptions(), Rounds: rounds}
		if _, err := svc.NewTournament(ctx, req(alice), spec); err != nil {
			t.Fatal(err)
		}
		for _, u := range players {
			if _, err := svc.JoinTournament(ctx, req(u)); err != nil {
				t.Fatal(err)
			}
		}
		if start {
			if _, err := svc.StartTournament(ctx, req(alice)); err != nil {
				t.Fatal(err)
			}
		}
	}
	tour("t1", 1, true)
	g := tourGame(t, store, "1")
	if _, err := svc.Resign(ctx, sessions.Request{Key: g.Key, User: sessions.User{ID: g.White}}); err != nil {
		t.Fatal(err)
	}
	tour("t2", 0, false)
	if _, err := svc.CancelTournament(ctx, sessions.Request{Key: sessions.Key{Platform: "test", Channel: "t2"}, User: alice}); err != nil {
		t.Fatal(err)
	}
	tour("t2", 2, true)
	playRandom(t, svc, tourGame(t, store, "3").Key, 3, 97)
	tour("t3", 0, false)
	for _, id := range []string{"1", "2"} { // the reviews of two games
		r := &sessions.ReviewRecord{V: 1, Game: id, Nodes: 1000, Review: ai.Review{Plies: []ai.PlyReview{{Played: "11-15", Best: "11-15", Chances: []float64{0.5, 0.5}}},
			Seats: []ai.SeatReview{{Accuracy: 100, Worst: -1}, {Accuracy: 100, Worst: -1}}}}
		if err := store.(sessions.ReviewStore).PutReview(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for id, want := range map[string]sessions.TourStatus{"1": sessions.StatusFinished, "2": sessions.StatusCancelled, "3": sessions.StatusRunning, "4": sessions.StatusSignup} {
		if tr, err := store.Tournament(ctx, id); err != nil || tr.Status != want {
			t.Fatalf("tournament %s: %v, want %s", id, err, want)
		}
	}
}

// answers are the answers of the bot's queries on a store, as JSON.
func answers(t *testing.T, s bot) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	put := func(what string, v any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out[what] = string(b)
	}
	for _, p := range []string{"console", "discord", "telegram", "test"} {
		for _, u := range []string{"a", "b", "c"} {
			h, err := s.History(ctx, sessions.HistoryQuery{Platform: p, User: u})
			put("history of "+p+" "+u, h, err)
			h, err = s.History(ctx, sessions.HistoryQuery{Platform: p, User: u, Limit: 3, Game: "spanish"})
			put("last 3 of "+p+" "+u, h, err)
			st, err := s.Standings(ctx, p, u, "")
			put("standings of "+p+" "+u, st, err)
			for _, period := range []string{sessions.AllTime, "2026-11"} {
				for _, c := range []string{"", "club", "guild1"} {
					l, err := s.Top(ctx, sessions.TopQuery{Platform: p, Community: c, Game: "spanish", Period: period, User: u, Limit: 10})
					put("top "+p+" "+c+" "+period+" for "+u, l, err)
				}
			}
			rh, err := s.RatingHistory(ctx, p, u, "")
			put("rating history of "+p+" "+u, rh, err)
			lg, err := s.LinkGeneration(ctx, p, u)
			put("link generation of "+p+" "+u, lg, err)
			with, err := s.History(ctx, sessions.HistoryQuery{Platform: p, User: u, With: "b", Limit: 4})
			put("history of "+p+" "+u+" with b", with, err)
		}
		np, err := s.NotifyPrefs(ctx, p)
		put("pings of "+p, np, err)
		l, err := s.Langs(ctx, p)
		put("languages of "+p, l, err)
		r, err := s.Routes(ctx, p)
		put("routes of "+p, r, err)
		u, err := s.FindUser(ctx, p, "carol")
		if err == nil {
			put("user carol on "+p, u, nil)
		}
	}
	h, err := s.History(ctx, sessions.HistoryQuery{Key: sessions.Key{Platform: "console", Channel: "done3"}})
	put("history of done3", h, err)
	live, err := s.Live(ctx)
	slices.SortFunc(live, func(a, b *sessions.Record) int { return strings.Compare(a.Key.String(), b.Key.String()) })
	put("live", live, err)
	idx, err := s.LiveIndex(ctx)
	slices.SortFunc(idx, func(a, b sessions.LiveEntry) int { return strings.Compare(a.Key.String(), b.Key.String()) })
	put("live index", idx, err)
	for _, k := range []sessions.Key{{Platform: "console", Channel: "mid"}, {Platform: "discord", Channel: "chan2", Thread: "th"}} {
		r, err := s.Load(ctx, k)
		put("load "+k.String(), r, err)
	}
	for _, id := range []string{"1", "12", "25", "26"} {
		g, err := s.Finished(ctx, id)
		put("game "+id, g, err)
	}
	for _, id := range []string{"1", "2", "3", "4"} {
		tr, err := s.Tournament(ctx, id)
		put("tournament "+id, tr, err)
	}
	rv, err := s.(sessions.ReviewStore).Review(ctx, "2")
	put("review of game 2", rv, err)
	act, err := s.ActiveTournaments(ctx)
	put("active tournaments", act, err)
	for _, ch := range []string{"t1", "t2", "t3"} {
		at, err := s.TournamentsAt(ctx, sessions.Key{Platform: "test", Channel: ch}, 0)
		put("tournaments of "+ch, at, err)
	}
	return out
}

func tally(t *testing.T, s dump.Exporter) *dump.Tally {
	t.Helper()
	tl, err := dump.TallyOf(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// TestMigrateRoundTrip copies a bbolt database into etcd and back into a
// new bbolt file: every record of each copy equals the source's, the
// queries of the bot (history, ladders, standings, live sessions with
// their moves, names, preferences, routes, tournaments) answer the same
// on all three, and the games go on in each copy: the same next move
// gives the same game, a new finished game takes the next id, the end of
// a tournament's game pairs its next round the same; a new tournament
// takes the next id, and a second active one in a channel is refused.
func TestMigrateRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src, err := bolt.Open(filepath.Join(dir, "src.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	fill(t, src, 25)
	want := answers(t, src)

	e := open(t)
	copied, err := dump.Copy(ctx, src, e)
	if err != nil {
		t.Fatal(err)
	}
	back, err := bolt.Open(filepath.Join(dir, "back.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if _, err := dump.Copy(ctx, e, back); err != nil {
		t.Fatal(err)
	}
	for _, kind := range dump.Kinds() {
		if copied.Count[kind] == 0 {
			t.Errorf("the source has no %s: the test copies nothing of that kind", kind)
		}
	}
	t.Logf("copied %v", copied.Count)
	for name, s := range map[string]bot{"etcd": e, "bbolt after etcd": back} {
		if err := copied.Diff(tally(t, s)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		got := answers(t, s)
		for q, w := range want {
			if got[q] != w {
				t.Errorf("%s: %s:\n got %s\nwant %s", name, q, got[q], w)
			}
		}
	}

	// The index of live sessions by user is built again in each copy.
	liveOf := func(s bot, p, u string) []sessions.Key {
		t.Helper()
		recs, err := s.LiveOf(ctx, p, u)
		if err != nil {
			t.Fatalf("LiveOf %s %s: %v", p, u, err)
		}
		var keys []sessions.Key
		for _, r := range recs {
			keys = append(keys, r.Key)
		}
		slices.SortFunc(keys, func(a, b sessions.Key) int { return strings.Compare(a.String(), b.String()) })
		return keys
	}
	for _, p := range []string{"console", "discord", "telegram"} {
		for _, u := range []string{"a", "b", "c"} {
			w := liveOf(src, p, u)
			if len(w) == 0 && p == "console" {
				t.Errorf("live sessions of %s %s: none in the source", p, u)
			}
			for name, s := range map[string]bot{"etcd": e, "bbolt after etcd": back} {
				if g := liveOf(s, p, u); !slices.Equal(w, g) {
					t.Errorf("live sessions of %s %s: %v in %s; %v in the source", p, u, g, name, w)
				}
			}
		}
	}

	// The games go on, the same in each copy.
	mid := sessions.Key{Platform: "console", Channel: "mid"}
	var after []string
	for _, s := range []bot{src, e, back} {
		svc := clockService(s)
		playRandom(t, svc, mid, 1, 7)
		snap, err := svc.Look(ctx, mid)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(snap.Record.Actions); n != 41 {
			t.Fatalf("%d actions after one more move, want 41", n)
		}
		ev, err := svc.Resign(ctx, sessions.Request{Key: mid, User: bob})
		if err != nil {
			t.Fatal(err)
		}
		// The game of tournament 3 ends: round 2 is paired.
		g := tourGame(t, s, "3")
		if _, err := svc.Resign(ctx, sessions.Request{Key: g.Key, User: sessions.User{ID: g.Black}}); err != nil {
			t.Fatal(err)
		}
		tr, err := s.Tournament(ctx, "3")
		if err != nil {
			t.Fatal(err)
		}
		tj, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		after = append(after, fmt.Sprintf("%s #%s %v\n%s", snap.State.FEN(), ev.Session.Record.ID, ev.Session.Record.Ratings, tj))
		svc.Close()
	}
	if after[1] != after[0] || after[2] != after[0] {
		t.Fatalf("a move and a resignation after the copies:\n bbolt %s\n etcd %s\n back %s", after[0], after[1], after[2])
	}
	if !strings.Contains(after[0], " #27 ") || !strings.Contains(after[0], `"number":2`) || !strings.Contains(after[0], `"game_id":"28"`) {
		t.Fatalf("the next finished game and tournament 3: %s, want #27, round 2 paired after game 28", after[0])
	}

	// Tournaments: a second active one in a channel is refused by each
	// store (the index of a channel's active tournament was built
	// again), and a new one takes the next id.
	for name, s := range map[string]bot{"bbolt": src, "etcd": e, "bbolt after etcd": back} {
		newTour := func(ch string) *sessions.Tournament {
			return &sessions.Tournament{V: sessions.TournamentVersion, Rev: 1, Key: sessions.Key{Platform: "test", Channel: ch},
				Organiser: carol, Game: "spanish", Format: sessions.FormatSwiss, Rounds: 1, Status: sessions.StatusSignup, Created: time.Now().UTC()}
		}
		for _, ch := range []string{"t2", "t3"} {
			if err := s.PutTournament(ctx, newTour(ch)); !errors.Is(err, sessions.ErrTournamentOpen) {
				t.Errorf("%s: a second active tournament in channel %s: %v, want ErrTournamentOpen", name, ch, err)
			}
		}
		next := newTour("t1")
		if err := s.PutTournament(ctx, next); err != nil || next.ID != "5" {
			t.Errorf("%s: a new tournament in channel t1: id %q, %v; want 5", name, next.ID, err)
		}
	}
}

// TestImportRefusesBadItems: an item that is not what its kind says is
// refused, naming it, and nothing of its batch is written.
func TestImportRefusesBadItems(t *testing.T) {
	ctx := context.Background()
	e := open(t)
	good := dump.Item{Kind: dump.KindPrefs, ID: "console\x00a", Value: []byte(`{"v":1,"lang":"de"}`)}
	for _, bad := range []dump.Item{
		{Kind: dump.KindGame, ID: "x", Value: []byte(`{}`)},
		{Kind: dump.KindLive, ID: "console\x00mid\x00", Value: []byte(`{"v":1`)},
		{Kind: dump.KindPrefs, ID: "console", Value: []byte(`{"v":1}`)},
		{Kind: "tournaments?", ID: "1"},
		{Kind: dump.KindTournament, ID: "2", Value: []byte(`{"v":1,"id":"3","rev":1,"key":{"platform":"test","channel":"t"},"status":"signup"}`)},
		{Kind: dump.KindTournament, ID: "2", Value: []byte(`{"v":1,"id":"2","rev":1,"status":"signup"}`)},
		{Kind: dump.KindCounter, ID: "tourneys", Value: []byte("2")},
	} {
		err := e.Import(ctx, []dump.Item{good, bad})
		if err == nil || !strings.Contains(err.Error(), bad.Kind) {
			t.Errorf("%s %q: %v, want an error naming it", bad.Kind, bad.ID, err)
		}
		if n, err := e.Keys(ctx); err != nil || n != 0 {
			t.Fatalf("after a refused batch: %d keys, %v", n, err)
		}
	}
}

// TestExportRefusesDamage: a record in etcd that does not decode (or a
// tournament under another id than its own) stops Export (so bot migrate
// copies nothing from a damaged source), naming it.
func TestExportRefusesDamage(t *testing.T) {
	ctx := context.Background()
	for _, x := range []struct{ key, value, name string }{
		{"h/console\x00x\x00", "{not json", "console"},
		{"g/0000000000000001", "{not json", "games"},
		{"r/console\x00a\x00spanish\x00all", "{not json", "console"},
		{"l/console\x00spanish\x00all\x00zz\x00a", "{not json", "console"},
		{"t/0000000000000002", "{not json", "tournament 2"},
		{"t/0000000000000002", `{"v":1,"id":"1","rev":1,"key":{"platform":"test","channel":"t"},"status":"signup"}`, "tournament 2"},
		{"meta/next-tournament", "x", "tournaments"},
	} {
		t.Run(strings.ReplaceAll(x.key, "\x00", "/"), func(t *testing.T) {
			s := open(t)
			if _, err := cli.Put(ctx, "/"+t.Name()+"/"+x.key, x.value); err != nil {
				t.Fatal(err)
			}
			_, err := dump.TallyOf(ctx, s)
			if !errors.Is(err, sessions.ErrDamaged) || !strings.Contains(err.Error(), x.name) {
				t.Fatalf("Export of a damaged record: %v, want ErrDamaged naming %s", err, x.name)
			}
		})
	}
}

var _ bot = (*etcdstore.Store)(nil)

// TestImportTwoActiveInOneChannel: a source of an older bot with two
// active tournaments in one channel is copied (into etcd, in one
// transaction, and into bbolt), the newer holding the channel: once it
// ends, a new tournament opens there.
func TestImportTwoActiveInOneChannel(t *testing.T) {
	ctx := context.Background()
	var items []dump.Item
	for _, id := range []string{"1", "2"} {
		v := fmt.Sprintf(`{"v":1,"id":%q,"rev":1,"key":{"platform":"test","channel":"t"},"organiser":{"id":"a","name":"alice"},"game":"spanish","status":"signup"}`, id)
		items = append(items, dump.Item{Kind: dump.KindTournament, ID: id, Value: []byte(v)})
	}
	items = append(items, dump.Item{Kind: dump.KindCounter, ID: "tournaments", Value: []byte("2")})
	b, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for name, s := range map[string]interface {
		bot
		dump.Importer
	}{"etcd": open(t), "bbolt": b} {
		if err := s.Import(ctx, items); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		act, err := s.ActiveTournaments(ctx)
		if err != nil || len(act) != 2 {
			t.Fatalf("%s: active tournaments: %d, %v; want 2", name, len(act), err)
		}
		newTour := func() *sessions.Tournament {
			return &sessions.Tournament{V: sessions.TournamentVersion, Rev: 1, Key: sessions.Key{Platform: "test", Channel: "t"},
				Organiser: carol, Game: "spanish", Status: sessions.StatusSignup}
		}
		if err := s.PutTournament(ctx, newTour()); !errors.Is(err, sessions.ErrTournamentOpen) {
			t.Errorf("%s: a third active tournament in the channel: %v, want ErrTournamentOpen", name, err)
		}
		ended := act[0].Clone()
		ended.Rev, ended.Status = 2, sessions.StatusCancelled
		if err := s.PutTournament(ctx, ended); err != nil || ended.ID != "2" {
			t.Fatalf("%s: cancelling tournament %s: %v", name, ended.ID, err)
		}
		next := newTour()
		if err := s.PutTournament(ctx, next); err != nil || next.ID != "3" {
			t.Errorf("%s: a new tournament once the newer one ended: id %q, %v; want 3", name, next.ID, err)
		}
	}
}
