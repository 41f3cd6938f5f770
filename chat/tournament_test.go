package chat_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/sessions/tournament"
)

var tourPlayers = []string{"alice", "bob", "carol", "dave", "erin", "frank"}

// sixPlayers returns tournament #7 (Spanish draughts, Swiss of 3 rounds,
// 1h per move) on the console with the given rounds played, and its
// event of kind with the standings after those rounds.
func sixPlayers(t *testing.T, kind sessions.TourEventKind, round int, rounds ...sessions.TourRound) sessions.TourEvent {
	t.Helper()
	tour := &sessions.Tournament{ID: "7", Rev: 3, Key: sessions.Key{Platform: "console", Channel: "room"}, Organiser: user("alice"),
		Game: "spanish", Play: sessions.PlayOptions{Time: sessions.Duration(3600e9), Rated: true}, Format: sessions.FormatSwiss,
		Rounds: 3, Status: sessions.StatusRunning, Played: rounds}
	var ps []tournament.Player
	for _, n := range tourPlayers {
		tour.Players = append(tour.Players, sessions.Entrant{User: user(n), Rating: 1500})
		ps = append(ps, tournament.Player{ID: user(n).ID, Rating: 1500})
	}
	var rs []tournament.Round
	for _, r := range rounds {
		tr := tournament.Round{Number: r.Number}
		for _, g := range r.Games {
			tr.Pairings = append(tr.Pairings, tournament.Pairing{White: g.White, Black: g.Black, Result: g.Result})
		}
		rs = append(rs, tr)
	}
	st, err := tournament.Standings(ps, rs)
	if err != nil {
		t.Fatal(err)
	}
	return sessions.TourEvent{Kind: kind, By: user("alice"), Round: round, Tournament: tour, Standings: st}
}

// game is one pairing of a round played on the console.
func game(round int, white, black string, res tournament.Result, id string) sessions.TourGame {
	g := sessions.TourGame{White: user(white).ID, Black: user(black).ID, Result: res, GameID: id}
	g.Key = sessions.Key{Platform: "console", Channel: "room", Thread: fmt.Sprintf("t7-r%d-%s-%s", round, white, black)}
	return g
}

func roundOne() sessions.TourRound {
	return sessions.TourRound{Number: 1, Games: []sessions.TourGame{
		game(1, "alice", "dave", tournament.WhiteWins, "11"),
		game(1, "erin", "bob", tournament.Draw, "12"),
		game(1, "carol", "frank", tournament.BlackWins, "13"),
	}}
}

func roundTwo(res tournament.Result) sessions.TourRound {
	return sessions.TourRound{Number: 2, Games: []sessions.TourGame{
		game(2, "frank", "alice", res, ""),
		game(2, "bob", "carol", res, ""),
		game(2, "dave", "erin", res, ""),
	}}
}

func tourNotice(ev sessions.TourEvent) sessions.Notice {
	return sessions.Notice{Kind: sessions.NoticeTournament, Key: ev.Tournament.Key, Tour: &ev}
}

// TestTournamentPosts: each tournament post says what happened with the
// values of the event: the pairings with their boards and places, the
// results with the game ids, the standings as an aligned table (marked
// for a monospace font) and as a picture's rows, and the winner.
func TestTournamentPosts(t *testing.T) {
	h := chat.New(chat.Config{Sessions: sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})})
	paired := h.NoticeReplyIn("en", tourNotice(sixPlayers(t, sessions.TourRoundPaired, 2, roundOne(), roundTwo(tournament.Pending))))
	wantLines(t, "round paired", paired, []string{
		"Tournament #7, round 2 of 3: the pairings.",
		"Board 1: frank (White) vs alice (Black), in /go t7-r2-frank-alice.",
		"Board 2: bob (White) vs carol (Black), in /go t7-r2-bob-carol.",
		"Board 3: dave (White) vs erin (Black), in /go t7-r2-dave-erin.",
	})
	if paired.Tour == nil || paired.Tour.Round != 2 || paired.Standings != nil {
		t.Errorf("round paired: the event's values %+v, standings picture %v", paired.Tour, paired.Standings)
	}

	ended := h.NoticeReplyIn("en", tourNotice(sixPlayers(t, sessions.TourRoundEnded, 1, roundOne())))
	wantLines(t, "round ended", ended, []string{
		"Tournament #7: round 1 of 3 is over.",
		"Board 1: alice 1-0 dave (game #11).",
		"Board 2: erin ½-½ bob (game #12).",
		"Board 3: carol 0-1 frank (game #13).",
		"Standings of tournament #7 after round 1 of 3:",
	})
	table := ended.Lines[ended.Table.From:ended.Table.To]
	if len(table) != 7 || !regexp.MustCompile(`^#\s+Player\s+Pts\s+Bh\s+SB\s+Wins$`).MatchString(table[0]) {
		t.Fatalf("round ended: the table %q", table)
	}
	// The winners first (equal on every tie-break: they share the place,
	// listed by id), then the draw.
	for i, want := range []string{`^1\s+alice\s+1\s+0\s+0\s+1$`, `^1\s+frank\s+1\s+0\s+0\s+1$`, `^3\s+bob\s+½\s+½\s+¼\s+0$`} {
		if !regexp.MustCompile(want).MatchString(table[i+1]) {
			t.Errorf("round ended: row %d %q, want %s", i+1, table[i+1], want)
		}
	}
	for _, l := range table {
		if utf8.RuneCountInString(l) != utf8.RuneCountInString(table[0]) {
			t.Errorf("round ended: the table is not aligned:\n%s", strings.Join(table, "\n"))
			break
		}
	}
	if !strings.HasPrefix(ended.Lines[ended.Table.To], "Pts: points") {
		t.Errorf("round ended: no key under the table: %q", ended.Lines[ended.Table.To:])
	}
	pic := ended.Standings
	if pic == nil || len(pic.Table.Rows) != 6 || pic.Table.Rows[0].Name != "alice" || pic.Table.Rows[2].Points != 0.5 ||
		pic.Table.Headings[1] != "Player" || pic.Table.Title != "Standings of tournament #7 after round 1 of 3:" || pic.Name != "tournament-7-round-1.png" {
		t.Errorf("round ended: picture %+v", pic)
	}

	ev := sixPlayers(t, sessions.TourEnded, 3, roundOne(), roundTwo(tournament.WhiteWins),
		sessions.TourRound{Number: 3, Games: []sessions.TourGame{game(3, "frank", "erin", tournament.WhiteWins, "21"), game(3, "alice", "bob", tournament.Draw, "22"),
			{White: user("carol").ID, Black: user("dave").ID, Result: tournament.BlackByForfeit}}})
	ev.Tournament.Status = sessions.StatusFinished
	ev.Tournament.Players[2].Left = 3 // carol left during round 3
	final := h.NoticeReplyIn("en", tourNotice(ev))
	wantLines(t, "final", final, []string{
		"Tournament #7 is over after 3 rounds.",
		"Board 1: frank 1-0 erin (game #21).",
		"Board 2: alice ½-½ bob (game #22).",
		"Board 3: dave wins by forfeit (carol has left).",
		"Final standings of tournament #7:",
	})
	if got := final.Lines[len(final.Lines)-1]; got != "frank wins the tournament, scoring 3 of 3." {
		t.Errorf("final: last line %q", got)
	}
	if !slicesContain(final.Lines[final.Table.From:final.Table.To], "carol (left)") || !final.Standings.Table.Rows[5].Withdrawn {
		t.Errorf("final: carol is not marked as gone: %q", final.Lines[final.Table.From:final.Table.To])
	}
}

// TestTournamentSharedFirst: players equal on points and every tie-break
// at the end share first place, and the last line names them all.
func TestTournamentSharedFirst(t *testing.T) {
	h := chat.New(chat.Config{Sessions: sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})})
	ev := sixPlayers(t, sessions.TourEnded, 1, roundOne())
	ev.Tournament.Status, ev.Tournament.Rounds = sessions.StatusFinished, 1
	final := h.NoticeReplyIn("en", tourNotice(ev))
	if got := final.Lines[len(final.Lines)-1]; got != "alice and frank share first place, scoring 1 of 1." {
		t.Errorf("final: last line %q", got)
	}
	table := final.Lines[final.Table.From:final.Table.To]
	if !regexp.MustCompile(`^1\s+alice`).MatchString(table[1]) || !regexp.MustCompile(`^1\s+frank`).MatchString(table[2]) {
		t.Errorf("final: the table %q", table)
	}
}

func slicesContain(lines []string, part string) bool {
	for _, l := range lines {
		if strings.Contains(l, part) {
			return true
		}
	}
	return false
}

// wantLines checks that r's first lines are want.
func wantLines(t *testing.T, what string, r chat.Reply, want []string) {
	t.Helper()
	if len(r.Lines) < len(want) {
		t.Fatalf("%s: %d lines, want at least %d:\n%s", what, len(r.Lines), len(want), r.Text())
	}
	for i, w := range want {
		if r.Lines[i] != w {
			t.Errorf("%s: line %d\n got %q\nwant %q", what, i+1, r.Lines[i], w)
		}
	}
}

// TestTournamentEventsWorded: every kind of tournament event, as a post,
// in every language, comes wholly from the catalogue (the pseudo-language)
// and is not left in English; the standings table's headings too.
func TestTournamentEventsWorded(t *testing.T) {
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})
	pseudo := chat.New(chat.Config{Sessions: svc, Catalogues: chat.PseudoCatalogues("en")})
	h := chat.New(chat.Config{Sessions: svc})
	kinds := []sessions.TourEventKind{sessions.TourOpened, sessions.TourJoined, sessions.TourLeft, sessions.TourStarted,
		sessions.TourRoundPaired, sessions.TourRoundEnded, sessions.TourEnded, sessions.TourCancelled}
	for _, kind := range kinds {
		for _, status := range []sessions.TourStatus{sessions.StatusSignup, sessions.StatusRunning} {
			ev := sixPlayers(t, kind, 1, roundOne())
			ev.Tournament.Status = status
			r := pseudo.NoticeReplyIn("en", tourNotice(ev))
			if len(r.Lines) == 0 {
				t.Errorf("kind %d (%s): no words", kind, status)
			}
			for i, l := range r.Lines {
				inTable := i >= r.Table.From && i < r.Table.To
				if inTable && i == r.Table.From && !strings.Contains(l, "⟦Player⟧") || !inTable && !chat.FromCatalogue(l) {
					t.Errorf("kind %d (%s): line not from the catalogue: %q", kind, status, l)
				}
			}
			en := h.NoticeReplyIn("en", tourNotice(ev))
			for _, lang := range []string{"es", "de", "tl"} {
				if got := h.NoticeReplyIn(lang, tourNotice(ev)); got.Lines[0] == en.Lines[0] {
					t.Errorf("kind %d in %s: English %q", kind, lang, got.Lines[0])
				}
			}
		}
	}
}

// TestTournamentNewOptions: /tournament new reads its options as /play
// does (the game first, key=value, each once) into the spec for the
// service, and refuses what a tournament does not take, with the reason.
func TestTournamentNewOptions(t *testing.T) {
	h := chat.New(chat.Config{Sessions: sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})})
	spec, r := h.TourSpec("en", strings.Fields("Spanish"))
	if r != nil || spec.Game != "spanish" || spec.Format != sessions.FormatSwiss || spec.Rounds != 0 || spec.Double ||
		spec.Play != sessions.DefaultPlayOptions() || len(spec.Options) != 0 {
		t.Errorf("defaults: %+v %v", spec, r)
	}
	spec, r = h.TourSpec("en", strings.Fields("halma format=roundrobin double=yes time=1h rated=no size=8"))
	if r != nil || spec.Format != sessions.FormatRoundRobin || !spec.Double || spec.Play.Time != sessions.Duration(3600e9) || spec.Play.Rated ||
		!maps.Equal(spec.Options, map[string]string{"size": "8"}) {
		t.Errorf("round-robin: %+v %v", spec, r)
	}
	spec, r = h.TourSpec("en", strings.Fields("dame rounds=11 flying=no"))
	if r != nil || spec.Rounds != 11 || spec.Options["flying"] != "no" {
		t.Errorf("rounds=11: %+v %v", spec, r)
	}
	for args, want := range map[string]string{
		"":                                   "needs the game first",
		"rounds=5":                           "needs the game first",
		"@bob":                               "needs the game first",
		"spanish rounds=12":                  "a Swiss has 1 to 11 rounds",
		"spanish rounds=0":                   "a Swiss has 1 to 11 rounds",
		"spanish rounds=three":               "a Swiss has 1 to 11 rounds",
		"spanish format=knockout":            "format=knockout is not allowed (choose swiss or roundrobin)",
		"spanish color=white":                "color= is not for tournaments",
		"spanish level=3":                    "level= is not for tournaments",
		"spanish double=yes":                 "double=yes is for a round-robin",
		"spanish format=roundrobin rounds=4": "leave out rounds=",
		"spanish time=1s":                    "time=1s is not allowed",
		"spanish time=1h time=1d":            "given twice",
		"spanish @bob":                       `"@bob" is not an option of /tournament new`,
	} {
		_, r := h.TourSpec("en", strings.Fields(args))
		if r == nil || !r.Error || len(r.Lines) != 1 || !strings.Contains(r.Lines[0], want) {
			t.Errorf("new %s: %+v, want a refusal with %q", args, r, want)
		}
	}
}

// TestTournamentCommandRefusals: the subcommands' arguments are checked
// before the service is asked.
func TestTournamentCommandRefusals(t *testing.T) {
	f := newFixture(t)
	f.expect("alice", "/tournament", `/tournament needs more: /tournament new\|join`, true)
	f.expect("alice", "/tournament knockout", `"knockout" is not a /tournament command`, true)
	f.expect("alice", "/tournament join now", `/tournament join takes nothing after it`, true)
	f.expect("alice", "/tournament show", `/tournament show takes one tournament id`, true)
	f.expect("alice", "/tournament show x1", `"x1" is not a tournament id`, true)
	f.expect("alice", "/help tournament", `sign up, play the rounds`, false)
	f.expect("alice", "/help", `/tournament new\|join\|leave\|start\|standings\|show <id>\|cancel — a Swiss`, false)
}

// TestTournamentErrorsWorded: each refusal of the tournament commands
// says why with its values: the players counted, the problem with the
// places, the four-player Halma.
func TestTournamentErrorsWorded(t *testing.T) {
	h := chat.New(chat.Config{Sessions: sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore()})})
	for _, tc := range []struct {
		cmd  string
		err  *sessions.Error
		want string
	}{
		{"tournament start", &sessions.Error{Kind: sessions.ErrPlayerCount, Err: &sessions.BadCount{Players: 2, Min: 3}}, "Only 2 players have joined; a Swiss needs at least 3"},
		{"tournament start", &sessions.Error{Kind: sessions.ErrPlayerCount, Err: &sessions.BadCount{Players: 1, Min: 3}}, "Only 1 player has joined"},
		{"tournament start", &sessions.Error{Kind: sessions.ErrPlayerCount, Err: &sessions.BadCount{Players: 13, Min: 3, Max: 12}}, "13 players have joined; a round-robin takes 3 to 12"},
		{"tournament new", &sessions.Error{Kind: sessions.ErrNoPlaces, Err: &sessions.NoPlaces{Problem: sessions.PlaceNotForum}}, "need a group with topics"},
		{"tournament new", &sessions.Error{Kind: sessions.ErrNoPlaces, Err: &sessions.NoPlaces{Problem: sessions.PlaceNoRights, Right: sessions.RightManageTopics}},
			"give me the administrator right to manage topics, then"},
		{"tournament new", &sessions.Error{Kind: sessions.ErrNoPlaces, Err: &sessions.NoPlaces{Problem: sessions.PlaceNoRights, Right: sessions.RightCreateThreads}},
			"give me the permission Create Public Threads, then"},
		{"tournament new", &sessions.Error{Kind: sessions.ErrNoPlaces, Err: &sessions.NoPlaces{Problem: sessions.PlaceNoRights, Right: sessions.RightCreatePosts}},
			"give me the permission Create Posts, then"},
		{"tournament new", &sessions.Error{Kind: sessions.ErrNoPlaces, Err: &sessions.NoPlaces{Problem: sessions.PlaceAnnouncements}}, "not run in announcement channels"},
		{"tournament new", &sessions.Error{Kind: sessions.ErrBadOption, Err: &sessions.BadValue{Key: "format", Value: "knockout", Choices: []string{"swiss", "roundrobin"}}},
			"format=knockout is not allowed (choose swiss or roundrobin). /help tournament lists the options."},
		{"tournament join", &sessions.Error{Kind: sessions.ErrAlreadyJoined}, "You have joined this tournament already"},
		{"tournament join", &sessions.Error{Kind: sessions.ErrWithdrawn}, "a player who leaves cannot come back"},
		{"tournament join", &sessions.Error{Kind: sessions.ErrNoRoundLeft}, "no round is left to pair you in"},
		{"tournament join", &sessions.Error{Kind: sessions.ErrNotPlayer}, "Only people can play in a tournament"},
		{"tournament new", &sessions.Error{Kind: sessions.ErrNoPlaces, Err: &sessions.NoPlaces{Problem: sessions.PlaceNone}}, "Tournaments are not played here"},
		{"tournament new", &sessions.Error{Kind: sessions.ErrNoPlaces, Err: fmt.Errorf("%w: %w", &sessions.NoPlaces{Problem: sessions.PlaceUnreachable}, errors.New("timeout"))}, "could not ask the platform"},
		{"tournament new", &sessions.Error{Kind: sessions.ErrBadOption, Err: &sessions.BadValue{Key: "players", Value: "4", Choices: []string{"2"}}}, "players=4 is not offered in tournaments"},
		{"tournament show", &sessions.Error{Kind: sessions.ErrNoTournament}, "no tournament with that number"},
		{"tournament join", &sessions.Error{Kind: sessions.ErrNoTournament}, "No tournament is open here"},
		{"tournament join", &sessions.Error{Kind: sessions.ErrSignupClosed}, "Sign-up is closed"},
		{"tournament start", &sessions.Error{Kind: sessions.ErrSignupClosed}, "has started already"},
		{"tournament new", &sessions.Error{Kind: sessions.ErrTournamentOpen}, "already open in this channel"},
		{"tournament cancel", &sessions.Error{Kind: sessions.ErrNotOrganiser}, "Only the tournament's organiser"},
		{"tournament leave", &sessions.Error{Kind: sessions.ErrNotEntered}, "You have not joined"},
	} {
		r := h.ErrorReply(tc.cmd, chat.Message{Key: key, User: user("bob")}, tc.err)
		if !r.Error || !strings.Contains(r.Text(), tc.want) {
			t.Errorf("%s %v: %q, want %q", tc.cmd, tc.err, r.Text(), tc.want)
		}
		// A refusal names one platform's right, never both platforms'.
		if strings.Contains(r.Text(), "Telegram") || strings.Contains(r.Text(), "Discord") {
			t.Errorf("%s %v: %q names a platform", tc.cmd, tc.err, r.Text())
		}
	}
}

// TestTournamentGameNotice: a tournament game's first post in its place
// shows the board and says which round and board of which tournament it
// is, with both players; the ping for a player says where to go.
func TestTournamentGameNotice(t *testing.T) {
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	f := &fixture{t: t, h: chat.New(chat.Config{Sessions: svc})}
	f.expect("alice", "/play count @bob color=white time=1h", "challenges", false)
	f.expect("bob", "/accept", "Game on", false)
	s, err := svc.Look(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	s.Record.Tour = &sessions.TourRef{ID: "7", Round: 2, Board: 1}
	ev := sixPlayers(t, sessions.TourRoundPaired, 2, roundOne(), roundTwo(tournament.Pending))
	at := sessions.Key{Platform: "console", Channel: "room", Thread: "t7-r2-bob-carol"}
	r := f.h.NoticeReplyIn("en", sessions.Notice{Kind: sessions.NoticeTourGame, Key: at, Session: s, Tour: &ev})
	wantLines(t, "game post", r, []string{
		"Tournament #7, round 2, board 2: Counting game, alice (White) vs bob (Black); clock 1h per move, rated.",
		"alice (White) to move: /move <move> (/moves lists them).",
	})
	if r.TurnLine != 2 || r.Picture == nil || r.Session != s || r.Tour == nil || len(r.Buttons) == 0 {
		t.Errorf("game post: turn line %d, picture %v, session %v, buttons %v", r.TurnLine, r.Picture != nil, r.Session != nil, r.Buttons)
	}
	ping := f.h.NoticeReplyIn("en", sessions.Notice{Kind: sessions.NoticeTourGame, Key: at, To: user("bob"), Session: s, Tour: &ev})
	wantLines(t, "ping", ping, []string{"bob, your game of round 2 of tournament #7 has begun in /go t7-r2-bob-carol: alice (White) vs bob (Black)."})
}

// testPlaces opens the test platform's tournament games in threads named
// after the pairing.
type testPlaces struct{}

func (testPlaces) CheckPlaces(ctx context.Context, key sessions.Key) error { return nil }

func (testPlaces) OpenPlace(ctx context.Context, g sessions.PlaceGame) (sessions.Key, error) {
	t := g.Tournament
	return sessions.Key{Platform: t.Key.Platform, Channel: t.Key.Channel, Thread: fmt.Sprintf("r%d-%s-%s", g.Round, g.White.Name, g.Black.Name)}, nil
}

// TestTournamentInChat runs the tournament commands on the service, in
// English and in the pseudo-language (every line from the catalogue, the
// table's rows aside): sign-up, the refusals on the way, the start with
// round 1's pairings, the standings while it runs, a late join, a
// withdrawal and the cancellation.
func TestTournamentInChat(t *testing.T) {
	steps := []struct{ who, text, want string }{
		{"alice", "/tournament new count target=4 time=1h", "alice opens tournament #1: count, Swiss, 3 rounds; clock 1h per move, rated."},
		{"bob", "/tournament leave", "You have not joined this tournament"},
		{"alice", "/tournament join", "alice joins tournament #1: 1 player"},
		{"bob", "/tournament join", "bob joins tournament #1: 2 players"},
		{"alice", "/tournament start", "Only 2 players have joined; a Swiss needs at least 3"},
		{"carol", "/tournament join", "carol joins tournament #1: 3 players \\(alice, bob and carol\\)"},
		{"carol", "/tournament start", "Only the tournament's organiser"},
		{"alice", "/tournament start", "(?s)Tournament #1 begins: 3 players, Swiss, 3 rounds.\nTournament #1, round 1 of 3: the pairings.\nBoard 1: .*has a bye"},
		{"alice", "/tournament start", "has started already"},
		{"bob", "/tournament standings", "(?s)Standings of tournament #1 \\(no round finished yet; 3 to play\\):\n#  Player .*Round 1 is being played \\(1 game to finish\\):\nBoard 1: "},
		{"dave", "/tournament join", "dave joins tournament #1 late, with 0 points: paired from round 2 on."},
		{"carol", "/tournament leave", "carol withdraws from tournament #1"},
		{"alice", "/tournament show 1", "(?s)Tournament #1: count, .*Organised by alice; 4 players; under way.\nRound 1:\n"},
		{"alice", "/tournament show 2", "no tournament with that number"},
		{"alice", "/tournament new count", "already open in this channel"},
		{"alice", "/tournament cancel", "alice cancels tournament #1. Games under way play on"},
		{"alice", "/tournament join", "No tournament is open here"},
	}
	// The real games: four-player Halma is refused.
	f := &fixture{t: t, h: chat.New(chat.Config{Sessions: sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(),
		Places: sessions.PlaceSet{"test": testPlaces{}}})})}
	f.expect("alice", "/tournament new halma players=4", "players=4 is not offered in tournaments", true)
	for _, pseudo := range []bool{false, true} {
		cfg := chat.Config{Sessions: sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games,
			Rand: func(int) int { return 0 }, Places: sessions.PlaceSet{"test": testPlaces{}}})}
		if pseudo {
			cfg.Catalogues = chat.PseudoCatalogues("en")
		}
		f := &fixture{t: t, h: chat.New(cfg)}
		for _, s := range steps {
			if !pseudo {
				f.expect(s.who, s.text, s.want, regexp.MustCompile(`not joined|Only|already|no tournament|No tournament`).MatchString(s.want))
				continue
			}
			r := f.say(s.who, s.text)
			for i, l := range r.Lines {
				if (i < r.Table.From || i >= r.Table.To) && !chat.FromCatalogue(l) {
					t.Errorf("%s %q: line not from the catalogue: %q", s.who, s.text, l)
				}
			}
		}
	}
}

// TestTournamentGameEndOffersNoRematch: the end of a tournament game
// offers no rematch button (the next game is the next round's pairing),
// while an ordinary game's end does.
func TestTournamentGameEndOffersNoRematch(t *testing.T) {
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games,
		Rand: func(int) int { return 0 }, Places: sessions.PlaceSet{"test": testPlaces{}}})
	f := &fixture{t: t, h: chat.New(chat.Config{Sessions: svc})}
	f.expect("alice", "/tournament new count target=4", "opens tournament #1", false)
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		f.expect(p, "/tournament join", "joins tournament #1", false)
	}
	start := f.expect("alice", "/tournament start", "begins", false)
	game := regexp.MustCompile(`Board 1: (\w+) \(White\) vs (\w+)`).FindStringSubmatch(start.Text())
	if game == nil {
		t.Fatalf("no board 1 in:\n%s", start.Text())
	}
	at := sessions.Key{Platform: key.Platform, Channel: key.Channel, Thread: "r1-" + game[1] + "-" + game[2]}
	r := f.h.Handle(ctx, chat.Message{Key: at, User: user(game[1]), Text: "/resign"})
	if !strings.Contains(r.Text(), "Game over") {
		t.Fatalf("resigning the tournament game:\n%s", r.Text())
	}
	for _, b := range r.Buttons {
		if b.Command == "/rematch" {
			t.Fatalf("a tournament game's end offers a rematch: %+v", r.Buttons)
		}
	}
	f.expect("alice", "/play count @bob", "", false)
	f.say("bob", "/accept")
	r = f.say("alice", "/resign")
	if len(r.Buttons) == 0 || r.Buttons[0].Command != "/rematch" {
		t.Fatalf("an ordinary game's end offers no rematch: %+v\n%s", r.Buttons, r.Text())
	}
}
