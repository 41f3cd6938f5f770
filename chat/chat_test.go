package chat_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

var (
	ctx = context.Background()
	key = sessions.Key{Platform: "test", Channel: "room"}
)

type fixture struct {
	t     *testing.T
	h     *chat.Handler
	store *sessionstest.MemoryStore
}

func newFixture(t *testing.T) *fixture {
	store := sessionstest.NewMemoryStore()
	svc := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	return &fixture{t: t, h: chat.New(chat.Config{Sessions: svc}), store: store}
}

func user(name string) sessions.User { return sessions.User{ID: "id-" + name, Name: name} }

func (f *fixture) say(name, text string) chat.Reply {
	return f.h.Handle(ctx, chat.Message{Key: key, User: user(name), Text: text})
}

// expect sends text as name and checks the reply: it must contain want
// (a regexp) and be an error reply or not.
func (f *fixture) expect(name, text, want string, isErr bool) chat.Reply {
	f.t.Helper()
	r := f.say(name, text)
	if !regexp.MustCompile(want).MatchString(r.Text()) || r.Error != isErr {
		f.t.Fatalf("%s: %q\ngot (error=%v):\n%s\nwant (error=%v) %q", name, text, r.Error, r.Text(), isErr, want)
	}
	return r
}

func (f *fixture) dump() string {
	live, _ := f.store.Live(ctx)
	hist, _ := f.store.History(ctx, sessions.HistoryQuery{Key: key})
	b, _ := json.Marshal([]any{live, hist})
	return string(b)
}

func TestWholeGame(t *testing.T) {
	f := newFixture(t)
	r := f.expect("alice", "/play count @bob color=white target=4", `alice challenges bob to Counting game; alice plays White`, false)
	if len(r.Buttons) != 2 || r.Buttons[0].Command != "/accept" {
		t.Fatalf("challenge buttons: %+v", r.Buttons)
	}
	r = f.expect("bob", "/accept", `Game on: Counting game, alice \(White\) vs bob \(Black\); no clock, rated\.\nalice \(White\) to move`, false)
	if r.Picture == nil || r.Picture.Viewer != 0 || r.Picture.FEN != "0:0" {
		t.Fatalf("picture: %+v", r.Picture)
	}
	f.expect("bob", "/move 1", `It is alice's turn \(White\), not yours`, true)
	f.expect("alice", "/m 2", `alice \(White\) played 2\.\nbob \(Black\) to move`, false)
	f.expect("bob", "/moves", `bob \(Black\) to move, 2 legal moves: 1 2\.`, false)
	// The rules' reason names the legal moves: no second list.
	f.expectExact("bob", "/move 3", `3 is not a legal move. Legal moves: 1, 2 (/moves lists all 2).`, true)
	r = f.expectExact("carol", "/board", "Counting game: alice (White) vs bob (Black), 1 move played; no clock, rated.\nLast move: 2.\n"+
		"bob (Black) to move: /move <move> (/moves lists them).\nFEN: 2:1", false)
	if r.Picture == nil || r.Picture.Last == nil || r.Picture.Last.Text != "2" || r.Picture.Viewer != 1 {
		t.Fatalf("board picture: %+v", r.Picture)
	}
	f.expect("carol", "/move 1", `You are not playing in this game`, true)
	r = f.expect("bob", "/move 2", `bob \(Black\) played 2\.\nGame over: bob \(Black\) wins \(target reached\)\. Saved as game #1\.`, false)
	if r.Picture == nil {
		t.Fatal("no picture at the end")
	}
	f.expect("alice", "/board", `No game is being played here: /play`, true)
}

func TestDrawsResignCancelDecline(t *testing.T) {
	f := newFixture(t)
	f.expect("alice", "/play count", `alice challenges anyone here to Counting game`, false)
	f.expect("alice", "/accept", `This is your own challenge|You opened this challenge`, true)
	f.expect("bob", "/decline", `open to anyone`, true)
	f.expect("bob", "/cancel", `Only alice, who opened the challenge, can cancel it`, true)
	f.expect("alice", "/cancel", `alice withdraws the challenge`, false)
	f.expect("alice", "/play count @bob color=black", `alice plays Black`, false)
	f.expect("carol", "/accept", `This challenge is for bob, not for you`, true)
	f.expect("bob", "/decline", `bob declines the challenge`, false)
	f.expect("alice", "/play count @bob color=white", `challenges bob`, false)
	f.expect("alice", "/play count @carol", `alice has a challenge open here \(Counting game\): /accept it, or alice can /cancel it`, true)
	f.expect("bob", "/accept", `Game on`, false)
	f.expect("alice", "/play count", `A game is running here`, true)
	f.expect("alice", "/cancel", `cannot be cancelled: /resign`, true)
	f.expect("alice", "/draw", `alice \(White\) offers a draw`, false)
	f.expect("alice", "/draw", `Your draw offer stands`, true)
	f.expectExact("bob", "/board", "Counting game: alice (White) vs bob (Black), 0 moves played; no clock, rated.\n"+
		"alice (White) offers a draw: /draw or /accept to agree, /decline to refuse.\n"+
		"alice (White) to move: /move <move> (/moves lists them).\nFEN: 0:0", false)
	f.expect("bob", "/decline", `bob declines the draw`, false)
	f.expect("bob", "/draw", `bob \(Black\) offers a draw`, false)
	f.expect("alice", "/accept", `alice \(White\) accepts the draw\.\nGame over: draw \(draw agreed\)\. Saved as game #1\.`, false)
	f.expect("alice", "/play count @bob color=white", `challenges bob`, false)
	f.expect("bob", "/accept", `Game on`, false)
	f.expect("bob", "/resign", `bob \(Black\) resigns\.\nGame over: alice \(White\) wins \(Black resigned\)\. Saved as game #2\.`, false)
}

func TestSetupAndHuff(t *testing.T) {
	f := newFixture(t)
	f.expect("alice", "/play count @bob color=white form=yes huff=yes", `challenges bob`, false)
	f.expect("bob", "/accept", `Set-up step: alice \(White\) and bob \(Black\) to choose a formation`, false)
	f.expect("alice", "/move 1", `First each side chooses a formation: /setup default`, true)
	f.expect("alice", "/setup a1 b2", `b2 is not on your starting ranks \(1\)`, true)
	f.expect("alice", "/setup a1 b1", `alice \(White\) has chosen a formation\.\nSet-up step: bob \(Black\)`, false)
	f.expect("alice", "/setup default", `You have chosen your formation`, true)
	f.expect("bob", "/setup default", `bob \(Black\) has chosen a formation\.\nalice \(White\) to move`, false)
	f.expect("alice", "/setup default", `There is no set-up step now`, true)
	f.expect("alice", "/huff a1", `Nothing to huff|Nothing can be huffed`, true)
	f.expect("alice", "/move 1", `played 1`, false)
	f.expect("bob", "/moves", `You may huff a1: /huff <square>`, false)
	f.expect("bob", "/huff b1", `No huff on b1 now.*You may huff a1`, true)
	f.expect("bob", "/huff a1", `bob \(Black\) huffs the piece on a1; now bob plays a move\.\nbob \(Black\) to move`, false)
}

func TestHelpAndGames(t *testing.T) {
	f := newFixture(t)
	r := f.expect("alice", "/help", `Commands`, false)
	for _, c := range []string{"/play", "/accept", "/decline", "/cancel", "/setup", "/move", "/moves", "/board", "/huff", "/draw", "/resign", "/games", "/rating"} {
		if !strings.Contains(r.Text(), "\n"+c) {
			t.Errorf("/help does not list %s", c)
		}
	}
	f.expect("alice", "/help move", `/move <move>: play a move`, false)
	f.expect("alice", "/help /m", `/move <move>`, false)
	f.expect("alice", "/help top", `this month's`, false)
	f.expect("alice", "/help notify", `/notify on\|off: turn pings by private message\.\nOn Telegram, /notify on .*private chat when it is your turn.*kept when the bot restarts.*a Telegram feature`, false)
	if strings.Contains(r.Text(), "not available") {
		t.Errorf("/help says something is not available:\n%s", r.Text())
	}
	if !strings.Contains(r.Text(), "\n/notify on|off — turn pings by private message (Telegram only)") {
		t.Errorf("/help off Telegram does not say /notify is Telegram's:\n%s", r.Text())
	}
	// /notify reaches the handler only where the adapter has no pings.
	f.expect("alice", "/notify on", `^Turn pings by private message are a Telegram feature`, true)
	tg := f.h.Handle(ctx, chat.Message{Key: sessions.Key{Platform: "telegram", Channel: "-100"}, User: user("alice"), Text: "/help"})
	if !strings.Contains(tg.Text(), "\n/notify on|off — turn pings by private message\n") {
		t.Errorf("/help on Telegram:\n%s", tg.Text())
	}
	for _, c := range f.h.Commands() {
		if c.Command == "notify" && c.Label != "turn pings by private message" {
			t.Errorf("Telegram's command list describes /notify as %q", c.Label)
		}
	}
	f.expect("alice", "/help nothing", `There is no command /nothing`, true)
	r = f.expect("alice", "/games", `Games: /play <id>`, false)
	for _, g := range games.List() {
		if !strings.Contains(r.Text(), g.ID+" — "+g.Name) {
			t.Errorf("/games does not list %s", g.ID)
		}
		for _, o := range g.Options {
			if !strings.Contains(r.Text(), o.Key+"="+strings.Join(o.Values, "|")+" (default "+o.Default+")") {
				t.Errorf("/games does not show %s option %s with its default", g.ID, o.Key)
			}
		}
	}
	if !strings.Contains(r.Text(), "color=white|black|random") {
		t.Error("/games does not show the session options")
	}
}

// TestBadInput sends every kind of bad input in every phase: each gets one
// line, marked as an error, that names a command, and nothing changes.
func TestBadInput(t *testing.T) {
	// Options the sessions check are checked once no game occupies the
	// channel; before that, the reply says that one does.
	const running = "|has a challenge open here|A game is running here"
	bad := []struct{ text, want string }{
		{"/" + strings.Repeat("x", 100*1024), "too long"},
		{"/move \xff\xfe", "not valid UTF-8"},
		{"/move c3\x00d4", "control characters"},
		{"/move \x1b[31mc3", "control characters"},
		{"hello", "Commands start with a slash"},
		{"/frobnicate", "I don't know the command /frobnicate"},
		{"/move", "/move needs more"},
		{"/move 1 2", "/move takes less"},
		{"/accept now", "/accept takes nothing after it"},
		{"/board please", "/board takes nothing"},
		{"/huff", "/huff needs more"},
		{"/setup", "/setup needs more"},
		{"/play", "/play needs more"},
		{"/play @bob", "/play starts with the game"},
		{"/play count bob", `I don't understand "bob"`},
		{"/play count @", `"@" is not a user`},
		{"/play count @" + strings.Repeat("b", 200), "is not a user: a name is at most 32 letters"},
		{"/play count @bob!", "@bob! is not a user: a name may hold only letters, digits"},
		{"/play count color=", `"color=" is not an option`},
		{"/play count color=white colour=black", "given twice"},
		{"/play count color=pink", "color=pink is not allowed" + running},
		{"/play count time=soon", "time=soon is not allowed (choose 5m, 10m, 1h, 1d, 3d or off)" + running},
		{"/play count time=1s", "time=1s is not allowed (choose 5m, 10m, 1h, 1d, 3d or off)" + running},
		{"/play count time=1ns", "time=1ns is not allowed" + running},
		{"/play count time=100000h", "time=100000h is not allowed" + running},
		{"/play count time=2d", "time=2d is not allowed" + running},
		{"/play count flavour=mint", `count has no option "flavour"` + running},
		{"/play chess", `Unknown game "chess"` + running},
		{"/play count bot @bob", "Play the computer or people"},
		{"/play count @bob level=3", "level= sets the computer"},
		{"/play count @bob @carol", "name at most 1 other player" + running},
		{"/play count players=3 @bob @bob", "bob is named twice: name each player once" + running},
		{"/takeback now", "/takeback takes nothing after it"},
		{"/rating @nobody", "I know no player called @nobody"},
		{"/rating chess", `"chess" is neither @someone nor a game`},
		{"/history a b c", "/history takes less"},
		{"/show x1", `"x1" is not a game id`},
		{"/show 99", "no finished game with that id"},
		{"/replay", "/replay needs more"},
		{"/export 12345678901234567890123", "is not a game id"},
		{"/top chess", "neither a game nor a month"},
		{"/rematch", "No game has finished here yet" + running},
		{"/help a b", "/help takes less"},
	}
	phases := map[string][]string{
		"none":      nil,
		"challenge": {"alice:/play count @bob color=white"},
		"playing":   {"alice:/play count @bob color=white", "bob:/accept", "alice:/move 1"},
	}
	for phase, setup := range phases {
		for _, b := range bad {
			f := newFixture(t)
			for _, s := range setup {
				name, text, _ := strings.Cut(s, ":")
				if r := f.say(name, text); r.Error {
					t.Fatalf("setup %q: %s", s, r.Text())
				}
			}
			before := f.dump()
			r := f.say("carol", b.text)
			want := b.want
			if phase == "none" {
				want, _, _ = strings.Cut(want, "|")
			}
			if !r.Error || len(r.Lines) != 1 || !regexp.MustCompile("(?i)"+regexp.QuoteMeta(want)).MatchString(r.Lines[0]) && !matchAny(r.Lines[0], want) || !strings.Contains(r.Lines[0], "/") {
				t.Errorf("%s: %.40q: got %q (error=%v), want one error line with %q and a command", phase, b.text, r.Text(), r.Error, b.want)
			}
			if len(r.Lines[0]) > 300 {
				t.Errorf("%s: %.40q: reply of %d bytes", phase, b.text, len(r.Lines[0]))
			}
			if f.dump() != before {
				t.Errorf("%s: %.40q changed the session", phase, b.text)
			}
		}
	}
}

func matchAny(line, alternatives string) bool {
	for _, a := range strings.Split(alternatives, "|") {
		if strings.Contains(strings.ToLower(line), strings.ToLower(a)) {
			return true
		}
	}
	return false
}

func TestTelegramCommandSuffixAndMentions(t *testing.T) {
	f := newFixture(t)
	bob := sessions.User{ID: "777", Name: "Bob B."}
	r := f.h.Handle(ctx, chat.Message{Key: key, User: user("alice"), Text: "/play@CheckersBot count @bobby color=white",
		Mentions: map[string]sessions.User{"bobby": bob}})
	if r.Error || !strings.Contains(r.Text(), "challenges Bob B.") {
		t.Fatalf("got %s", r.Text())
	}
	// Another user called "bobby" is not the user the mention resolved to.
	r = f.h.Handle(ctx, chat.Message{Key: key, User: sessions.User{ID: "778", Name: "bobby"}, Text: "/accept"})
	if !r.Error {
		t.Fatalf("an impostor accepted: %s", r.Text())
	}
	r = f.h.Handle(ctx, chat.Message{Key: key, User: bob, Text: "/ACCEPT"})
	if r.Error || !strings.Contains(r.Text(), "Game on") {
		t.Fatalf("got %s", r.Text())
	}
}

func TestEmptyMessageIsIgnored(t *testing.T) {
	f := newFixture(t)
	if r := f.say("alice", "   "); len(r.Lines) != 0 || r.Error {
		t.Fatalf("got %q", r.Text())
	}
}

func FuzzHandle(f *testing.F) {
	for _, s := range []string{"/play count @bob target=3", "/move 1", "/accept", "/setup a1", "/huff a1", "/play count players=4", "/m", "/help play", "/\xff"} {
		f.Add("alice", s)
		f.Add("bob", s)
	}
	fx := newFixture(&testing.T{})
	f.Fuzz(func(t *testing.T, name, text string) {
		if name == "" {
			name = "x"
		}
		r := fx.h.Handle(ctx, chat.Message{Key: key, User: user(name), Text: text})
		if r.Error && len(r.Lines) != 1 {
			t.Fatalf("%q: error reply of %d lines", text, len(r.Lines))
		}
	})
}

// TestRefusedActions: people doing what they may not, in a game where alice
// (White) is to move against bob: one line each, and nothing changes.
func TestRefusedActions(t *testing.T) {
	for _, tc := range []struct{ who, text, want string }{
		{"carol", "/move 1", "You are not playing in this game"},
		{"carol", "/resign", "You are not playing in this game"},
		{"carol", "/draw", "You are not playing in this game"},
		{"carol", "/accept", "There is no challenge or draw offer to answer"},
		{"carol", "/cancel", "cannot be cancelled"},
		{"bob", "/move 1", "It is alice's turn (White), not yours"},
		{"bob", "/huff a1", "It is alice's turn (White), not yours"},
		{"alice", "/accept", "There is no challenge or draw offer to answer"},
		{"alice", "/decline", "There is no challenge or draw offer to answer"},
		{"alice", "/play count @carol", "A game is running here"},
		{"alice", "/setup default", "There is no set-up step now"},
		{"alice", "/move 7", `7 is not a legal move. Legal moves: 1, 2 (/moves lists all 2).`},
		{"alice", "/move one", `"one" is not a move (write it like 1, 2).`},
	} {
		f := newFixture(t)
		f.say("alice", "/play count @bob color=white")
		f.say("bob", "/accept")
		before := f.dump()
		r := f.say(tc.who, tc.text)
		if !r.Error || len(r.Lines) != 1 || !strings.Contains(r.Lines[0], tc.want) {
			t.Errorf("%s %q: got %q, want one error line with %q", tc.who, tc.text, r.Text(), tc.want)
		}
		if f.dump() != before {
			t.Errorf("%s %q changed the session", tc.who, tc.text)
		}
	}
	// Before any challenge, and with a challenge for someone else.
	f := newFixture(t)
	f.expect("bob", "/accept", "There is no challenge here to answer: /play <game> @user starts one.", true)
	f.expect("bob", "/resign", "No game is being played here", true)
	f.say("alice", "/play count @bob")
	f.expect("carol", "/accept", "This challenge is for bob, not for you", true)
	f.expect("carol", "/decline", "This challenge is for bob, not for you", true)
	f.expect("carol", "/resign", "The game has not started: waiting for bob to /accept.", true)
	f.expect("alice", "/move 1", `The game has not started: waiting for bob to /accept \(you can /cancel\).`, true)
}

// expectExact sends text as name and checks the whole reply text.
func (f *fixture) expectExact(name, text, want string, isErr bool) chat.Reply {
	f.t.Helper()
	r := f.say(name, text)
	if r.Text() != want || r.Error != isErr {
		f.t.Fatalf("%s: %q\ngot (error=%v):\n%s\nwant (error=%v):\n%s", name, text, r.Error, r.Text(), isErr, want)
	}
	return r
}

// TestSelfChallenge: a challenge to yourself waits for you, not for
// anyone, and tells others whose it is (a game against yourself is allowed,
// never rated).
func TestSelfChallenge(t *testing.T) {
	f := newFixture(t)
	f.expectExact("alice", "/play count @alice color=white",
		"alice challenges themselves to Counting game (a game against yourself is never rated); alice plays White; no clock.\n"+
			"alice: /accept to take the other side too, or /cancel.", false)
	f.expectExact("alice", "/board", "alice's challenge to Counting game (no clock, unrated) is waiting for you to /accept.", false)
	f.expectExact("bob", "/board", "alice's challenge to Counting game (no clock, unrated) is waiting for alice to /accept.", false)
	f.expectExact("bob", "/accept", "This challenge is for alice, not for you: /play your own game when this one is over.", true)
	f.expectExact("alice", "/move 1", "The game has not started: waiting for you to /accept (you can /cancel).", true)
	f.expect("alice", "/accept", `^Game on: Counting game, alice \(White\) vs alice \(Black\); no clock, unrated\.`, false)
	f.expect("alice", "/move 2", "played 2", false)
	f.expectExact("alice", "/takeback", "alice (White)'s last move is taken back.\nalice (White) to move: /move <move> (/moves lists them).", false)
	f.expect("alice", "/resign", "resigns", false)
	// Against yourself is never rated, though rated=yes is the default.
	f.expect("bob", "/show 1", `^Game #1, Counting game: alice \(White\) vs alice \(Black\)\.\n`+
		`Played [-0-9]+ [:0-9]+ to [-0-9]+ [:0-9]+ UTC, 0 moves; time per move off, unrated\.\n`+
		`Game over: [^\n]*\.$`, false)
}

// TestBoardShowsDrawOfferOfTwo: in a game of three, two offering a draw
// "offer" it.
func TestBoardShowsDrawOfferOfTwo(t *testing.T) {
	f := newFixture(t)
	f.expect("alice", "/play count players=3 color=white", "challenges anyone here", false)
	f.expect("bob", "/accept", "joins", false)
	f.expect("carol", "/accept", "Game on", false)
	f.expect("alice", "/draw", "offers a draw", false)
	f.expect("bob", "/draw", "offers a draw", false)
	f.expectExact("carol", "/board", "Counting game: alice (Player 1) vs bob (Player 2) vs carol (Player 3), 0 moves played; no clock, unrated.\n"+
		"alice (Player 1) and bob (Player 2) offer a draw: /draw or /accept to agree, /decline to refuse.\n"+
		"alice (Player 1) to move: /move <move> (/moves lists them).\nFEN: 0:0", false)
}

// TestOptionsEchoedAsTyped: a refused option is echoed as the user writes
// options, not capitalized ("Color=purple").
func TestOptionsEchoedAsTyped(t *testing.T) {
	f := newFixture(t)
	f.expectExact("alice", "/play count color=purple", "color=purple is not allowed (choose white, black or random). /games lists the games and their options.", true)
	f.expectExact("alice", "/play count Rated=maybe", "rated=maybe is not allowed (choose yes or no). /games lists the games and their options.", true)
	f.expectExact("alice", "/play count flavour=mint", `count has no option "flavour" (options: form, huff, players, retire, target). /games lists the games and their options.`, true)
	f.expectExact("alice", "/play count @bob @carol", "count is a game for 2 players: name at most 1 other player. /games lists the games and their options.", true)
}
