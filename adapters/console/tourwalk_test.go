package console_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/chat/chattest"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/sessions/tournament"
)

// relay passes the notices to the console once it runs; before (while a
// test builds a tournament's state) they are dropped.
type relay struct {
	to atomic.Pointer[console.Notifier]
}

func (r *relay) Notify(ctx context.Context, n sessions.Notice) {
	if to := r.to.Load(); to != nil {
		to.Notify(ctx, n)
	}
}

// walk is a tournament in one state, on a service of its own, in the
// pseudo-language: olga organises it, bob, carol and dave play, erin
// joined and left, adam manages the place, zed never joined.
type walk struct {
	t   *testing.T
	h   *chat.Handler
	svc *sessions.Service
	rl  *relay
}

var club = sessions.Key{Platform: console.Platform, Channel: "club"}

// pseudo is the pseudo-language, loaded once for every walk.
var pseudo = sync.OnceValues(chattest.Pseudo)

func newWalk(t *testing.T) *walk {
	t.Helper()
	w, err := pseudo()
	if err != nil {
		t.Fatal(err)
	}
	rl := &relay{}
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Notifier: rl, Rand: func(int) int { return 0 },
		Places: sessions.PlaceSet{console.Platform: console.Places{}}})
	t.Cleanup(svc.Close)
	return &walk{t: t, h: chat.New(chat.Config{Sessions: svc, Catalogues: w}), svc: svc, rl: rl}
}

// do has who type text in the club; it fails the test on a refusal.
func (w *walk) do(who, text string) {
	w.t.Helper()
	r := w.h.Handle(ctx, chat.Message{Key: club, User: sessions.User{ID: who, Name: who}, Text: text})
	if r.Error {
		w.t.Fatalf("building the state: %s %q refused: %s", who, text, r.Text())
	}
}

// finishPending ends every game under way of the tournament's last round:
// its White resigns.
func (w *walk) finishPending() {
	w.t.Helper()
	ev, err := w.svc.TournamentHere(ctx, club)
	if err != nil {
		w.t.Fatal(err)
	}
	t := ev.Tournament
	for _, g := range t.Played[len(t.Played)-1].Games {
		if g.Result != tournament.Pending || g.Key == (sessions.Key{}) {
			continue
		}
		r := w.h.Handle(ctx, chat.Message{Key: g.Key, User: sessions.User{ID: g.White, Name: g.White}, Text: "/resign"})
		if r.Error {
			w.t.Fatalf("resigning %v: %s", g.Key, r.Text())
		}
	}
}

// tourStates build each state of a tournament.
var tourStates = []struct {
	name  string
	build func(w *walk)
}{
	{"none", func(w *walk) {}},
	{"sign-up", func(w *walk) {
		w.do("olga", "/tournament new spanish rounds=2")
		for _, p := range []string{"bob", "carol", "dave", "erin"} {
			w.do(p, "/tournament join")
		}
		w.do("erin", "/tournament leave")
	}},
	{"running mid-round", midRound},
	{"between rounds", func(w *walk) {
		midRound(w)
		w.finishPending() // round 1 over, round 2 paired, nothing played yet
	}},
	{"finished", func(w *walk) {
		midRound(w)
		w.finishPending()
		w.finishPending()
	}},
	{"cancelled", func(w *walk) {
		midRound(w)
		w.do("olga", "/tournament cancel")
	}},
}

// midRound: the four started, erin left during round 1 (her game
// resigned), the other game of round 1 under way.
func midRound(w *walk) {
	w.do("olga", "/tournament new spanish rounds=2")
	for _, p := range []string{"bob", "carol", "dave", "erin"} {
		w.do(p, "/tournament join")
	}
	w.do("olga", "/tournament start")
	w.do("erin", "/tournament leave")
}

// tourPlayers are the player states: who types, and whether the platform
// says they manage the place.
var tourPlayers = []struct {
	state, who string
	manager    bool
}{
	{"not joined", "zed", false},
	{"joined", "bob", false},
	{"left", "erin", false},
	{"organiser", "olga", false},
	{"administrator", "adam", true},
}

// tourCommands are every /tournament subcommand, with good and bad
// arguments.
var tourCommands = []string{
	"/tournament new spanish rounds=2", "/tournament new", "/tournament new spanish format=knockout", "/tournament new halma players=4",
	"/tournament new spanish rounds=99", "/tournament new spanish colour=white",
	"/tournament join", "/tournament join now",
	"/tournament leave", "/tournament leave now",
	"/tournament start", "/tournament start now",
	"/tournament standings", "/tournament standings 1",
	"/tournament show 1", "/tournament show", "/tournament show x1", "/tournament show 99",
	"/tournament cancel", "/tournament cancel now",
	"/tournament", "/tournament knockout",
}

// notWorded matches what the bot says when a command failed unexpectedly.
var notWorded = regexp.MustCompile(`(?i)something went wrong|could not save|not possible now`)

// TestTournamentCommandsWorded walks every /tournament subcommand, with
// good and bad arguments, from every state of a tournament (none, sign-up,
// running mid-round, between rounds, finished, cancelled) and every
// player's (not joined, joined, left, organiser, administrator): each is
// answered with lines of the catalogue, never a panic nor "something went
// wrong", and a refusal changes nothing. Through the chat handler (which
// every platform calls; the administrator is a platform's say) and, for
// the others, typed on the console (not with -short).
func TestTournamentCommandsWorded(t *testing.T) {
	for _, st := range tourStates {
		for _, p := range tourPlayers {
			for _, cmd := range tourCommands {
				w := newWalk(t)
				st.build(w)
				before := w.tour()
				r := w.h.Handle(ctx, chat.Message{Key: club, User: sessions.User{ID: p.who, Name: p.who}, Text: cmd, Manager: p.manager})
				what := st.name + ", " + p.state + ": " + cmd
				checkWorded(t, what, r.Lines, r.Table)
				if after := w.tour(); r.Error && !sameTour(before, after) {
					t.Errorf("%s: refused, but the tournament changed:\n%+v\n%+v", what, before, after)
				}
				if p.manager || testing.Short() {
					continue // the console knows no administrators; -short walks the handler only
				}
				w = newWalk(t)
				st.build(w)
				out := w.typed(p.who, cmd)
				checkWorded(t, what+" (console)", out, chat.Span{})
			}
		}
	}
}

// typed runs the console on one line typed by who, and returns what it
// printed after the line's echo (notices too).
func (w *walk) typed(who, line string) []string {
	w.t.Helper()
	n := console.NewNotifier()
	w.rl.to.Store(n)
	var out bytes.Buffer
	err := console.Run(ctx, console.Config{Handler: w.h, In: strings.NewReader(line + "\n"), Out: &out, As: who, Channel: "club", Notices: n})
	if err != nil {
		w.t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) == 0 || lines[0] != who+"> "+line {
		w.t.Fatalf("the console printed:\n%s", out.String())
	}
	return lines[1:]
}

// tour returns the club's tournament as stored (nil for none).
func (w *walk) tour() *sessions.Tournament {
	ev, err := w.svc.TournamentHere(ctx, club)
	if err != nil {
		return nil
	}
	return ev.Tournament
}

// sameTour reports whether two readings of a tournament are the same
// record.
func sameTour(a, b *sessions.Tournament) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ID == b.ID && a.Rev == b.Rev
}

var (
	textBoard = regexp.MustCompile(`^\s*(\d+ .* \d+|[a-p](\s+[a-p])+)\s*$`)
	tableRow  = regexp.MustCompile(`^\s*\d+\s+\S+.*\s\d+$`)
)

// checkWorded fails unless lines says something, every line (the text
// board, the table's rows and the console's own place lines aside) from
// the catalogue, and none says the command failed unexpectedly.
func checkWorded(t *testing.T, what string, lines []string, table chat.Span) {
	t.Helper()
	said := 0
	for i, l := range lines {
		if l == "" || textBoard.MatchString(l) || (i >= table.From && i < table.To) || tableRow.MatchString(l) {
			continue
		}
		said++
		if !chattest.FromCatalogue(l) {
			t.Errorf("%s: line not from the catalogue: %q", what, l)
		}
		if notWorded.MatchString(l) {
			t.Errorf("%s: %q", what, l)
		}
	}
	if said == 0 {
		t.Errorf("%s: nothing said: %q", what, lines)
	}
}
