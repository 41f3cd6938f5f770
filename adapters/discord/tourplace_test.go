package discord

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// enWords returns the English catalogue.
func enWords(t *testing.T) chat.Speaker {
	t.Helper()
	w, err := chat.NewCatalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	return w.In("en")
}

// startTourAt is startTourOn with the sessions on the clock now.
func startTourAt(t *testing.T, f *fakeDiscord, store sessions.Store, now func() time.Time) *env {
	t.Helper()
	vs := sessions.PlaceSet{}
	b, svc := build(t, f, sessions.Config{Store: store, Places: vs, Now: now}, Config{GuildID: fakeGuild})
	vs[Platform] = b.Places()
	return run(t, f, b, svc)
}

// ok sends /tournament sub in ch and fails the test unless it is
// answered in public (the deferred answer edited); it returns the answer.
func (f *fakeDiscord) ok(t *testing.T, ch string, u person, sub string, opts ...opt) *fakeReq {
	t.Helper()
	from := f.mark()
	i := f.tour(t, ch, u, sub, opts...)
	q := f.answer(t, from, i)
	if !onOriginal("PATCH", i)(q) {
		t.Fatalf("%s's /tournament %s in %s refused: %q", u.name, sub, ch, content(q))
	}
	return q
}

// refusedAtOnce fails the test unless the interaction i is answered
// privately at once (an ephemeral answer, nothing posted where it came
// from); it returns the answer's text.
func (f *fakeDiscord) refusedAtOnce(t *testing.T, i map[string]any, from int) string {
	t.Helper()
	q := f.waitFor(t, from, "the answer", func(q *fakeReq) bool { return callback(i)(q) || followup(i)(q) || onOriginal("PATCH", i)(q) })
	if !callback(i)(q) || num(q.body["type"]) != 4 || flags(q)&ephemeral == 0 {
		t.Errorf("answered by %s %s (type %v, flags %d): want a private answer at once", q.method, q.path, q.body["type"], flags(q))
	}
	return content(q)
}

// whiteResigns ends the game g: its White resigns in its thread.
func (f *fakeDiscord) whiteResigns(t *testing.T, g sessions.TourGame) {
	t.Helper()
	from := f.mark()
	i := f.slash(t, g.Key.Thread, personOf(t, g.White), "resign")
	if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
		t.Fatalf("the resignation in %s refused: %q", g.Key.Thread, content(q))
	}
}

// TestTournamentThreadArchived: a tournament game's thread is archived and
// locked once its result is posted (archived only without Manage
// Threads); any command or button there later is answered privately, at
// once, and nothing is posted in the archived thread (the fake fails the
// test on such a post), also after a restart; /tournament show still
// links the thread.
func TestTournamentThreadArchived(t *testing.T) {
	for _, manage := range []bool{true, false} {
		name := "without Manage Threads"
		if manage {
			name = "with Manage Threads"
		}
		t.Run(name, func(t *testing.T) {
			f := newFakeDiscord(t)
			if manage {
				f.channels[fakeChan].perms = allPerms | 1<<34
			}
			store := sessionstest.NewMemoryStore()
			e := startTourOn(t, f, store)
			ctx := context.Background()
			en := enWords(t)
			f.ok(t, fakeChan, alice, "new", str("game", "spanish"), integer("rounds", 1))
			for _, p := range []person{alice, bob, carol} {
				f.ok(t, fakeChan, p, "join")
			}
			f.ok(t, fakeChan, alice, "start")
			ev, err := e.svc.TournamentHere(ctx, sessions.Key{Platform: Platform, Channel: fakeChan})
			if err != nil {
				t.Fatal(err)
			}
			var g sessions.TourGame
			for _, x := range ev.Tournament.Played[0].Games {
				if x.Black != "" {
					g = x
				}
			}
			board := f.waitFor(t, 0, "the board in the game's thread", posted(g.Key.Thread))
			from := f.mark()
			f.whiteResigns(t, g)
			// Locked too with Manage Threads; without, the lock refused
			// (403), archived only.
			archive := f.waitFor(t, from, "the thread archived", func(q *fakeReq) bool {
				return q.method == "PATCH" && q.path == "/channels/"+g.Key.Thread && q.body["archived"] == true && (q.body["locked"] == true) == manage
			})
			th := f.thread(g.Key.Thread)
			if !th.archived || th.locked != manage {
				t.Errorf("thread %s: archived %v, locked %v; want archived, locked %v", g.Key.Thread, th.archived, th.locked, manage)
			}
			for _, q := range f.since(from, func(q *fakeReq) bool { return posted(g.Key.Thread)(q) }) {
				if q.at.After(archive.at) {
					t.Errorf("a post in the thread after it was archived: %q", content(q))
				}
			}
			ev, _ = e.svc.TournamentHere(ctx, sessions.Key{Platform: Platform, Channel: fakeChan})
			for _, x := range ev.Tournament.Played[0].Games {
				if x.Black != "" {
					g = x
				}
			}
			want := en.T("TourPlaceClosed", "Game", g.GameID)

			// Later, in the archived thread: private answers at once.
			for _, cmd := range []string{"board", "rematch", "resign"} {
				from = f.mark()
				if got := f.refusedAtOnce(t, f.slash(t, g.Key.Thread, bob, cmd), from); got != want {
					t.Errorf("/%s in the archived thread: %q, want %q", cmd, got, want)
				}
			}
			from = f.mark()
			ids := customIDs(f.message(board.msgID))
			if got := f.refusedAtOnce(t, f.press(t, board.msgID, personOf(t, g.White), ids["Resign"]), from); got != want {
				t.Errorf("a button in the archived thread: %q, want %q", got, want)
			}

			// /tournament show links the thread with the game.
			q := f.ok(t, fakeChan, carol, "show", str("id", ev.Tournament.ID))
			if !strings.Contains(content(q), "#"+g.GameID+", in <#"+g.Key.Thread+">)") {
				t.Errorf("/tournament show %q does not link the game's thread", content(q))
			}

			// After a restart, the archived thread is still known.
			e.stop()
			e.svc.Close()
			startTourOn(t, f, store)
			from = f.mark()
			if got := f.refusedAtOnce(t, f.slash(t, g.Key.Thread, bob, "board"), from); got != want {
				t.Errorf("/board in the archived thread after a restart: %q, want %q", got, want)
			}
		})
	}
}

// TestTournamentThreadRightsLost: the bot loses Create Public Threads in
// the channel between /tournament new and start: the start's pairings
// say the games wait for their place, and a post in the channel tells the
// organiser and the players (mentioned, and allowed to be pinged) at once
// which permission is missing, Discord's only, and that the bot tries
// again; /tournament standings marks the games; once the permission is
// back, the next try opens the threads and posts them.
func TestTournamentThreadRightsLost(t *testing.T) {
	f := newFakeDiscord(t)
	clk := sessionstest.NewClock(time.Date(2026, 11, 3, 10, 0, 0, 0, time.UTC))
	e := startTourAt(t, f, sessionstest.NewMemoryStore(), clk.Now)
	ctx := context.Background()
	en := enWords(t)
	f.ok(t, fakeChan, dave, "new", str("game", "spanish"), integer("rounds", 2))
	for _, p := range []person{alice, bob, carol, erin} {
		f.ok(t, fakeChan, p, "join")
	}
	f.mu.Lock()
	f.channels[fakeChan].perms = allPerms &^ (1 << 35) // Create Public Threads taken away
	f.mu.Unlock()
	from := f.mark()
	start := f.ok(t, fakeChan, dave, "start")
	right := en.T("VenueRightCreateThreads")
	if !strings.Contains(content(start), "waiting for its place (I lack "+right+")") {
		t.Errorf("the pairings %q do not say the games wait for their place", content(start))
	}
	ev, err := e.svc.TournamentHere(ctx, sessions.Key{Platform: Platform, Channel: fakeChan})
	if err != nil {
		t.Fatal(err)
	}
	header := en.T("TourPlaceMissing", "ID", ev.Tournament.ID, "Round", 1, "Count", 2, "Right", right, "Organiser", "dave")
	told := f.waitFor(t, from, "the post that the threads could not be opened", func(q *fakeReq) bool {
		return posted(fakeChan)(q) && strings.Contains(content(q), header)
	})
	am, _ := told.body["allowed_mentions"].(map[string]any)
	users, _ := am["users"].([]any)
	for _, p := range []person{dave, alice, bob, carol, erin} {
		if !strings.Contains(content(told), "<@"+p.id+">") || !containsAny(users, p.id) {
			t.Errorf("the post %q (allowed %v) does not call %s", content(told), users, p.name)
		}
	}
	if low := strings.ToLower(content(told)); strings.Contains(low, "telegram") || strings.Contains(low, "topic") {
		t.Errorf("the post names Telegram's rights: %q", content(told))
	}
	q := f.ok(t, fakeChan, bob, "standings")
	if !strings.Contains(content(q), "waiting for its place (I lack "+right+")") {
		t.Errorf("the standings %q do not mark the games waiting", content(q))
	}

	f.mu.Lock()
	f.channels[fakeChan].perms = 0 // back to all the bot's permissions
	f.mu.Unlock()
	from = f.mark()
	clk.Add(sessions.TourRetryEvery)
	e.svc.Tick(ctx)
	ev, _ = e.svc.TournamentHere(ctx, sessions.Key{Platform: Platform, Channel: fakeChan})
	opened := f.waitFor(t, from, "the post of the threads opened", func(q *fakeReq) bool {
		return posted(fakeChan)(q) && strings.Contains(content(q), en.T("TourPlaceOpened", "ID", ev.Tournament.ID, "Round", 1, "Count", 2))
	})
	for _, g := range ev.Tournament.Played[0].Games {
		if g.Key.Thread == "" || !strings.Contains(content(opened), "<#"+g.Key.Thread+">") {
			t.Errorf("the post %q does not link game %+v", content(opened), g)
		}
		f.waitFor(t, from, "the board in the new thread", posted(g.Key.Thread))
	}
}

func containsAny(list []any, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestTournamentAnnouncementsRefused: /tournament new in an announcement
// channel is refused privately with the reason, and nothing opens.
func TestTournamentAnnouncementsRefused(t *testing.T) {
	f := newFakeDiscord(t)
	const news = "720"
	f.channels[news] = &fakeChannel{typ: typeNews, name: "news"}
	e := startTour(t, f)
	from := f.mark()
	i := f.tour(t, news, alice, "new", str("game", "spanish"))
	q := f.answer(t, from, i)
	if want := enWords(t).T("RefusedVenuesAnnouncements"); !followup(i)(q) || flags(q)&ephemeral == 0 || content(q) != want {
		t.Errorf("/tournament new in an announcement channel answered %q (flags %d), want privately %q", content(q), flags(q), want)
	}
	if ev, err := e.svc.TournamentHere(context.Background(), sessions.Key{Platform: Platform, Channel: news}); err == nil {
		t.Errorf("a tournament opened: %+v", ev.Tournament)
	}
}

// TestTournamentForumSwiss plays a four-player Swiss of two rounds in a
// forum channel, organised from a post of the forum ("the club"): each
// game is a post of the forum, named after the round and the players,
// whose starting message is its first board mentioning both players
// (posted once), tagged with the forum's tag for the round ("Round 1",
// "round  2" in another case and spacing), with the game's buttons; the
// pairings, results and standings go to the club's post; each finished
// game's post is archived; /tournament show links every post.
func TestTournamentForumSwiss(t *testing.T) {
	f := newFakeDiscord(t)
	const forum, club = "710", "711"
	f.channels[forum] = &fakeChannel{typ: typeForum, name: "events", perms: allPerms | 1<<34,
		tags: []fakeTag{{"9001", "Announcements"}, {"9002", "Round 1"}, {"9003", " round  2 "}}}
	f.channels[club] = &fakeChannel{typ: 11, parent: forum, name: "Weekly Swiss"}
	e := startTour(t, f)
	ctx := context.Background()
	f.ok(t, club, alice, "new", str("game", "spanish"), integer("rounds", 2))
	players := []person{alice, bob, carol, dave}
	for _, p := range players {
		f.ok(t, club, p, "join")
	}
	from := f.mark()
	start := f.ok(t, club, alice, "start")
	key := sessions.Key{Platform: Platform, Channel: forum, Thread: club}
	for round := 1; round <= 2; round++ {
		ev, err := e.svc.TournamentHere(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		tr := ev.Tournament
		if tr.Key != key || len(tr.Played) != round {
			t.Fatalf("round %d: the tournament at %v with %d rounds", round, tr.Key, len(tr.Played))
		}
		games := tr.Played[round-1].Games
		for b, g := range games {
			white, black := personOf(t, g.White), personOf(t, g.Black)
			if g.Key.Channel != forum || g.Key.Thread == "" {
				t.Fatalf("round %d board %d at %v: want a post of the forum", round, b, g.Key)
			}
			open := f.waitFor(t, from, "the game's post", func(q *fakeReq) bool {
				return q.method == "POST" && q.path == "/channels/"+forum+"/threads" && q.msgID == g.Key.Thread
			})
			post := f.thread(g.Key.Thread)
			wantTag := []string{"", "9002", "9003"}[round]
			if post.typ != 11 || post.parent != forum || post.name != "Round "+itoa(round)+": "+white.name+" – "+black.name ||
				len(post.applied) != 1 || post.applied[0] != wantTag {
				t.Errorf("round %d board %d: post %+v, want named after the round and tagged %s", round, b, post, wantTag)
			}
			msg, _ := open.body["message"].(map[string]any)
			text, _ := msg["content"].(string)
			if len(open.files) != 1 || !strings.Contains(text, "<@"+white.id+">") || !strings.Contains(text, "<@"+black.id+">") {
				t.Errorf("round %d board %d: the post starts with %q (%d files), want the board mentioning both players", round, b, text, len(open.files))
			}
			// The buttons, which name the post, come once it exists.
			f.waitFor(t, from, "the post's buttons", func(q *fakeReq) bool {
				return q.method == "PATCH" && q.path == "/channels/"+g.Key.Thread+"/messages/"+g.Key.Thread
			})
			if ids := customIDs(f.message(g.Key.Thread)); ids["Resign"] == "" || !strings.Contains(ids["Resign"], g.Key.Thread) {
				t.Errorf("round %d board %d: the starting board's buttons %v", round, b, ids)
			}
			where := content(start)
			if round > 1 {
				where = content(f.waitFor(t, from, "round 2's pairings in the club", func(q *fakeReq) bool {
					return posted(club)(q) && strings.Contains(content(q), "round 2 of 2: the pairings")
				}))
			}
			if !strings.Contains(where, "<#"+g.Key.Thread+">") {
				t.Errorf("round %d: the pairings %q do not link the post of board %d", round, where, b)
			}
		}
		ended := f.mark()
		for _, g := range games {
			mark := f.mark()
			f.whiteResigns(t, g)
			f.waitFor(t, mark, "the game's post archived", func(q *fakeReq) bool {
				return q.method == "PATCH" && q.path == "/channels/"+g.Key.Thread && q.body["archived"] == true
			})
		}
		standings := f.waitFor(t, ended, "the standings in the club's post", func(q *fakeReq) bool {
			return posted(club)(q) && len(q.files) == 1
		})
		from = ended
		for _, p := range players {
			if !strings.Contains(content(standings), p.name) {
				t.Errorf("round %d: the standings %q lack %s", round, content(standings), p.name)
			}
		}
	}
	ev, err := e.svc.TournamentHere(ctx, key)
	if err != nil || ev.Tournament.Status != sessions.StatusFinished {
		t.Fatalf("after two rounds: %+v, %v", ev.Tournament, err)
	}
	// Each game's board was posted once: as its post's start.
	for _, r := range ev.Tournament.Played {
		for _, g := range r.Games {
			if n := len(f.since(0, posted(g.Key.Thread))); n != 0 {
				t.Errorf("%d more boards posted in the post of game #%s", n, g.GameID)
			}
			if !f.thread(g.Key.Thread).archived {
				t.Errorf("the post of game #%s is not archived", g.GameID)
			}
		}
	}
	if n := len(f.since(0, posted(forum))); n != 0 {
		t.Errorf("%d messages sent to the forum itself", n)
	}
	q := f.ok(t, club, carol, "show", str("id", ev.Tournament.ID))
	for _, r := range ev.Tournament.Played {
		for _, g := range r.Games {
			if !strings.Contains(content(q), "#"+g.GameID+", in <#"+g.Key.Thread+">)") {
				t.Errorf("/tournament show %q does not link game #%s's post", content(q), g.GameID)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTournamentInForumItself: /tournament new typed in the forum channel
// itself (not in one of its posts) opens a post of the tournament, which
// starts with the sign-up and gets the pairings and standings; the games
// are posts of the forum.
func TestTournamentInForumItself(t *testing.T) {
	f := newFakeDiscord(t)
	const forum = "730"
	f.channels[forum] = &fakeChannel{typ: typeForum, name: "events"}
	e := startTour(t, f)
	ctx := context.Background()
	from := f.mark()
	reply := f.ok(t, forum, alice, "new", str("game", "dame"), integer("rounds", 1))
	home := f.waitFor(t, from, "the tournament's post", func(q *fakeReq) bool {
		return q.method == "POST" && q.path == "/channels/"+forum+"/threads"
	})
	msg, _ := home.body["message"].(map[string]any)
	if text, _ := msg["content"].(string); !strings.Contains(text, "alice opens tournament #1") || !strings.Contains(content(reply), "<#"+home.msgID+">") {
		t.Errorf("the tournament's post starts with %q; the reply %q", text, content(reply))
	}
	for _, p := range []person{alice, bob, carol} {
		f.ok(t, forum, p, "join")
	}
	f.ok(t, home.msgID, alice, "start")
	ev, err := e.svc.TournamentHere(ctx, sessions.Key{Platform: Platform, Channel: forum})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range ev.Tournament.Played[0].Games {
		if g.Black == "" {
			continue
		}
		if g.Key.Channel != forum || f.thread(g.Key.Thread).parent != forum {
			t.Fatalf("the game at %v: want a post of the forum", g.Key)
		}
		from = f.mark()
		f.whiteResigns(t, g)
	}
	final := f.waitFor(t, from, "the final standings in the tournament's post", func(q *fakeReq) bool {
		return posted(home.msgID)(q) && len(q.files) == 1
	})
	if !strings.Contains(content(final), "Final standings of tournament #1") {
		t.Errorf("the final standings: %q", content(final))
	}
}

// TestTournamentCommandsWordedOnDiscord walks the /tournament
// subcommands on Discord, in the pseudo-language, from a tournament in
// sign-up and one under way, for a member not joined, one joined, one who
// left, the organiser and a member with Manage Server: every command is
// answered (a refusal privately), each line from the catalogue, none
// saying the command failed.
func TestTournamentCommandsWordedOnDiscord(t *testing.T) {
	f := newFakeDiscord(t)
	f.members = map[string]int64{dave.id: 1<<5 | 1<<10 | 1<<11} // Manage Server
	startPseudoTour(t, f)
	players := []struct {
		state string
		p     person
	}{{"not joined", frank}, {"joined", bob}, {"left", erin}, {"organiser", alice}, {"administrator", dave}}
	type cmd struct {
		sub  string
		opts []opt
	}
	commands := []cmd{{"join", nil}, {"standings", nil}, {"show", []opt{str("id", "1")}}, {"show", []opt{str("id", "x")}},
		{"new", []opt{str("game", "spanish"), str("format", "knockout")}}, {"new", []opt{str("game", "spanish")}},
		{"leave", nil}, {"start", nil}, {"cancel", nil}, {"join", nil}}
	ch := 760
	for _, running := range []bool{false, true} {
		for _, pl := range players {
			ch++
			c := strconv.Itoa(ch)
			f.mu.Lock()
			f.channels[c] = &fakeChannel{typ: 0, name: "club-" + c}
			f.mu.Unlock()
			f.answer(t, f.mark(), f.tour(t, c, alice, "new", str("game", "spanish"), integer("rounds", 2)))
			for _, p := range []person{alice, bob, carol, erin} {
				f.answer(t, f.mark(), f.tour(t, c, p, "join"))
			}
			if running {
				f.answer(t, f.mark(), f.tour(t, c, alice, "start"))
			}
			f.answer(t, f.mark(), f.tour(t, c, erin, "leave"))
			for _, k := range commands {
				what := pl.state + ", running " + strconv.FormatBool(running) + ": " + k.sub
				from := f.mark()
				i := f.tour(t, c, pl.p, k.sub, k.opts...)
				q := f.answer(t, from, i)
				if got := content(q); strings.Contains(got, "went wrong") || strings.Contains(got, "not possible now") {
					t.Errorf("%s: %q", what, got)
				}
				if followup(i)(q) && flags(q)&ephemeral == 0 {
					t.Errorf("%s: a refusal posted for everyone: %q", what, content(q))
				}
				if n := fromCatalogue(t, []*fakeReq{q}); n == 0 {
					t.Errorf("%s: nothing said", what)
				}
			}
		}
	}
}
