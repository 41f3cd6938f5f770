package chat_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// firstMove is a computer that plays the first legal move.
type firstMove struct{}

func (firstMove) Move(ctx context.Context, s rules.State, level int, seed uint64) (rules.Move, error) {
	return s.Moves()[0], nil
}

// notices keeps the notices, as an adapter would receive them.
type notices struct {
	mu  sync.Mutex
	got []sessions.Notice
}

func (n *notices) Notify(ctx context.Context, no sessions.Notice) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.got = append(n.got, no)
}

func (n *notices) take() []sessions.Notice {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.got
	n.got = nil
	return out
}

type recFixture struct {
	*fixture
	svc *sessions.Service
	n   *notices
	clk *sessionstest.Clock
}

// newRecFixture serves the count game (listed in /games) and the real
// games, with a fake clock, a one-hour clock per move and a computer
// that plays the first legal move.
func newRecFixture(t *testing.T) *recFixture { return newRecFixtureWords(t, nil) }

// newRecFixtureWords is newRecFixture speaking the catalogues words (nil:
// the embedded ones).
func newRecFixtureWords(t *testing.T, words *chat.Catalogues) *recFixture {
	store := sessionstest.NewMemoryStore()
	n := &notices{}
	clk := sessionstest.NewClock(time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC))
	svc := sessions.New(sessions.Config{Store: store, Rand: func(int) int { return 0 }, Notifier: n, Now: clk.Now,
		Computer: firstMove{}, DefaultTime: func(string) sessions.Duration { return sessions.Duration(time.Hour) },
		Games: func(id string, opts map[string]string) (rules.Game, error) {
			if id == "count" {
				return sessionstest.Games(id, opts)
			}
			return games.New(id, opts)
		}})
	t.Cleanup(svc.Close)
	list := func() []games.Info { return append(games.List(), games.Info{ID: "count", Name: "Counting game"}) }
	h := chat.New(chat.Config{Sessions: svc, Games: list, Catalogues: words})
	return &recFixture{fixture: &fixture{t: t, h: h, store: store}, svc: svc, n: n, clk: clk}
}

// game plays a count game to 44 by twos between alice (White) and bob:
// bob's 11th move wins.
func (f *recFixture) game(t *testing.T) chat.Reply {
	f.expect("alice", "/play count @bob color=white target=44", "challenges bob", false)
	f.expect("bob", "/accept", "Game on", false)
	var r chat.Reply
	for i := 0; i < 22; i++ {
		r = f.expect([]string{"alice", "bob"}[i%2], "/move 2", "played 2", false)
	}
	return r
}

func TestRatedGameAndItsRecords(t *testing.T) {
	f := newRecFixture(t)
	r := f.game(t)
	if !strings.Contains(r.Text(), "bob (Black) wins") || !strings.Contains(r.Text(), "Ratings: alice 1000 → 985 (-15), bob 1000 → 1015 (+15).") {
		t.Fatalf("last move's reply:\n%s", r.Text())
	}
	if len(r.Buttons) != 1 || r.Buttons[0].Command != "/rematch" {
		t.Fatalf("buttons after the game: %v", r.Buttons)
	}
	f.expect("alice", "/history", `#1 2026-11-20 count: alice vs bob; bob won \(target reached\), 22 moves`, false)
	f.expect("alice", "/history @bob count", `Last games of bob`, false)
	f.expect("alice", "/history @bob spanish", `bob has no finished game yet`, false)
	r = f.expectExact("carol", "/show 1", "Game #1, Counting game: alice (White) vs bob (Black).\n"+
		"Played 2026-11-20 10:00 to 2026-11-20 10:00 UTC, 22 moves; time per move 1h, rated.\n"+
		"Game over: bob (Black) wins (target reached).\n"+
		"Ratings: alice 1000 → 985 (-15), bob 1000 → 1015 (+15).", false)
	if r.Picture == nil || len(r.Buttons) != 2 {
		t.Fatalf("/show:\n%s", r.Text())
	}
	r = f.expect("carol", "/replay #1", `22 moves`, false)
	if r.Replay == nil || len(r.Replay.Frames) != 23 || len(r.Replay.Moves) != 22 || r.Replay.Name != "game-1.gif" {
		t.Fatalf("/replay: %+v", r.Replay)
	}
	r = f.expect("carol", "/export 1", `Game #1`, false)
	if r.Document == nil || r.Document.Name != "game-1.txt" || !strings.Contains(string(r.Document.Data), "11. 2 2\n0-1\n") {
		t.Fatalf("/export: %+v", r.Document)
	}
	f.expectExact("alice", "/rating", "Ratings of alice (/top <game> for the ladder):\n"+
		"count: 985 all time (1 game: 0 won, 1 lost, 0 drawn); 985 this month (1 game: 0 won, 1 lost, 0 drawn).", false)
	f.expect("alice", "/rating @bob count", `Ratings of bob.*\n.*count: 1015 all time`, false)
	r = f.expect("alice", "/top count", `Ladder of count, all time, global \(2 players\):\n1\. bob 1015`, false)
	if !strings.Contains(r.Text(), "Your place: 2 of 2, rated 985.") {
		t.Fatalf("/top:\n%s", r.Text())
	}
	f.expect("carol", "/top count month", `Ladder of count, 2026-11.*\n(.*\n)*You are not on this ladder yet`, false)
	f.expect("carol", "/top count 2026-10", `No rated count games yet`, false)
	// A rematch swaps the colours.
	f.expect("carol", "/rematch", `You are not playing`, true)
	f.expect("bob", "/rematch", `bob challenges alice to Counting game; bob plays White`, false)
}

func TestExportPDN(t *testing.T) {
	f := newRecFixture(t)
	f.expect("alice", "/play spanish @bob color=white", "challenges", false)
	f.expect("bob", "/accept", "Game on", false)
	f.expect("alice", "/move 11-15", "played", false) // white's men stand on 1-12 in Spanish numbering
	f.expect("bob", "/resign", "resigns", false)
	r := f.expect("bob", "/export 1", "Game #1", false)
	if r.Document == nil || r.Document.Name != "game-1.pdn" || !strings.Contains(string(r.Document.Data), `[Result "1-0"]`) {
		t.Fatalf("/export of a draughts game: %+v\n%s", r.Document, r.Document.Data)
	}
}

func TestTakebackInChat(t *testing.T) {
	f := newRecFixture(t)
	f.expect("alice", "/play count @bob color=white", "challenges", false)
	f.expect("bob", "/accept", "Game on", false)
	f.expect("alice", "/move 2", "played 2", false)
	r := f.expect("alice", "/takeback", `alice \(White\) asks to take back their last move: bob, /accept or /decline`, false)
	if len(r.Buttons) != 2 {
		t.Fatal("no buttons to answer the takeback")
	}
	f.expectExact("carol", "/board", "Counting game: alice (White) vs bob (Black), 1 move played; clock 1h per move, rated.\nLast move: 2.\n"+
		"alice (White) asks to take back their last move: bob, /accept or /decline.\n"+
		"bob (Black) to move: /move <move> (/moves lists them).\nClock: 1h per move; bob has 1h 0m left (until 2026-11-20 11:00 UTC).\nFEN: 2:1", false)
	f.expect("bob", "/decline", "refuses the takeback", false)
	f.expect("alice", "/takeback", "asks", false)
	// Asking twice is answered in takeback words, not in draw words.
	f.expectExact("alice", "/takeback", "You have asked already to take your last move back: waiting for bob to /accept or /decline it.", true)
	f.expect("bob", "/accept", `alice \(White\)'s last move is taken back.\nalice \(White\) to move`, false)
	f.expect("bob", "/takeback", "no move of yours to take back", true)
}

func TestComputerInChat(t *testing.T) {
	f := newRecFixture(t)
	f.expect("alice", "/play count bot color=white level=2 target=5", `Game on: Counting game, alice \(White\) vs Computer \(Black\)`, false)
	f.expect("alice", "/move 2", "alice \\(White\\) played 2", false)
	if err := f.h.Settle(ctx, key); err != nil {
		t.Fatal(err)
	}
	var moved []string
	for _, n := range f.n.take() {
		if n.Kind == sessions.NoticeMoved {
			r := f.h.NoticeReply(n)
			if r.Picture == nil {
				t.Fatal("the computer's move has no picture")
			}
			moved = append(moved, r.Text())
		}
	}
	if len(moved) != 1 || !strings.HasPrefix(moved[0], "Computer (Black) played 1.\nalice (White) to move") {
		t.Fatalf("the computer's move as a message: %q", moved)
	}
	f.expect("alice", "/draw", "The computer does not agree to draws", true)
	f.expect("alice", "/move 2", "played", false) // 5: alice wins
	f.expect("alice", "/rating", "alice has no rating yet", false)
	// A game against the computer is never rated, whatever rated= says.
	f.expectExact("alice", "/show 1", "Game #1, Counting game: alice (White) vs Computer (Black).\n"+
		"Played 2026-11-20 10:00 to 2026-11-20 10:00 UTC, 3 moves; time per move 1h, unrated.\n"+
		"Game over: alice (White) wins (target reached).", false)
}

func TestNoticesAsMessages(t *testing.T) {
	f := newRecFixture(t)
	f.expect("alice", "/play count @bob color=white", "challenges", false)
	f.expect("bob", "/accept", "Game on", false)
	f.expect("alice", "/board", `Clock: 1h per move; alice has 1h 0m left \(until 2026-11-20 11:00 UTC\)`, false)
	f.n.take()
	f.clk.Add(54 * time.Minute)
	f.svc.Tick(ctx)
	ns := f.n.take()
	if len(ns) != 1 || !strings.Contains(f.h.NoticeReply(ns[0]).Text(), "alice, your move in Counting game: 6m left") {
		t.Fatalf("reminder: %v", ns)
	}
	f.clk.Add(6 * time.Minute)
	f.svc.Tick(ctx)
	f.h.Settle(ctx, key)
	var texts []string
	for _, n := range f.n.take() {
		texts = append(texts, fmt.Sprint(n.To.Name, ": ", f.h.NoticeReply(n).Text()))
	}
	want := ": alice (White) ran out of time: the computer played 1 for them (1 of 3 in a row before the game is lost).\nbob (Black) to move"
	if len(texts) != 2 || !strings.HasPrefix(texts[0], want) || !strings.HasPrefix(texts[1], "bob: bob, it is your turn") {
		t.Fatalf("auto-move notices:\n%s", strings.Join(texts, "\n"))
	}
	// A challenge nobody answers lapses after a day.
	other := chat.Message{Key: sessions.Key{Platform: "test", Channel: "other"}, User: user("carol"), Text: "/play count"}
	f.h.Handle(ctx, other)
	f.clk.Add(25 * time.Hour)
	f.svc.Tick(ctx)
	for _, n := range f.n.take() {
		if n.Kind == sessions.NoticeExpired {
			if got := f.h.NoticeReply(n).Text(); !strings.Contains(got, "carol's challenge to Counting game lapsed") {
				t.Fatalf("expiry: %q", got)
			}
			return
		}
	}
	t.Fatal("no notice of the lapsed challenge")
}

func TestDuplicateMessage(t *testing.T) {
	f := newRecFixture(t)
	f.expect("alice", "/play count @bob color=white", "challenges", false)
	f.expect("bob", "/accept", "Game on", false)
	m := chat.Message{Key: key, User: user("alice"), Text: "/move 2", ID: "update-7"}
	if r := f.h.Handle(ctx, m); r.Error {
		t.Fatal(r.Text())
	}
	r := f.h.Handle(ctx, m)
	if !r.Duplicate || !r.Error || !strings.Contains(r.Text(), "Already done") {
		t.Fatalf("second delivery: %+v", r)
	}
	// The move was applied once: one move played, and "move" is singular.
	f.expect("alice", "/board", `^Counting game: alice \(White\) vs bob \(Black\), 1 move played; clock 1h per move, rated\.\n`, false)
}

// TestHalmaSeatsNameTheirColour: Halma's seats are numbered, so the chat
// names each with the colour of its pieces in the pictures.
func TestHalmaSeatsNameTheirColour(t *testing.T) {
	f := newRecFixture(t)
	f.expectExact("alice", "/play halma size=8 @bob color=white", "alice challenges bob to Halma (size=8); alice plays Player 1 (red); clock 1h per move, rated.\n"+
		"/accept to play, /decline to refuse; alice can /cancel.", false)
	f.expectExact("bob", "/accept", "Game on: Halma (size=8), alice (Player 1, red) vs bob (Player 2, blue); clock 1h per move, rated.\n"+
		"alice (Player 1, red) to move: /move <move> (/moves lists them).", false)
	f.expectExact("bob", "/move a1-b2", "It is alice's turn (Player 1, red), not yours: wait for their move; /board shows the game.", true)

	f = newRecFixture(t)
	f.expect("alice", "/play halma players=4 color=white", "alice plays Player 1 \\(red\\)", false)
	f.expectExact("bob", "/accept", "bob joins as Player 2 (blue); 2 more to /accept.", false)
	f.expectExact("carol", "/accept", "carol joins as Player 3 (green); 1 more to /accept.", false)
	f.expect("dave", "/accept", `^Game on: Halma \(players=4\), alice \(Player 1, red\) vs bob \(Player 2, blue\) vs carol \(Player 3, green\) vs dave \(Player 4, yellow\); clock 1h per move, unrated\.\n`, false)
}

// TestGamesShowsThePlatformsDefaultTime: /games tells the time per move a
// /play without time= gets here.
func TestGamesShowsThePlatformsDefaultTime(t *testing.T) {
	f := newRecFixture(t)
	r := f.expect("alice", "/games", "Games", false)
	want := "Every game also takes color=white|black|random (your seat, default random), rated=yes|no (default yes), " +
		"time=5m|10m|1h|1d|3d|off (time per move, default here 1h) and, against the computer (/play <game> bot), level=1..5 (default 3)."
	if last := r.Lines[len(r.Lines)-1]; last != want {
		t.Errorf("got  %s\nwant %s", last, want)
	}
	if h := f.h.DefaultTime("discord"); h != sessions.Duration(time.Hour) {
		t.Errorf("DefaultTime: %v", h)
	}
}

// TestGameOptionsEchoedAsTyped: a real game's refused option value is not
// capitalized either.
func TestGameOptionsEchoedAsTyped(t *testing.T) {
	f := newRecFixture(t)
	r := f.expect("alice", "/play dame flying=Maybe", "", true)
	if !strings.HasPrefix(r.Text(), "flying=") || !strings.HasSuffix(r.Text(), " /games lists the games and their options.") {
		t.Fatalf("got %q", r.Text())
	}
}

// TestChallengeShowsTheTerms: the one who accepts reads the clock and
// whether the game is rated in the challenge, the game's first board and
// /board.
func TestChallengeShowsTheTerms(t *testing.T) {
	f := newRecFixture(t)
	f.expect("alice", "/play count @bob time=1d rated=no", `alice challenges bob to Counting game; alice plays \w+; clock 1d per move, unrated\.`, false)
	f.expect("bob", "/board", `\(clock 1d per move, unrated\) is waiting for you`, false)
	f.expect("bob", "/accept", `^Game on: .*; clock 1d per move, unrated\.`, false)
	f.expect("bob", "/board", `played; clock 1d per move, unrated\.`, false)

	f = newRecFixture(t)
	f.expect("alice", "/play count @bob", `; clock 1h per move, rated\.`, false) // the platform's default
	f = newRecFixture(t)
	f.expect("alice", "/play count @bob time=off", `; no clock, rated\.`, false)
	f = newRecFixture(t)
	f.expect("alice", "/play count bot", `; clock 1h per move, unrated\.`, false)
}

// TestComputerNames: every name of the computer, in any case and with or
// without @, challenges the computer.
func TestComputerNames(t *testing.T) {
	for _, name := range []string{"bot", "@bot", "BOT", "computer", "@Computer", "@COMPUTER"} {
		f := newRecFixture(t)
		f.expect("alice", "/play count "+name, `^Game on: Counting game, .*Computer`, false)
	}
}
