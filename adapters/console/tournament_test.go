package console_test

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// tourConsole is a console on one service whose tournaments open their
// games in places of the channel "club" (console.Places); each call of
// type runs the console on some lines, as people type them, and returns
// what it printed.
type tourConsole struct {
	t    *testing.T
	h    *chat.Handler
	n    *console.Notifier
	pics string
	r    *render.Renderer
}

func newTourConsole(t *testing.T) *tourConsole {
	n := console.NewNotifier()
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Notifier: n, Rand: func(int) int { return 0 },
		Places: sessions.PlaceSet{console.Platform: console.Places{}}})
	return &tourConsole{t: t, h: chat.New(chat.Config{Sessions: svc}), n: n, pics: t.TempDir(), r: render.New()}
}

func (c *tourConsole) typeLines(lines ...string) string {
	c.t.Helper()
	var out bytes.Buffer
	err := console.Run(ctx, console.Config{Handler: c.h, In: strings.NewReader(strings.Join(lines, "\n") + "\n"), Out: &out,
		As: "alice", Channel: "club", Notices: c.n, PictureDir: c.pics,
		DrawStandings: func(p *chat.StandingsPicture) ([]byte, error) { return c.r.Standings(p.Table, render.Options{}) }})
	if err != nil {
		c.t.Fatal(err)
	}
	return out.String()
}

// mustSee fails unless out holds every line of want, in that order.
func mustSee(t *testing.T, what, out string, want ...string) {
	t.Helper()
	rest := out
	for _, w := range want {
		i := strings.Index(rest, w+"\n")
		if i < 0 {
			t.Fatalf("%s: no line %q (in order) in:\n%s", what, w, out)
		}
		rest = rest[i+len(w):]
	}
}

// pairing is one game of a round as the pairings list shows it.
type pairing struct{ board, white, black, place string }

var pairingRe = regexp.MustCompile(`(?m)^Board (\d): (\w+) \(White\) vs (\w+) \(Black\), in /go (t1-r(\d)-[\w-]+)\.$`)

// pairingsOf reads the pairings of round n that out shows.
func pairingsOf(t *testing.T, out string, n int) []pairing {
	t.Helper()
	var ps []pairing
	for _, m := range pairingRe.FindAllStringSubmatch(out, -1) {
		if m[5] == fmt.Sprint(n) {
			ps = append(ps, pairing{m[1], m[2], m[3], m[4]})
		}
	}
	if len(ps) != 3 {
		t.Fatalf("round %d: %d pairings shown, want 3:\n%s", n, len(ps), out)
	}
	return ps
}

// TestTournamentSwissOfSix: six people run a Swiss of three rounds on the
// console from sign-up to the final standings: the organiser opens it,
// all six join, the organiser starts it; each game is played in its own
// place (/go), won on the board, drawn or resigned; after each round the
// console shows the results, the standings (text and picture) and the
// next pairings; at the end the final standings, and /tournament show
// lists every game, each of which /show finds.
func TestTournamentSwissOfSix(t *testing.T) {
	c := newTourConsole(t)
	players := []string{"alice", "bob", "carol", "dave", "erin", "frank"}
	lines := []string{"/tournament start", "/tournament new spanish rounds=3 time=1h", "/tournament new spanish"}
	for _, p := range players {
		lines = append(lines, "/as "+p, "/tournament join")
	}
	lines = append(lines, "/as bob", "/tournament start", "/as alice", "/tournament standings", "/tournament start")
	out := c.typeLines(lines...)
	mustSee(t, "sign-up", out,
		"alice> /tournament start", "No tournament is open here: /tournament new <game> opens one (/help tournament).",
		"alice opens tournament #1: Spanish draughts, Swiss, 3 rounds; clock 1h per move, rated.",
		"alice> /tournament new spanish", "A tournament is already open in this channel: /tournament standings shows it, and its organiser can /tournament cancel it.",
		"alice joins tournament #1: 1 player (alice).",
		"frank joins tournament #1: 6 players (alice, bob, carol, dave, erin and frank).",
		"bob> /tournament start", "Only the tournament's organiser (or an administrator of this server or group) can do that: /tournament standings shows the tournament.",
		"Tournament #1, sign-up open: Spanish draughts, Swiss, 3 rounds; clock 1h per move, rated.",
		"6 players: alice, bob, carol, dave, erin and frank.",
		"alice> /tournament start", "Tournament #1 begins: 6 players, Swiss, 3 rounds.", "Tournament #1, round 1 of 3: the pairings.")
	round := pairingsOf(t, out, 1)
	for _, p := range round { // each game's first board, posted in its place
		mustSee(t, "round 1 opened", out, "In "+p.place+" (/go "+p.place+"):",
			fmt.Sprintf("Tournament #1, round 1, board %s: Spanish draughts, %s (White) vs %s (Black); clock 1h per move, rated.", p.board, p.white, p.black),
			p.white+" (White) to move: /move <move> (/moves lists them).")
	}

	seen := map[string]bool{} // every game id the results give
	for n := 1; n <= 3; n++ {
		// Board 1: White moves and Black resigns; board 2: a draw;
		// board 3: White resigns.
		var ls []string
		for i, p := range round {
			ls = append(ls, "/go "+p.place, "/as "+p.white)
			switch i {
			case 0:
				ls = append(ls, "/move b3-a4", "/as "+p.black, "/resign")
			case 1:
				ls = append(ls, "/draw", "/as "+p.black, "/draw")
			default:
				ls = append(ls, "/resign")
			}
		}
		out = c.typeLines(ls...)
		p := round[0]
		mustSee(t, fmt.Sprintf("round %d", n), out, "alice> /go "+p.place, "You are now in "+p.place+"; /go alone goes back to the channel.",
			p.white+"@"+p.place+"> /move b3-a4", p.black+"@"+p.place+"> /resign")
		results := regexp.MustCompile(fmt.Sprintf(`(?m)^Board %s: %s 1-0 %s \(game #(\d+)\)\.\nBoard %s: %s ½-½ %s \(game #(\d+)\)\.\nBoard %s: %s 0-1 %s \(game #(\d+)\)\.$`,
			round[0].board, round[0].white, round[0].black, round[1].board, round[1].white, round[1].black, round[2].board, round[2].white, round[2].black)).FindStringSubmatch(out)
		if results == nil {
			t.Fatalf("round %d: no results of the three games:\n%s", n, out)
		}
		for _, id := range results[1:] {
			seen[id] = true
		}
		if n < 3 {
			mustSee(t, fmt.Sprintf("round %d over", n), out, "In the channel club (/go):", fmt.Sprintf("Tournament #1: round %d of 3 is over.", n),
				fmt.Sprintf("Standings of tournament #1 after round %d of 3:", n), "#  Player  Pts  Bh  SB  Wins",
				"Picture: "+filepath.Join(c.pics, fmt.Sprintf("tournament-1-round-%d.png", n)),
				fmt.Sprintf("Tournament #1, round %d of 3: the pairings.", n+1))
			checkPNG(t, filepath.Join(c.pics, fmt.Sprintf("tournament-1-round-%d.png", n)))
			round = pairingsOf(t, out, n+1)
			met := map[string]bool{}
			for _, p := range round {
				if met[p.white] || met[p.black] {
					t.Fatalf("round %d pairs a player twice: %v", n+1, round)
				}
				met[p.white], met[p.black] = true, true
			}
			continue
		}
		mustSee(t, "the end", out, "In the channel club (/go):", "Tournament #1 is over after 3 rounds.", "Final standings of tournament #1:",
			"#  Player  Pts  Bh  SB  Wins", "Picture: "+filepath.Join(c.pics, "tournament-1.png"))
		if !regexp.MustCompile(`(?m)^\w+ wins the tournament, scoring \d½? of 3\.$`).MatchString(out) {
			t.Errorf("no winner:\n%s", out)
		}
		checkPNG(t, filepath.Join(c.pics, "tournament-1.png"))
	}
	if len(seen) != 9 {
		t.Fatalf("%d game ids in the results, want 9: %v", len(seen), seen)
	}

	// Later, anywhere: the standings here, the whole tournament by its id,
	// and each of its games.
	ls := []string{"/tournament standings", "/go elsewhere", "/tournament show 1"}
	for id := range seen {
		ls = append(ls, "/show "+id)
	}
	out = c.typeLines(ls...)
	mustSee(t, "show", out, "Final standings of tournament #1:",
		"Tournament #1: Spanish draughts, Swiss, 3 rounds; clock 1h per move, rated. Organised by alice; 6 players; finished.",
		"Round 1:", "Round 2:", "Round 3:", "Final standings of tournament #1:")
	table := regexp.MustCompile(`(?m)^#  Player  Pts  Bh  SB  Wins\n((?:\d.*\n){6})`).FindStringSubmatch(out)
	if table == nil {
		t.Fatalf("no table of six rows:\n%s", out)
	}
	halves := 0
	for _, row := range strings.Split(strings.TrimSpace(table[1]), "\n") {
		pts := strings.Fields(row)[2]
		if strings.HasSuffix(pts, "½") {
			halves++
			pts = strings.TrimSuffix(pts, "½")
		}
		var n int
		fmt.Sscan(pts, &n)
		halves += 2 * n
	}
	if halves != 18 {
		t.Errorf("the standings share %d half points, want 18 (nine games):\n%s", halves, table[0])
	}
	show := out[strings.Index(out, "alice@elsewhere> /tournament show 1"):]
	show = show[:strings.Index(show, "alice@elsewhere> /show")]
	for id := range seen {
		if !strings.Contains(show, "(game #"+id+")") {
			t.Errorf("/tournament show 1 does not list game #%s:\n%s", id, show)
		}
		if !regexp.MustCompile(`(?m)^Game #` + id + `, Spanish draughts: \w+ \(White\) vs \w+ \(Black\)\.$`).MatchString(out) {
			t.Errorf("/show %s does not show the game:\n%s", id, out)
		}
	}
}

// checkPNG fails unless path is a PNG picture.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("%s: %v", path, err)
	}
}

// TestGoPlaces: /go takes one place's name and the prompt shows it; /go
// alone comes back to the channel; anything else is refused, and the
// speaker stays where they were.
func TestGoPlaces(t *testing.T) {
	c := newTourConsole(t)
	out := c.typeLines("/go t1-r1-alice-bob", "/board", "/go a b", "/go ../x", "/go", "/go")
	mustSee(t, "go", out,
		"alice> /go t1-r1-alice-bob", "You are now in t1-r1-alice-bob; /go alone goes back to the channel.",
		"alice@t1-r1-alice-bob> /board", "No game is being played here: /play <game> @user starts one (/games lists the games).",
		"alice@t1-r1-alice-bob> /go a b", `"a b" is not a place: /go t1-r1-alice-bob (the pairings say where each game is), or /go alone for the channel.`,
		"alice@t1-r1-alice-bob> /go ../x", `"../x" is not a place: /go t1-r1-alice-bob (the pairings say where each game is), or /go alone for the channel.`,
		"alice@t1-r1-alice-bob> /go", "You are back in the channel club.",
		"alice> /go", "You are back in the channel club.")
}
