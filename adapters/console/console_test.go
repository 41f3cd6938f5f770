package console_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
	"github.com/boardgamebot/bot/storage/bolt"
)

var ctx = context.Background()

// run plays lines in a console on the database at db (with the real games,
// or the count game when count is set) and returns what it printed.
func run(t *testing.T, db string, lines []string, o runOpts) string {
	t.Helper()
	store, err := bolt.Open(db, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cfg := sessions.Config{Store: store, Rand: func(int) int { return 0 }, Places: sessions.PlaceSet{console.Platform: console.Places{}}}
	if o.count {
		cfg.Games = sessionstest.Games
	}
	svc := sessions.New(cfg)
	var out bytes.Buffer
	cc := console.Config{Handler: chat.New(chat.Config{Sessions: svc}), In: strings.NewReader(strings.Join(lines, "\n") + "\n"),
		Out: &out, As: "alice", Prompt: o.prompt}
	if o.pictures != "" {
		r := render.New()
		cc.PictureDir = o.pictures
		cc.Draw = func(p *chat.Picture) ([]byte, error) {
			return r.PNG(p.View, p.Last, p.Viewer, render.Options{Numbers: p.View.Numbers != nil})
		}
	}
	if err := console.Run(ctx, cc); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

type runOpts struct {
	count    bool
	prompt   bool
	pictures string
}

var names = []string{"alice", "bob", "carol", "dave"}

// TestWholeGames plays a whole game of every game through the console, on
// a bbolt file, stopping the console in the middle and starting a new one on
// the same file (a restart), which must go on from the same position.
func TestWholeGames(t *testing.T) {
	for _, tc := range []struct {
		name, game, opts string
		forms            []string
		seed             uint64
		huffs            bool
	}{
		{name: "spanish", game: "spanish", seed: 1},
		{name: "damas", game: "damas", seed: 2},
		{name: "damas-huff", game: "damas", opts: "huff=yes", seed: 3, huffs: true},
		{name: "dame", game: "dame", seed: 4},
		{name: "dame-short-kings", game: "dame", opts: "flying=no", seed: 5},
		{name: "ultradamas-default", game: "ultradamas", forms: []string{"default", "default"}, seed: 6},
		{name: "ultradamas-formations", game: "ultradamas",
			forms: []string{"a1 b1 c1 d1 e1 f1 g1 h1 a2 c2 e2 g2", "a8 b8 c8 d8 e8 f8 g8 h8 b7 d7 f7 h7"}, seed: 7},
		{name: "halma-8", game: "halma", opts: "size=8", seed: 8},
		{name: "halma-16-four-players", game: "halma", opts: "size=16 players=4", seed: 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := map[string]string{}
			for _, kv := range strings.Fields(tc.opts) {
				k, v, _ := strings.Cut(kv, "=")
				opts[k] = v
			}
			g, err := games.New(tc.game, opts)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.game, tc.opts, err)
			}
			script, outcome := autoplay(t, g, tc.forms, tc.seed, 3000, tc.huffs)
			seats := len(g.Seats())
			// label names a seat as the chat does: Halma's numbered seats
			// with the colour of their camp (red, blue, green, yellow).
			label := func(seat int) string {
				if tc.game == "halma" {
					return g.Seats()[seat] + ", " + []string{"red", "blue", "green", "yellow"}[seat]
				}
				return g.Seats()[seat]
			}
			lines := []string{"/as alice"}
			if seats == 2 {
				lines = append(lines, fmt.Sprintf("/play %s %s @bob color=white", tc.game, tc.opts), "/as bob", "/accept")
			} else {
				lines = append(lines, fmt.Sprintf("/play %s %s color=white", tc.game, tc.opts))
				for _, n := range names[1:seats] {
					lines = append(lines, "/as "+n, "/accept")
				}
			}
			half := len(script) / 2
			var first, second []string
			first = append(first, lines...)
			for i, s := range script {
				l := []string{"/as " + names[s.seat], s.cmd}
				if i < half {
					first = append(first, l...)
				} else {
					second = append(second, l...)
				}
			}
			first = append(first, "/board")
			second = append([]string{"/board"}, second...)
			db := filepath.Join(t.TempDir(), "bot.db")
			out1 := run(t, db, first, runOpts{})
			out2 := run(t, db, second, runOpts{})
			out := out1 + out2

			// Every move was played, in order, by the right seat.
			pos, huffs := 0, 0
			for i, s := range script {
				want := fmt.Sprintf("%s (%s) played %s.\n", names[s.seat], label(s.seat), strings.TrimPrefix(s.cmd, "/move "))
				if sq, ok := strings.CutPrefix(s.cmd, "/huff "); ok {
					huffs++
					want = fmt.Sprintf("%s (%s) huffs the piece on %s; now %s plays a move.\n", names[s.seat], label(s.seat), sq, names[s.seat])
				}
				if strings.HasPrefix(s.cmd, "/setup") {
					want = fmt.Sprintf("%s (%s) has chosen a formation.\n", names[s.seat], label(s.seat))
				}
				at := strings.Index(out[pos:], want)
				if at < 0 {
					t.Fatalf("step %d (%s) not acknowledged; output from there:\n%.2000s", i, s.cmd, out[pos:])
				}
				pos += at + len(want)
			}
			// The restart went on from the same position.
			fens := regexp.MustCompile(`(?m)^FEN: (.*)$`).FindAllStringSubmatch(out, -1)
			if len(fens) != 2 || fens[0][1] != fens[1][1] || fens[0][1] != script[half-1].fen {
				t.Fatalf("FEN before and after the restart: %q, want %q", fens, script[half-1].fen)
			}
			// The end is announced with the rules' outcome.
			why := map[rules.Reason]string{rules.NoPieces: "no pieces left", rules.NoMove: "no legal move",
				rules.Repetition: "threefold repetition", rules.FewKings: "kings only, equal and few",
				rules.KingMoves: "40 moves with kings only", rules.ThreeKings: "three kings against one for 13 moves",
				rules.QuietPlies: "80 plies without capture or promotion", rules.CampFilled: "camp filled"}[outcome.Reason]
			want := "Game over: draw (" + why + ")."
			if outcome.Winner >= 0 {
				want = fmt.Sprintf("Game over: %s (%s) wins (%s).", names[outcome.Winner], label(outcome.Winner), why)
			}
			if !strings.Contains(out2, want+" Saved as game #1.") {
				t.Fatalf("the end: want %q; output ends:\n%s", want, tail(out2, 1500))
			}
			// The finished game is stored whole, and the channel is free.
			store, err := bolt.Open(db, bolt.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			h, err := store.History(ctx, sessions.HistoryQuery{Key: sessions.Key{Platform: "console", Channel: "terminal"}})
			if err != nil || len(h) != 1 || len(h[0].Actions) != len(script) || h[0].Result.Winner != outcome.Winner {
				t.Fatalf("history: %v, %v", h, err)
			}
			if live, _ := store.Live(ctx); len(live) != 0 {
				t.Fatalf("%d live sessions after the end", len(live))
			}
			if tc.huffs && huffs == 0 {
				t.Error("no huff in the damas game with huff=yes")
			}
			t.Logf("%d steps (%d huffs), %s", len(script), huffs, want)
		})
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// TestExampleFromTheREADME is the session the README shows.
func TestExampleFromTheREADME(t *testing.T) {
	if _, err := games.New("spanish", nil); err != nil {
		t.Fatalf("spanish: %v", err)
	}
	dir := t.TempDir()
	out := run(t, filepath.Join(dir, "bot.db"), []string{
		"/play spanish @bob color=white", "/as bob", "/accept", "/as alice", "/move b3-a4", "/as bob", "/move 22-18",
	}, runOpts{pictures: filepath.Join(dir, "pictures")})
	want := `alice> /play spanish @bob color=white
alice challenges bob to Spanish draughts; alice plays White; no clock, rated.
/accept to play, /decline to refuse; alice can /cancel.
alice> /as bob
You are now bob.
bob> /accept
Game on: Spanish draughts, alice (White) vs bob (Black); no clock, rated.
alice (White) to move: /move <move> (/moves lists them).
   a  b  c  d  e  f  g  h
 8 b     b     b     b     8
 7    b     b     b     b  7
 6 b     b     b     b     6
 5    .     .     .     .  5
 4 .     .     .     .     4
 3    w     w     w     w  3
 2 w     w     w     w     2
 1    w     w     w     w  1
   a  b  c  d  e  f  g  h
Picture: PICS/board-0001.png
bob> /as alice
You are now alice.
alice> /move b3-a4
alice (White) played b3-a4.
bob (Black) to move: /move <move> (/moves lists them).
   h  g  f  e  d  c  b  a
 1 w     w     w     w     1
 2    w     w     w     w  2
 3 w     w     w     .     3
 4    .     .     .     w  4
 5 .     .     .     .     5
 6    b     b     b     b  6
 7 b     b     b     b     7
 8    b     b     b     b  8
   h  g  f  e  d  c  b  a
Picture: PICS/board-0002.png
alice> /as bob
You are now bob.
bob> /move 22-18
bob (Black) played e6-f5.
`
	want = strings.ReplaceAll(want, "PICS", filepath.Join(dir, "pictures"))
	if !strings.HasPrefix(out, want) {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
	f, err := os.Open(filepath.Join(dir, "pictures", "board-0002.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() < 100 {
		t.Fatalf("picture: %v %v", img, err)
	}
}

func TestSpeakersAndBadLines(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	out := run(t, db, []string{
		"/as",
		"/as bob carol",
		"/as b\xffb",
		"/as " + strings.Repeat("x", 40),
		"/as bob!",
		"/play count @bob color=white target=3",
		"/move \x07 1",
		"/" + strings.Repeat("m", 100*1024),
		"\xff\xfe",
		"",
		"/as @bob",
		"/accept",
		"/as alice\r",
		"/m 2",
		"/as bob",
		"/m 1",
	}, runOpts{count: true})
	for _, want := range []string{
		"alice> /as\n/as takes one name: /as bob (you are alice).\n",
		"alice> /as b?b\nA name must be valid UTF-8 text: /as bob.\n",
		"alice> /as " + strings.Repeat("x", 40) + "\nA name is at most 32 letters: /as bob.\n",
		"alice> /as bob!\nA name may hold only letters, digits, '_', '-' and '.': /as bob.\n",
		"That message contains control characters",
		"That message is too long (102401 bytes",
		"alice> /" + strings.Repeat("m", 199) + "…",
		"… (102401 bytes)",
		"That message is not valid UTF-8",
		"You are now bob.",
		"Game on: Counting game, alice (White) vs bob (Black); no clock, rated.",
		"You are now alice.\nalice> /m 2\nalice (White) played 2.",
		"Game over: bob (Black) wins (target reached). Saved as game #1.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(tail(out, 3000))
	}
}

func TestPromptMode(t *testing.T) {
	out := run(t, filepath.Join(t.TempDir(), "bot.db"), []string{"/help move", "/as bob"}, runOpts{count: true, prompt: true})
	want := "alice> /move <move>: play a move, like /move c3-d4 or /m 11-15.\n"
	if !strings.HasPrefix(out, want) || !strings.Contains(out, "You are now bob.\nbob> \n") {
		t.Fatalf("got %q", out)
	}
}

func TestStopsWhenContextIsDone(t *testing.T) {
	store, err := bolt.Open(filepath.Join(t.TempDir(), "bot.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games})
	r, w := io.Pipe() // never closed: only the context can stop Run
	defer w.Close()
	c, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() {
		done <- console.Run(c, console.Config{Handler: chat.New(chat.Config{Sessions: svc}), In: r, Out: io.Discard, As: "alice"})
	}()
	fmt.Fprintln(w, "/help")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop after the context was cancelled")
	}
}

func TestBadSpeaker(t *testing.T) {
	err := console.Run(ctx, console.Config{In: strings.NewReader(""), Out: io.Discard, As: "a b"})
	if err == nil || !strings.Contains(err.Error(), `--as "a b"`) {
		t.Fatalf("got %v", err)
	}
}

func TestBoardText(t *testing.T) {
	// Halma with four seats: the seats' names begin alike, so each piece
	// is the initial of its colour in the pictures (not a digit, which
	// would read like the rank numbers beside it), with a key.
	sq := func(f, r int) rules.Square { return rules.Square{File: int8(f), Rank: int8(r)} }
	v := rules.View{Size: 4, Camps: [][]rules.Square{{sq(0, 0)}, {sq(3, 3)}, {sq(0, 3)}, {sq(3, 0)}}, Pieces: []rules.Piece{
		{Square: sq(0, 0), Seat: 0, Level: 1},
		{Square: sq(3, 3), Seat: 1, Level: 1},
		{Square: sq(0, 3), Seat: 2, Level: 1},
		{Square: sq(3, 0), Seat: 3, Level: 1},
	}}
	want := "" +
		"   a  b  c  d\n" +
		" 4 g  .  .  b  4\n" +
		" 3 .  .  .  .  3\n" +
		" 2 .  .  .  .  2\n" +
		" 1 r  .  .  y  1\n" +
		"   a  b  c  d\n" +
		"r = Player 1, b = Player 2, g = Player 3, y = Player 4\n"
	if got := console.Board(v, []string{"Player 1", "Player 2", "Player 3", "Player 4"}, 0); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Ultradamas stacks: level, carried piece; the columns widen to keep
	// them apart.
	v = rules.View{Size: 4, Pieces: []rules.Piece{
		{Square: sq(0, 0), Seat: 0, Level: 2},
		{Square: sq(1, 0), Seat: 1, Level: 5, Carries: 2},
		{Square: sq(2, 0), Seat: 0, Level: 3},
		{Square: sq(3, 3), Seat: 1, Level: 1},
	}}
	want = "" +
		"   a   b   c   d\n" +
		" 4 .   .   .   b   4\n" +
		" 3 .   .   .   .   3\n" +
		" 2 .   .   .   .   2\n" +
		" 1 R   B5+ R3  .   1\n" +
		"   a   b   c   d\n"
	if got := console.Board(v, []string{"Red", "Black"}, 0); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestBoardFromTheViewersSide: the text board is turned as the pictures
// are: Black sees rank 8 at the bottom, and each Halma seat of four its
// home corner at the bottom left (Player 2's camp a4 here, as a16 on the
// real board: a quarter turn anticlockwise, ranks along the columns and
// files down the rows).
func TestBoardFromTheViewersSide(t *testing.T) {
	sq := func(f, r int) rules.Square { return rules.Square{File: int8(f), Rank: int8(r)} }
	v := rules.View{Size: 4, Turn: 1, Pieces: []rules.Piece{{Square: sq(0, 0), Seat: 0, Level: 1}, {Square: sq(2, 3), Seat: 1, Level: 2}}}
	want := "" +
		"   d  c  b  a\n" +
		" 1 .  .  .  r  1\n" +
		" 2 .  .  .  .  2\n" +
		" 3 .  .  .  .  3\n" +
		" 4 .  B  .  .  4\n" +
		"   d  c  b  a\n"
	for _, viewer := range []int{1, -1} {
		if got := console.Board(v, []string{"Red", "Black"}, viewer); got != want {
			t.Errorf("viewer %d: got\n%s\nwant\n%s", viewer, got, want)
		}
	}
	h := rules.View{Size: 4, Turn: 0, Camps: [][]rules.Square{{sq(0, 0)}, {sq(0, 3)}, {sq(3, 3)}, {sq(3, 0)}}, Pieces: []rules.Piece{
		{Square: sq(0, 0), Seat: 0, Level: 1},
		{Square: sq(0, 3), Seat: 1, Level: 1},
		{Square: sq(3, 3), Seat: 2, Level: 1},
		{Square: sq(3, 0), Seat: 3, Level: 1},
	}}
	want = "" +
		"   4  3  2  1\n" +
		" d g  .  .  y  d\n" +
		" c .  .  .  .  c\n" +
		" b .  .  .  .  b\n" +
		" a b  .  .  r  a\n" +
		"   4  3  2  1\n" +
		"r = Player 1, b = Player 2, g = Player 3, y = Player 4\n"
	if got := console.Board(h, []string{"Player 1", "Player 2", "Player 3", "Player 4"}, 1); got != want {
		t.Errorf("Player 2: got\n%s\nwant\n%s", got, want)
	}
}

// TestNames: the computer's names are not for people, a name has a length
// and an alphabet, and a person keeps the first spelling of their name, in
// this run and after a restart.
func TestNames(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	out := run(t, db, []string{
		"/as bot",
		"/as Computer",
		"/as @COMPUTER",
		"/as @" + strings.Repeat("b", 200),
		"/play count @" + strings.Repeat("b", 200),
		"/as Bob",
		"/as bob",
		"/as alice",
		"/play count @BOB color=white target=1",
		"/as bob",
		"/accept",
		"/as alice",
		"/m 1",
	}, runOpts{count: true})
	for _, want := range []string{
		"alice> /as bot\n\"bot\" is the computer's name: /as bob.\n",
		"alice> /as Computer\n\"Computer\" is the computer's name: /as bob.\n",
		"alice> /as @COMPUTER\n\"COMPUTER\" is the computer's name: /as bob.\n",
		"A name is at most 32 letters: /as bob.\n",
		"is not a user: a name is at most 32 letters (/help play).\n",
		"alice> /as Bob\nYou are now Bob.\nBob> /as bob\nYou are now Bob.\n",
		"alice challenges Bob to Counting game",
		"Game on: Counting game, alice (White) vs Bob (Black)",
		"Game over: alice (White) wins",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(tail(out, 3000))
	}
	// After a restart the store remembers the spelling of a finished game,
	// and a running game the spelling of its players.
	out = run(t, db, []string{"/as BOB", "/play count @Carol color=white", "/as carol"}, runOpts{count: true})
	if !strings.Contains(out, "You are now Bob.\nBob> /play count @Carol") {
		t.Errorf("after a restart:\n%s", out)
	}
	out = run(t, db, []string{"/as CAROL", "/accept"}, runOpts{count: true})
	if !strings.Contains(out, "You are now Carol.\nCarol> /accept\nGame on: Counting game, Bob (White) vs Carol (Black)") {
		t.Errorf("after a restart, a running game:\n%s", out)
	}
}

// TestAsTheComputerIsRefused: --as cannot take the computer's name.
func TestAsTheComputerIsRefused(t *testing.T) {
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games})
	err := console.Run(ctx, console.Config{Handler: chat.New(chat.Config{Sessions: svc}), In: strings.NewReader(""), Out: io.Discard, As: "Bot"})
	if err == nil || !strings.Contains(err.Error(), "computer's name") {
		t.Fatalf("--as Bot: %v", err)
	}
}

// TestPicturesNumberOnAfterARestart: a second run on the same picture
// directory numbers its pictures after the first run's, never over them.
func TestPicturesNumberOnAfterARestart(t *testing.T) {
	dir := t.TempDir()
	db, pics := filepath.Join(dir, "bot.db"), filepath.Join(dir, "pictures")
	first := run(t, db, []string{"/play count @bob color=white", "/as bob", "/accept", "/as alice", "/m 1"}, runOpts{count: true, pictures: pics})
	for _, want := range []string{"Picture: " + filepath.Join(pics, "board-0001.png"), "Picture: " + filepath.Join(pics, "board-0002.png")} {
		if !strings.Contains(first, want) {
			t.Fatalf("first run lacks %q:\n%s", want, first)
		}
	}
	before, err := os.ReadFile(filepath.Join(pics, "board-0002.png"))
	if err != nil {
		t.Fatal(err)
	}
	second := run(t, db, []string{"/as bob", "/m 2", "/board"}, runOpts{count: true, pictures: pics})
	for _, want := range []string{"Picture: " + filepath.Join(pics, "board-0003.png"), "Picture: " + filepath.Join(pics, "board-0004.png")} {
		if !strings.Contains(second, want) {
			t.Fatalf("second run lacks %q:\n%s", want, second)
		}
	}
	if after, err := os.ReadFile(filepath.Join(pics, "board-0002.png")); err != nil || !bytes.Equal(before, after) {
		t.Fatalf("the first run's board-0002.png was overwritten (%v)", err)
	}
}
