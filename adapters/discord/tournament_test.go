package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/chat/chattest"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// fencedTable is a reply with a table too long for one message.
func fencedTable(rows int) chat.Reply {
	r := chat.Reply{Lines: []string{"Standings:"}}
	for k := range rows {
		r.Lines = append(r.Lines, fmt.Sprintf("%3d  player-%03d  %s", k+1, k, strings.Repeat(".", 40)))
	}
	r.Lines[len(r.Lines)/2] += " ```name with backticks```"
	r.Table = chat.Span{From: 1, To: len(r.Lines)}
	r.Lines = append(r.Lines, "The end.")
	return r
}

// TestStandingsTableInCodeBlocks: a reply's table goes in a code block;
// cut in several messages, each piece of it is in its own code block.
func TestStandingsTableInCodeBlocks(t *testing.T) {
	if got := text(fencedTable(2)); !strings.HasPrefix(got, "Standings:\n```\n  1") || !strings.HasSuffix(got, "```\nThe end.") || strings.Count(got, "```") != 2 {
		t.Errorf("short table: %q", got)
	}
	o := outgoing{content: text(fencedTable(200))}
	first, rest := o.parts()
	all := append([]string{first}, rest...)
	if len(all) < 3 {
		t.Fatalf("200 rows in %d messages", len(all))
	}
	rows := 0
	for k, p := range all {
		if utf8.RuneCountInString(p) > maxContent {
			t.Errorf("message %d: %d characters", k, utf8.RuneCountInString(p))
		}
		if strings.Count(p, "```")%2 != 0 {
			t.Errorf("message %d leaves a code block open: %q…", k, p[:min(len(p), 80)])
		}
		inside := false
		for _, l := range strings.Split(p, "\n") {
			switch {
			case l == "```":
				inside = !inside
			case strings.Contains(l, "player-"):
				rows++
				if !inside {
					t.Errorf("message %d: row %q outside a code block", k, l)
				}
			}
		}
	}
	if rows != 200 {
		t.Errorf("%d rows sent, want 200", rows)
	}
}

// tour sends /tournament sub with the subcommand's options; it returns
// the interaction.
func (f *fakeDiscord) tour(t *testing.T, ch string, u person, sub string, opts ...opt) map[string]any {
	t.Helper()
	var os []any
	for _, o := range opts {
		os = append(os, map[string]any{"name": o.name, "type": o.typ, "value": o.val})
	}
	i := f.interaction(2, ch, u, map[string]any{"id": "cmdtournament", "name": "tournament", "type": 1,
		"options": []any{map[string]any{"name": sub, "type": 1, "options": os}}})
	f.dispatch(t, "INTERACTION_CREATE", i)
	return i
}

func integer(name string, v int) opt { return opt{name, 4, float64(v)} }

// answer waits for the answer to a slash command: the deferred answer
// edited, or (a refusal) an ephemeral follow-up.
func (f *fakeDiscord) answer(t *testing.T, from int, i map[string]any) *fakeReq {
	t.Helper()
	return f.waitFor(t, from, "the answer to the interaction", func(q *fakeReq) bool {
		return onOriginal("PATCH", i)(q) || followup(i)(q)
	})
}

// TestTournamentCommandRegistered: /tournament is registered with its
// subcommands in order; new takes /play's games (no players option: no
// four-player Halma), format, rounds 1 to 11, double, /play's time
// choices, rated and free game options; show takes an id.
func TestTournamentCommandRegistered(t *testing.T) {
	f := newFakeDiscord(t)
	from := f.mark()
	start(t, f, sessionstest.NewMemoryStore(), fakeGuild)
	q := f.waitFor(t, from, "the bulk overwrite", func(q *fakeReq) bool { return q.method == "PUT" })
	byName := map[string]map[string]any{}
	for _, c := range q.list {
		cm := c.(map[string]any)
		byName[cm["name"].(string)] = cm
	}
	tc := byName["tournament"]
	if tc == nil {
		t.Fatal("no /tournament registered")
	}
	opts := func(m map[string]any) (names []string, by map[string]map[string]any) {
		by = map[string]map[string]any{}
		list, _ := m["options"].([]any)
		for _, o := range list {
			om := o.(map[string]any)
			names = append(names, om["name"].(string))
			by[om["name"].(string)] = om
		}
		return names, by
	}
	subs, bySub := opts(tc)
	if want := []string{"new", "join", "leave", "start", "standings", "show", "cancel"}; !slices.Equal(subs, want) {
		t.Fatalf("/tournament subcommands %v, want %v", subs, want)
	}
	for _, s := range subs {
		if num(bySub[s]["type"]) != 1 {
			t.Errorf("/tournament %s: type %v, want a subcommand (1)", s, bySub[s]["type"])
		}
		if d, _ := bySub[s]["description"].(string); d == "" || len([]rune(d)) > 100 {
			t.Errorf("/tournament %s: description %q", s, d)
		}
	}
	names, newOpts := opts(bySub["new"])
	if want := []string{"game", "format", "rounds", "double", "time", "rated", "options"}; !slices.Equal(names, want) {
		t.Errorf("/tournament new options %v, want %v", names, want)
	}
	choiceValues := func(o map[string]any) []string {
		var out []string
		list, _ := o["choices"].([]any)
		for _, c := range list {
			v, _ := c.(map[string]any)["value"].(string)
			out = append(out, v)
		}
		return out
	}
	var gameIDs []string
	for _, g := range games.List() {
		gameIDs = append(gameIDs, g.ID)
	}
	if got := choiceValues(newOpts["game"]); !slices.Equal(got, gameIDs) || newOpts["game"]["required"] != true {
		t.Errorf("/tournament new game: choices %v (required %v), want %v, required", got, newOpts["game"]["required"], gameIDs)
	}
	if got := choiceValues(newOpts["format"]); !slices.Equal(got, []string{"swiss", "roundrobin"}) {
		t.Errorf("/tournament new format choices %v", got)
	}
	if r := newOpts["rounds"]; num(r["type"]) != 4 || num(r["min_value"]) != 1 || num(r["max_value"]) != 11 {
		t.Errorf("/tournament new rounds: %v, want an integer from 1 to 11", r)
	}
	_, play := opts(byName["play"])
	if got, want := choiceValues(newOpts["time"]), choiceValues(play["time"]); len(got) == 0 || !slices.Equal(got, want) {
		t.Errorf("/tournament new time choices %v, want /play's %v", got, want)
	}
	for _, o := range []string{"double", "rated"} {
		if num(newOpts[o]["type"]) != 5 {
			t.Errorf("/tournament new %s: type %v, want a boolean", o, newOpts[o]["type"])
		}
	}
	if _, show := opts(bySub["show"]); show["id"] == nil || show["id"]["required"] != true {
		t.Errorf("/tournament show options %v, want a required id", show)
	}
}

// TestTournamentCommandText: each /tournament subcommand becomes the text
// of the command language.
func TestTournamentCommandText(t *testing.T) {
	sub := func(name string, opts ...any) []any {
		return []any{map[string]any{"name": name, "type": 1, "options": opts}}
	}
	o := func(name string, typ int, v any) any { return map[string]any{"name": name, "type": typ, "value": v} }
	for _, c := range []struct {
		opts []any
		want string
	}{
		{sub("new", o("game", 3, "dame"), o("format", 3, "roundrobin"), o("double", 5, true), o("time", 3, "1h"), o("rated", 5, false),
			o("options", 3, " flying=no  huff=yes ")), "/tournament new dame format=roundrobin double=yes time=1h rated=no flying=no huff=yes"},
		{sub("new", o("game", 3, "spanish"), o("rounds", 4, 5.0)), "/tournament new spanish rounds=5"},
		{sub("new", o("rounds", 4, 4.0), o("game", 3, "halma"), o("options", 3, "size=10")), "/tournament new halma rounds=4 size=10"},
		{sub("join"), "/tournament join"},
		{sub("leave"), "/tournament leave"},
		{sub("start"), "/tournament start"},
		{sub("standings"), "/tournament standings"},
		{sub("show", o("id", 3, " 12 ")), "/tournament show 12"},
		{sub("cancel"), "/tournament cancel"},
		{nil, "/tournament"},
	} {
		got, _ := commandText(decodeCommand(t, "tournament", c.opts), fakeApp)
		if got != c.want {
			t.Errorf("%v: %q, want %q", c.opts, got, c.want)
		}
	}
}

// TestTournamentPlaces: where the bot may not create public threads (the
// permissions of the channel's last interaction), CheckPlaces refuses
// with ErrNoPlaces and the reason; where it may, OpenPlace opens a public
// thread without a message in the tournament's channel, named after the
// round and the players, and commands typed there go to the game.
func TestTournamentPlaces(t *testing.T) {
	f := newFakeDiscord(t)
	e := start(t, f, sessionstest.NewMemoryStore(), fakeGuild)
	ctx := context.Background()
	v := e.bot.Places()
	key := sessions.Key{Platform: Platform, Channel: fakeChan}

	f.mu.Lock()
	f.perms = allPerms &^ (1 << 35) // no Create Public Threads
	f.mu.Unlock()
	from := f.mark()
	f.answer(t, from, f.slash(t, fakeChan, alice, "board"))
	err := v.CheckPlaces(ctx, key)
	var nv *sessions.NoPlaces
	if !errors.Is(err, sessions.ErrNoPlaces) || !errors.As(err, &nv) || nv.Problem != sessions.PlaceNoRights {
		t.Fatalf("CheckVenues without thread rights: %v, want ErrNoVenues, no rights", err)
	}

	f.mu.Lock()
	f.perms = allPerms
	f.mu.Unlock()
	from = f.mark()
	f.answer(t, from, f.slash(t, fakeChan, alice, "board"))
	if err := v.CheckPlaces(ctx, key); err != nil {
		t.Fatalf("CheckVenues with thread rights: %v", err)
	}

	tour := &sessions.Tournament{ID: "1", Key: key}
	from = f.mark()
	gk, err := v.OpenPlace(ctx, sessions.PlaceGame{Tournament: tour, Round: 2, White: sessions.User{ID: alice.id, Name: "alice"}, Black: sessions.User{ID: bob.id, Name: "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	q := f.waitFor(t, from, "the thread", func(q *fakeReq) bool { return q.method == "POST" && q.path == "/channels/"+fakeChan+"/threads" })
	if q.body["name"] != "Round 2: alice – bob" || num(q.body["type"]) != 11 {
		t.Errorf("thread opened as %v, want a public thread (11) named \"Round 2: alice – bob\"", q.body)
	}
	if gk != (sessions.Key{Platform: Platform, Channel: fakeChan, Thread: q.msgID}) {
		t.Errorf("OpenVenue: key %v, want the thread %s under %s", gk, q.msgID, fakeChan)
	}
	if k, thread := e.bot.channelKey(gk.Thread); !thread || k != gk {
		t.Errorf("commands in the new thread go to %v (thread %v), want %v", k, thread, gk)
	}
	if n := len(f.since(from, func(q *fakeReq) bool { return q.method == "GET" })); n != 0 {
		t.Errorf("%d channel lookups: the bot should know its own thread", n)
	}

	f.mu.Lock()
	f.failThread = true
	f.mu.Unlock()
	_, err = v.OpenPlace(ctx, sessions.PlaceGame{Tournament: tour, Round: 2, White: sessions.User{ID: carol.id, Name: "carol"}, Black: sessions.User{ID: bob.id, Name: "bob"}})
	if !errors.Is(err, sessions.ErrNoPlaces) || !errors.As(err, &nv) || nv.Problem != sessions.PlaceNoRights {
		t.Errorf("OpenVenue refused by Discord: %v, want ErrNoVenues, no rights", err)
	}
}

// TestTourGameNotice: a tournament game's opening notice posts its board
// in the game's thread, mentioning both players (allowed to ping); the
// pings of its players that follow add nothing and are not posted.
func TestTourGameNotice(t *testing.T) {
	f := newFakeDiscord(t)
	e := start(t, f, sessionstest.NewMemoryStore(), fakeGuild)
	ctx := context.Background()
	from := f.mark()
	f.answer(t, from, f.slash(t, fakeChan, alice, "board")) // the bot learns it may open threads here
	tour := &sessions.Tournament{ID: "1", Key: sessions.Key{Platform: Platform, Channel: fakeChan}}
	a, b := sessions.User{ID: alice.id, Name: "alice"}, sessions.User{ID: bob.id, Name: "bob"}
	gk, err := e.bot.Places().OpenPlace(ctx, sessions.PlaceGame{Tournament: tour, Round: 1, White: a, Black: b})
	if err != nil {
		t.Fatal(err)
	}
	// A game at the thread's key, as the service opens it.
	if _, err := e.svc.Challenge(ctx, sessions.Request{Key: gk, User: a}, sessions.ChallengeSpec{Game: "spanish",
		Invited: []sessions.User{b}, Play: sessions.DefaultPlayOptions()}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Accept(ctx, sessions.Request{Key: gk, User: b}); err != nil {
		t.Fatal(err)
	}
	f.waitFor(t, from, "alice's turn (the accept's notice)", posted(gk.Thread))
	snap := look(t, e.svc, gk)
	from = f.mark()
	ev := &sessions.TourEvent{Kind: sessions.TourRoundPaired, Round: 1, Tournament: tour}
	e.bot.Notify(ctx, sessions.Notice{Kind: sessions.NoticeTourGame, Key: gk, Session: snap, Tour: ev})
	e.bot.Notify(ctx, sessions.Notice{Kind: sessions.NoticeTourGame, Key: gk, Session: snap, Tour: ev, To: a})
	e.bot.Notify(ctx, sessions.Notice{Kind: sessions.NoticeTourGame, Key: gk, Session: snap, Tour: ev, To: b})
	post := f.waitFor(t, from, "the board in the game's thread", posted(gk.Thread))
	for _, p := range []person{alice, bob} {
		if !strings.Contains(content(post), "<@"+p.id+">") {
			t.Errorf("the game's opening post %q does not mention %s", content(post), p.name)
		}
	}
	am, _ := post.body["allowed_mentions"].(map[string]any)
	if users, _ := am["users"].([]any); len(users) != 2 {
		t.Errorf("allowed mentions %v, want both players", am)
	}
	if len(post.files) != 1 {
		t.Errorf("the game's opening post has %d files, want the board", len(post.files))
	}
	// A post in the thread after the three notices: the bot's queue is
	// empty once this one is posted.
	e.bot.Notify(ctx, sessions.Notice{Kind: sessions.NoticeReminder, Key: gk, Session: snap, To: a, Left: time.Minute})
	last := f.waitFor(t, from, "the reminder", func(q *fakeReq) bool { return posted(gk.Thread)(q) && strings.Contains(content(q), "left") })
	if n := len(f.since(from, posted(gk.Thread))); n != 2 {
		t.Errorf("%d posts in the thread, want the board and the reminder (the pings add nothing); last %q", n, content(last))
	}
	if n := len(f.since(from, posted(fakeChan))); n != 0 {
		t.Errorf("%d posts in the channel", n)
	}
}

var (
	dave  = person{"104", "dave"}
	erin  = person{"105", "erin"}
	frank = person{"106", "frank"}
)

// startTour runs a bot whose sessions service opens tournament games
// through the bot's places.
func startTour(t *testing.T, f *fakeDiscord) *env {
	t.Helper()
	return startTourOn(t, f, sessionstest.NewMemoryStore())
}

// startTourOn is startTour on a store.
func startTourOn(t *testing.T, f *fakeDiscord, store sessions.Store) *env {
	t.Helper()
	vs := sessions.PlaceSet{}
	b, svc := build(t, f, sessions.Config{Store: store, Places: vs}, Config{GuildID: fakeGuild})
	vs[Platform] = b.Places()
	return run(t, f, b, svc)
}

// personOf is the test person of a user id.
func personOf(t *testing.T, id string) person {
	t.Helper()
	for _, p := range []person{alice, bob, carol, dave, erin, frank} {
		if p.id == id {
			return p
		}
	}
	t.Fatalf("no test person has id %s", id)
	return person{}
}

// TestTournamentSwissOnDiscord plays a six-player Swiss of three rounds
// from /tournament new to the final standings: sign-up in the channel, a
// start refused to a player who is not the organiser and allowed to a
// member with Manage Server, each game in its own thread (opened without a
// message, its board mentioning both players), every game resigned there
// after a move or at once, the standings posted in the channel after each
// round with their picture, and /tournament show with every game's id.
func TestTournamentSwissOnDiscord(t *testing.T) {
	f := newFakeDiscord(t)
	f.members = map[string]int64{frank.id: 1<<5 | 1<<10 | 1<<11} // Manage Server
	e := startTour(t, f)
	ctx := context.Background()
	chKey := sessions.Key{Platform: Platform, Channel: fakeChan}

	from := f.mark()
	i := f.tour(t, fakeChan, alice, "new", str("game", "spanish"), str("format", "swiss"), integer("rounds", 3), str("time", "1d"))
	if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
		t.Fatalf("/tournament new refused: %q", content(q))
	}
	ev, err := e.svc.TournamentHere(ctx, chKey)
	if err != nil {
		t.Fatal(err)
	}
	id := ev.Tournament.ID
	if ev.Tournament.Organiser.ID != alice.id || ev.Tournament.Rounds != 3 || ev.Tournament.Format != sessions.FormatSwiss {
		t.Fatalf("tournament opened: %+v", ev.Tournament)
	}
	players := []person{alice, bob, carol, dave, erin, frank}
	for _, p := range players {
		from = f.mark()
		i := f.tour(t, fakeChan, p, "join")
		if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
			t.Fatalf("%s's join refused: %q", p.name, content(q))
		}
	}

	// bob neither organises nor manages the server: refused, privately.
	from = f.mark()
	i = f.tour(t, fakeChan, bob, "start")
	if q := f.answer(t, from, i); !followup(i)(q) || flags(q)&ephemeral == 0 {
		t.Fatalf("bob's start answered %q (flags %d): want a private refusal", content(q), flags(q))
	}
	if ev, _ := e.svc.TournamentHere(ctx, chKey); ev.Tournament.Status != sessions.StatusSignup {
		t.Fatalf("after bob's start: %s", ev.Tournament.Status)
	}

	// frank has Manage Server: he starts it.
	var final string
	var start map[string]any
	for round := 1; round <= 3; round++ {
		from = f.mark()
		if round == 1 {
			start = f.tour(t, fakeChan, frank, "start")
			if q := f.answer(t, from, start); !onOriginal("PATCH", start)(q) {
				t.Fatalf("frank's start refused: %q", content(q))
			}
		}
		ev, err := e.svc.TournamentHere(ctx, chKey)
		if err != nil {
			t.Fatal(err)
		}
		tr := ev.Tournament
		if len(tr.Played) != round {
			t.Fatalf("round %d: %d rounds paired", round, len(tr.Played))
		}
		games := tr.Played[round-1].Games
		if len(games) != 3 {
			t.Fatalf("round %d: %d games, want 3", round, len(games))
		}
		for b, g := range games {
			if g.Key.Platform != Platform || g.Key.Channel != fakeChan || g.Key.Thread == "" {
				t.Fatalf("round %d board %d at %v: want a thread of the channel", round, b, g.Key)
			}
			// The thread was opened without a message, public, named
			// after the round and the players.
			f.mu.Lock()
			th := f.channels[g.Key.Thread]
			f.mu.Unlock()
			white, black := personOf(t, g.White), personOf(t, g.Black)
			if th == nil || th.typ != 11 || th.parent != fakeChan || th.name != "Round "+strconv.Itoa(round)+": "+white.name+" – "+black.name {
				t.Fatalf("round %d board %d: thread %+v", round, b, th)
			}
			// The round's pairings link the thread: round 1's in the
			// answer to start, the others' in a post in the channel.
			f.waitFor(t, 0, "the pairings linking the game's thread", func(q *fakeReq) bool {
				return (posted(fakeChan)(q) || onOriginal("PATCH", start)(q)) && strings.Contains(content(q), "<#"+g.Key.Thread+">")
			})
			board := f.waitFor(t, 0, "the board in the game's thread", posted(g.Key.Thread))
			if len(board.files) != 1 || !strings.Contains(content(board), "<@"+white.id+">") || !strings.Contains(content(board), "<@"+black.id+">") {
				t.Errorf("round %d board %d: the thread opens with %q (%d files), want the board mentioning both players",
					round, b, content(board), len(board.files))
			}
		}
		for b, g := range games {
			white, black := personOf(t, g.White), personOf(t, g.Black)
			loser := black
			if b == 1 {
				loser = white // resigns before a move
			} else {
				snap := look(t, e.svc, g.Key)
				mv := snap.State.Moves()[0].Text
				from = f.mark()
				i = f.slash(t, g.Key.Thread, white, "move", str("move", mv))
				if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
					t.Fatalf("round %d board %d: %s's move %s refused: %q", round, b, white.name, mv, content(q))
				}
			}
			from = f.mark()
			i = f.slash(t, g.Key.Thread, loser, "resign")
			if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
				t.Fatalf("round %d board %d: %s's resignation refused: %q", round, b, loser.name, content(q))
			}
		}
		// The round's standings in the channel, with their picture.
		standings := f.waitFor(t, from, "the standings in the channel", func(q *fakeReq) bool {
			return posted(fakeChan)(q) && len(q.files) == 1
		})
		for _, p := range players {
			if !strings.Contains(content(standings), p.name) {
				t.Errorf("round %d standings %q lack %s", round, content(standings), p.name)
			}
		}
		if strings.Count(content(standings), "```") != 2 || !strings.HasSuffix(standings.files[0].name, ".png") {
			t.Errorf("round %d standings %q, file %q: want the table in a code block and a PNG", round, content(standings), standings.files[0].name)
		}
		final = content(standings)
	}
	ev, err = e.svc.TournamentByID(ctx, Platform, id)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Tournament.Status != sessions.StatusFinished {
		t.Fatalf("after three rounds: %s", ev.Tournament.Status)
	}
	// The final standings: the table's first row is the winner's.
	_, table, _ := strings.Cut(final, "```\n")
	rows := strings.Split(table, "\n")
	if winner := personOf(t, ev.Standings[0].Player); len(rows) < 2 || !strings.Contains(rows[1], winner.name) {
		t.Errorf("final standings %q: want %s first", final, winner.name)
	}

	// /tournament show, anywhere: the standings and every game's id.
	from = f.mark()
	i = f.tour(t, fakeChan, carol, "show", str("id", id))
	q := f.answer(t, from, i)
	if !onOriginal("PATCH", i)(q) {
		t.Fatalf("/tournament show refused: %q", content(q))
	}
	if len(q.files) != 1 {
		t.Errorf("/tournament show sent %d files, want the standings picture", len(q.files))
	}
	var all strings.Builder
	for _, r := range f.since(from, func(q *fakeReq) bool { return onOriginal("PATCH", i)(q) || followup(i)(q) }) {
		all.WriteString(content(r) + "\n")
	}
	for _, r := range ev.Tournament.Played {
		for _, g := range r.Games {
			if g.GameID == "" || !strings.Contains(all.String(), g.GameID) {
				t.Errorf("/tournament show %s: game %q of round %d missing from %q", id, g.GameID, r.Number, all.String())
			}
		}
	}
}

// TestTournamentRefusedWithoutThreads: where the bot may not create public
// threads, /tournament new is refused with the reason, privately, and no
// tournament opens.
func TestTournamentRefusedWithoutThreads(t *testing.T) {
	f := newFakeDiscord(t)
	f.perms = allPerms &^ (1 << 35) // no Create Public Threads
	e := startTour(t, f)
	from := f.mark()
	i := f.tour(t, fakeChan, alice, "new", str("game", "spanish"))
	q := f.answer(t, from, i)
	if !followup(i)(q) || flags(q)&ephemeral == 0 || !strings.Contains(strings.ToLower(content(q)), "thread") {
		t.Errorf("/tournament new without thread rights answered %q (flags %d): want a private refusal naming threads", content(q), flags(q))
	}
	if ev, err := e.svc.TournamentHere(context.Background(), sessions.Key{Platform: Platform, Channel: fakeChan}); err == nil {
		t.Errorf("a tournament opened: %+v", ev.Tournament)
	}
}

// TestTournamentOptionsComplete: /tournament new's options autocomplete
// the chosen game's options with their values (never players: no
// four-player Halma), keep what was typed before the last word, and offer
// what was typed when nothing completes it.
func TestTournamentOptionsComplete(t *testing.T) {
	list := games.List()
	for _, c := range []struct {
		game, typed string
		want        []string
	}{
		{"dame", "fl", []string{"flying=yes", "flying=no"}},
		{"halma", "size=10 le", []string{"size=10 leavehome=auto", "size=10 leavehome=off", "size=10 leavehome=10", "size=10 leavehome=20",
			"size=10 leavehome=30", "size=10 leavehome=40", "size=10 leavehome=50", "size=10 leavehome=60", "size=10 leavehome=80", "size=10 leavehome=100"}},
		{"halma", "pl", []string{"pl"}},
		{"halma", "size=8 si", []string{"size=8 si"}},
		{"spanish", "flying=yes", []string{"flying=yes"}},
	} {
		if got := optionCompletions(list, c.game, c.typed); !slices.Equal(got, c.want) {
			t.Errorf("%s %q: %v, want %v", c.game, c.typed, got, c.want)
		}
	}
	for _, c := range optionCompletions(list, "halma", "") {
		if strings.HasPrefix(c, "players=") {
			t.Errorf("halma options offer %q", c)
		}
	}

	// Through Discord: the focused option is inside the subcommand.
	f := newFakeDiscord(t)
	start(t, f, sessionstest.NewMemoryStore(), fakeGuild)
	from := f.mark()
	i := f.interaction(4, fakeChan, alice, map[string]any{"id": "cmdtournament", "name": "tournament", "type": 1,
		"options": []any{map[string]any{"name": "new", "type": 1, "options": []any{
			map[string]any{"name": "game", "type": 3, "value": "dame"},
			map[string]any{"name": "options", "type": 3, "value": "fly", "focused": true}}}}})
	f.dispatch(t, "INTERACTION_CREATE", i)
	q := f.waitFor(t, from, "the completions", callback(i))
	var got []string
	data, _ := q.body["data"].(map[string]any)
	list2, _ := data["choices"].([]any)
	for _, c := range list2 {
		v, _ := c.(map[string]any)["value"].(string)
		got = append(got, v)
	}
	if num(q.body["type"]) != 8 || !slices.Equal(got, []string{"flying=yes", "flying=no"}) {
		t.Errorf("autocomplete answered type %v with %v, want 8 with flying=yes, flying=no", q.body["type"], got)
	}
}

// TestTournamentOpenedInAThread: a tournament opened in a thread of the
// channel posts there (pairings, standings), while its games get threads
// of their own in the channel; commands typed in the channel act on it.
func TestTournamentOpenedInAThread(t *testing.T) {
	f := newFakeDiscord(t)
	const talk = "701"
	f.channels[talk] = &fakeChannel{typ: 11, parent: fakeChan, name: "the club's thread"}
	e := startTour(t, f)
	ctx := context.Background()
	from := f.mark()
	i := f.tour(t, talk, alice, "new", str("game", "dame"), integer("rounds", 1))
	if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
		t.Fatalf("/tournament new in a thread refused: %q", content(q))
	}
	for k, p := range []person{alice, bob, carol} {
		ch := talk
		if k == 1 {
			ch = fakeChan // the channel's tournament, from the channel itself
		}
		from = f.mark()
		i := f.tour(t, ch, p, "join")
		if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
			t.Fatalf("%s's join in %s refused: %q", p.name, ch, content(q))
		}
	}
	from = f.mark()
	i = f.tour(t, talk, alice, "start")
	pairings := f.answer(t, from, i) // round 1's pairings
	if !onOriginal("PATCH", i)(pairings) {
		t.Fatalf("start refused: %q", content(pairings))
	}
	ev, err := e.svc.TournamentHere(ctx, sessions.Key{Platform: Platform, Channel: fakeChan})
	if err != nil {
		t.Fatal(err)
	}
	var game sessions.TourGame
	for _, g := range ev.Tournament.Played[0].Games {
		if g.Black != "" {
			game = g
		}
	}
	if game.Key.Channel != fakeChan || game.Key.Thread == "" || game.Key.Thread == talk {
		t.Fatalf("the game is at %v: want a thread of its own in %s", game.Key, fakeChan)
	}
	if !strings.Contains(content(pairings), "<#"+game.Key.Thread+">") {
		t.Errorf("pairings %q do not link the game's thread", content(pairings))
	}
	from = f.mark()
	i = f.slash(t, game.Key.Thread, personOf(t, game.White), "resign")
	if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
		t.Fatalf("resign refused: %q", content(q))
	}
	final := f.waitFor(t, from, "the final standings in the tournament's thread", func(q *fakeReq) bool {
		return posted(talk)(q) && len(q.files) == 1
	})
	if !strings.Contains(content(final), "```") {
		t.Errorf("final standings %q: want the table", content(final))
	}
	if n := len(f.since(0, posted(fakeChan))); n != 0 {
		t.Errorf("%d posts in the channel: the tournament's posts go to its thread", n)
	}
}

// TestTournamentCancelByAdministrator: a member who is neither the
// organiser nor a server manager may not cancel a tournament; one with
// Administrator (which holds Manage Server) may.
func TestTournamentCancelByAdministrator(t *testing.T) {
	f := newFakeDiscord(t)
	f.members = map[string]int64{frank.id: 1<<3 | 1<<10 | 1<<11} // Administrator
	e := startTour(t, f)
	from := f.mark()
	i := f.tour(t, fakeChan, alice, "new", str("game", "spanish"))
	if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
		t.Fatalf("/tournament new refused: %q", content(q))
	}
	from = f.mark()
	i = f.tour(t, fakeChan, bob, "cancel")
	if q := f.answer(t, from, i); !followup(i)(q) || flags(q)&ephemeral == 0 {
		t.Fatalf("bob's cancel answered %q (flags %d): want a private refusal", content(q), flags(q))
	}
	key := sessions.Key{Platform: Platform, Channel: fakeChan}
	if ev, err := e.svc.TournamentHere(context.Background(), key); err != nil || ev.Tournament.Status != sessions.StatusSignup {
		t.Fatalf("after bob's cancel: %v, %v", ev.Tournament, err)
	}
	from = f.mark()
	i = f.tour(t, fakeChan, frank, "cancel")
	if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
		t.Fatalf("frank's cancel refused: %q", content(q))
	}
	if ev, err := e.svc.TournamentHere(context.Background(), key); err != nil || ev.Tournament.Status != sessions.StatusCancelled {
		t.Errorf("after frank's cancel: %v, %v", ev.Tournament, err)
	}
}

// TestDiscordPseudoTournament runs a three-player tournament of one round
// in the pseudo-language and fails on any line the bot posts (mentions,
// thread links and the standings table's aligned rows aside) that did not
// come from the catalogue.
func TestDiscordPseudoTournament(t *testing.T) {
	f := newFakeDiscord(t)
	svc := startPseudoTour(t, f).svc
	for _, s := range []struct {
		u   person
		sub string
	}{{bob, "join"}, {alice, "join"}, {carol, "join"}, {carol, "start"}, {alice, "start"}, {bob, "standings"}} {
		if s.sub == "join" && s.u == bob {
			from := f.mark()
			f.answer(t, from, f.tour(t, fakeChan, alice, "new", str("game", "dame"), integer("rounds", 1)))
		}
		from := f.mark()
		f.answer(t, from, f.tour(t, fakeChan, s.u, s.sub))
	}
	ev, err := svc.TournamentHere(context.Background(), sessions.Key{Platform: Platform, Channel: fakeChan})
	if err != nil {
		t.Fatal(err)
	}
	var game sessions.TourGame
	for _, g := range ev.Tournament.Played[0].Games {
		if g.Black != "" {
			game = g
		}
	}
	from := f.mark()
	f.answer(t, from, f.slash(t, game.Key.Thread, personOf(t, game.Black), "resign"))
	f.waitFor(t, from, "the final standings", func(q *fakeReq) bool { return posted(fakeChan)(q) && len(q.files) == 1 })

	if checked := fromCatalogue(t, f.since(0, func(q *fakeReq) bool { return q.method == "POST" || q.method == "PATCH" })); checked < 15 {
		t.Errorf("only %d lines checked", checked)
	}
}

// startPseudoTour runs a bot that speaks the pseudo-language and opens
// tournament games through its places.
func startPseudoTour(t *testing.T, f *fakeDiscord) *env {
	t.Helper()
	w, err := chattest.Pseudo()
	if err != nil {
		t.Fatal(err)
	}
	vs, rl := sessions.PlaceSet{}, &relay{}
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Places: vs, Notifier: rl})
	t.Cleanup(svc.Close)
	h := chat.New(chat.Config{Sessions: svc, Catalogues: w})
	b, err := New(Config{GuildID: fakeGuild, Token: "test-token", HTTPClient: f.client()}, h, svc, render.New(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	rl.b.Store(b)
	vs[Platform] = b.Places()
	return run(t, f, b, svc)
}

// fromCatalogue fails the test for each line the requests post
// (mentions, thread links and the rows of a table in a code block aside)
// that did not come from the catalogue; it returns how many it checked.
func fromCatalogue(t *testing.T, reqs []*fakeReq) int {
	t.Helper()
	mention := regexp.MustCompile(`<[@#]\d+>`)
	checked := 0
	for _, q := range reqs {
		table := false
		for _, l := range strings.Split(content(q), "\n") {
			if l == "```" {
				table = !table
				continue
			}
			l = strings.TrimSpace(mention.ReplaceAllString(l, ""))
			if l == "" || l == "✓" || table {
				continue
			}
			checked++
			if !chattest.FromCatalogue(l) {
				t.Errorf("%s %s: line not from the catalogue: %q", q.method, q.path, l)
			}
		}
	}
	return checked
}

// TestTournamentAfterRestart: a tournament started by one process goes on
// in the next: the new process asks Discord what the game's thread is,
// takes the resignation there, pairs round 2 in a new thread and posts
// the standings in the channel.
func TestTournamentAfterRestart(t *testing.T) {
	f := newFakeDiscord(t)
	store := sessionstest.NewMemoryStore()
	e := startTourOn(t, f, store)
	ctx := context.Background()
	from := f.mark()
	f.answer(t, from, f.tour(t, fakeChan, alice, "new", str("game", "spanish"), integer("rounds", 2)))
	for _, p := range []person{alice, bob, carol} {
		from = f.mark()
		f.answer(t, from, f.tour(t, fakeChan, p, "join"))
	}
	from = f.mark()
	f.answer(t, from, f.tour(t, fakeChan, alice, "start"))
	chKey := sessions.Key{Platform: Platform, Channel: fakeChan}
	ev, err := e.svc.TournamentHere(ctx, chKey)
	if err != nil || len(ev.Tournament.Played) != 1 {
		t.Fatalf("after start: %+v, %v", ev.Tournament, err)
	}
	e.stop()
	e.svc.Close()

	f.mu.Lock()
	f.omitChan = true // the new process must ask Discord what the thread is
	f.mu.Unlock()
	e = startTourOn(t, f, store)
	if _, err := e.svc.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	var game sessions.TourGame
	for _, g := range ev.Tournament.Played[0].Games {
		if g.Black != "" {
			game = g
		}
	}
	from = f.mark()
	i := f.slash(t, game.Key.Thread, personOf(t, game.White), "resign")
	if q := f.answer(t, from, i); !onOriginal("PATCH", i)(q) {
		t.Fatalf("resign after the restart refused: %q", content(q))
	}
	if len(f.since(from, func(q *fakeReq) bool { return q.method == "GET" && q.path == "/channels/"+game.Key.Thread })) == 0 {
		t.Errorf("the new process did not ask what the game's thread is")
	}
	f.waitFor(t, from, "round 1's standings", func(q *fakeReq) bool { return posted(fakeChan)(q) && len(q.files) == 1 })
	th := f.waitFor(t, from, "round 2's thread", func(q *fakeReq) bool { return q.method == "POST" && q.path == "/channels/"+fakeChan+"/threads" })
	f.waitFor(t, from, "round 2's board", posted(th.msgID))
	ev, err = e.svc.TournamentHere(ctx, chKey)
	if err != nil || len(ev.Tournament.Played) != 2 {
		t.Fatalf("after the restart's resignation: %+v, %v", ev.Tournament, err)
	}
}
