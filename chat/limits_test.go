package chat_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// newLimited is a fixture whose handler has the bot's default rate limit
// (8 commands in 10 s in a chat, 30 a minute across chats) and caps, on a
// fake clock.
func newLimited(t *testing.T) (*fixture, *sessionstest.Clock) {
	store := sessionstest.NewMemoryStore()
	svc := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }, Caps: sessions.DefaultCaps()})
	clk := sessionstest.NewClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	return &fixture{t: t, store: store, h: chat.New(chat.Config{Sessions: svc, Rate: chat.DefaultRate(), Now: clk.Now})}, clk
}

// outcome names a reply: "answered", "notice: <text>", "dropped".
func outcome(r chat.Reply) string {
	switch {
	case r.Dropped && len(r.Lines) == 0:
		return "dropped"
	case r.Error && strings.HasPrefix(r.Text(), "Slow down"):
		return "notice: " + r.Text()
	case len(r.Lines) > 0 && !r.Dropped:
		return "answered"
	}
	return fmt.Sprintf("odd reply %+v", r)
}

// TestRateLimitOneNoticeThenSilence: a member who floods a chat with
// read-only commands has the first 8 answered, gets one notice saying
// when to try again, and then silence (nothing queued) until the bucket is
// full again; other users are not held back.
func TestRateLimitOneNoticeThenSilence(t *testing.T) {
	f, clk := newLimited(t)
	notice := "notice: Slow down: you are sending commands faster than anyone can read the answers. Try again in 10 seconds; until then your commands are ignored."
	for _, step := range []struct {
		after time.Duration // the clock moves on before the commands
		who   string
		n     int
		text  string
		want  []string // the outcomes in order; the last repeats
	}{
		{0, "mallory", 8, "/board", []string{"answered"}},
		{0, "mallory", 1, "/help", []string{notice}},
		{0, "mallory", 491, "/moves", []string{"dropped"}},
		{0, "carol", 3, "/help", []string{"answered"}},
		{5 * time.Second, "mallory", 100, "/nonsense", []string{"dropped"}},
		{4999 * time.Millisecond, "mallory", 1, "/board", []string{"dropped"}},
		// Ten seconds after the notice the bucket is full again.
		{time.Millisecond, "mallory", 8, "/board", []string{"answered"}},
		{0, "mallory", 2, "/board", []string{notice, "dropped"}},
	} {
		clk.Add(step.after)
		for i := range step.n {
			got := outcome(f.say(step.who, step.text))
			want := step.want[min(i, len(step.want)-1)]
			if got != want {
				t.Fatalf("%s's %s #%d: %s, want %s", step.who, step.text, i+1, got, want)
			}
		}
	}
}

// TestRateLimitAcrossChats: 30 commands a minute across chats; the 31st
// gets the notice (a minute to wait), whichever chat it is in.
func TestRateLimitAcrossChats(t *testing.T) {
	f, _ := newLimited(t)
	in := func(ch int) chat.Reply {
		return f.h.Handle(ctx, chat.Message{Key: sessions.Key{Platform: "test", Channel: fmt.Sprint("room", ch)}, User: user("mallory"), Text: "/help"})
	}
	for i := range 30 {
		if got := outcome(in(i % 6)); got != "answered" {
			t.Fatalf("command %d (5 a chat): %s", i+1, got)
		}
	}
	if got := outcome(in(7)); !strings.Contains(got, "Try again in 60 seconds") {
		t.Fatalf("the 31st in a new chat: %s, want the notice", got)
	}
	if got := outcome(in(8)); got != "dropped" {
		t.Fatalf("the 32nd: %s", got)
	}
}

// TestRateLimitNeverStopsAMove: players who flooded the chat (and are
// silenced) still play their moves, one per turn, at once; a second try
// in the same turn counts like any command.
func TestRateLimitNeverStopsAMove(t *testing.T) {
	f, clk := newLimited(t)
	f.expect("alice", "/play count @bob color=white target=1000", `challenges bob`, false)
	f.expect("bob", "/accept", `Game on`, false)
	for _, p := range []string{"alice", "bob"} {
		for f.say(p, "/board").Error == false {
		}
		if got := outcome(f.say(p, "/board")); got != "dropped" {
			t.Fatalf("%s after the flood: %s", p, got)
		}
	}
	// Forty moves at the same instant, each at its player's turn.
	for i := range 40 {
		p := []string{"alice", "bob"}[i%2]
		f.expect(p, "/move 1", `played 1`, false)
	}
	// alice, to move, tries a move the rules refuse: her first try of the
	// turn is answered; a second try in that turn counts, and she is still
	// silenced (until the bucket is full again).
	f.expect("alice", "/move 7", `not a legal move`, true)
	for _, text := range []string{"/move 7", "/move 2"} {
		if got := outcome(f.say("alice", text)); got != "dropped" {
			t.Fatalf("alice's second try in the same turn, %s, while silenced: %s", text, got)
		}
	}
	clk.Add(10 * time.Second)
	f.expect("alice", "/move 2", `played 2`, false)
	// bob, not to move, is silenced like anyone else once he floods.
	f.expect("bob", "/move 1", `played 1`, false)
	for f.say("bob", "/move 1").Error {
	}
	if got := outcome(f.say("bob", "/move 1")); got != "dropped" {
		t.Fatalf("moves out of turn: %s", got)
	}
}

// TestCapRefusals: the 11th open challenge and the 4th game against the
// computer are refused in one line that says how many, the most, and
// where to finish or cancel one; nothing is stored.
func TestCapRefusals(t *testing.T) {
	f, clk := newLimited(t)
	say := func(ch, text string) chat.Reply {
		clk.Add(time.Minute) // a person's pace: the rate limit stays out of it
		return f.h.Handle(ctx, chat.Message{Key: sessions.Key{Platform: "test", Channel: ch}, User: user("alice"), Text: text})
	}
	for i := range 10 {
		if r := say(fmt.Sprint("c", i), "/play count"); r.Error {
			t.Fatalf("challenge %d: %s", i+1, r.Text())
		}
	}
	r := say("room", "/play count")
	// (The test platform's places have no names: the count says how many.)
	want := "You have 10 open challenges and the most is 10: /cancel one (10 other chats) or wait for an answer, then /play again."
	if r.Text() != want || !r.Error {
		t.Errorf("the 11th challenge:\n got %q\nwant %q", r.Text(), want)
	}
	for i := range 3 {
		if r := say(fmt.Sprint("bot", i), "/play count bot"); r.Error {
			t.Fatalf("computer game %d: %s", i+1, r.Text())
		}
	}
	r = say("bot3", "/play count bot")
	want = "You are playing 3 games against the computer and the most at once is 3: finish one or /resign it (3 other chats), then /play again."
	if r.Text() != want || !r.Error {
		t.Errorf("the 4th computer game:\n got %q\nwant %q", r.Text(), want)
	}
	live, _ := f.store.Live(ctx)
	if len(live) != 13 {
		t.Errorf("%d live sessions, want 13 (10 challenges, 3 games)", len(live))
	}
}
