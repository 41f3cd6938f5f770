package ai

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// reviewNodes is the budget of the tests' reviews: the default, or less
// under -short.
func reviewNodes() int64 {
	if testing.Short() {
		return DefaultReviewNodes / 4
	}
	return DefaultReviewNodes
}

// reviewOne reviews the move text in s.
func reviewOne(t *testing.T, p *Player, s rules.State, text string) PlyReview {
	t.Helper()
	pr, err := p.ReviewMove(context.Background(), s, text, ReviewOptions{Nodes: reviewNodes()})
	if err != nil {
		t.Fatalf("ReviewMove(%s, %s): %v", s.FEN(), text, err)
	}
	return pr
}

// Positions where the side to move has a move that walks into a shot (a
// forced capture series that wins material) and moves that lose nothing.
// The numbers are checked without the engine by materialAfter.
var reviewShots = []struct {
	id, fen string
	opts    map[string]string
	bad     string // loses material to the shot
	lost    int    // men lost (net) within the checked depth
}{
	// The Spanish shot of TestShots, one move earlier: c6-d5? lets White
	// play f3-g4! h5xf3 g2xe4xc6, two for one; a8-b7 or c6-b5 keep the balance.
	{id: "spanish", fen: "B:Wf3,g2,h1:Bh5,c6,a8", bad: "c6-d5", lost: 2},
	// Damas: f6-e5? allows c3-b4! a5xc3 b2xd4xf6.
	{id: "damas", fen: "B:Wc3,b2,a1:Ba5,f6,h8", bad: "f6-e5", lost: 2},
	// Dame: g5-f4? gives a man away, e3xg5, and more follows.
	{id: "dame", fen: "B:Wc1,d2,e3,g3:Bg5,d6,h8,a7", bad: "g5-f4", lost: 2},
	// Ultradamas: e7-e6? allows e4-e5! e6xe4 d3xf5xh7, two for one.
	{id: "ultradamas", fen: "B:Ra1,c2,d3,e4:Be7,g6,a8,b8", bad: "e7-e6", lost: 1},
}

// checkDepth is the depth (in plies, then the captures in progress) at
// which the tests count the material a move loses.
const checkDepth = 4

func TestReviewShot(t *testing.T) {
	p := New(Config{TableMB: 4})
	for _, c := range reviewShots {
		t.Run(c.id, func(t *testing.T) {
			s := load(t, c.id, c.opts, c.fen)
			seat := s.Turn()
			now := material(s, seat)
			if got := materialAfter(play(t, s, c.bad), seat, checkDepth); now-got != c.lost {
				t.Fatalf("the position is not as drawn: %s loses %d, want %d", c.bad, now-got, c.lost)
			}
			pr := reviewOne(t, p, s, c.bad)
			t.Logf("%s: %s, best %s, chances %.2f -> %.2f, material %d", c.fen, pr.Mark, pr.Best, pr.Before, pr.After, pr.Material)
			if pr.Mark < MarkMistake {
				t.Errorf("%s is marked %q, want a mistake or a blunder", c.bad, pr.Mark)
			}
			if pr.Best == c.bad {
				t.Fatalf("the better move named is the move played")
			}
			if got := materialAfter(play(t, s, pr.Best), seat, checkDepth); got < now {
				t.Errorf("the better move %s loses %d men within %d plies too", pr.Best, now-got, checkDepth)
			}
			if pr.Material < c.lost {
				t.Errorf("Material = %d, want at least %d", pr.Material, c.lost)
			}
			if pr.Before-pr.After < MistakeLoss/100 {
				t.Errorf("chances %.2f -> %.2f: less than a mistake", pr.Before, pr.After)
			}
			// The better move itself raises no alarm.
			if b := reviewOne(t, p, s, pr.Best); b.Mark != MarkNone || b.Best != pr.Best {
				t.Errorf("the better move %s reviewed: %q, best %s", pr.Best, b.Mark, b.Best)
			}
		})
	}
}

// Positions where the side to move wins at once by a shot that takes
// every piece left (the shots of TestShots with one more piece to take),
// and a move that lets the win go and wins nothing (in Dame and
// Ultradamas, where the winner has a man more, it even gives one back).
var reviewWins = []struct {
	id, fen    string
	win, reply string // the shot: then the largest capture ends the game
	missed     string
}{
	{id: "spanish", fen: "W:Wf3,g2,h1:Bh5,d5,b7", win: "f3-g4", reply: "h5xf3", missed: "f3-e4"},
	{id: "damas", fen: "W:Wc3,b2,a1:Ba5,e5,g7", win: "c3-b4", reply: "a5xc3", missed: "c3-d4"},
	{id: "dame", fen: "W:Wc1,d2,e3,g3:Bg5,e5,c7", win: "e3-f4", reply: "g5xe3", missed: "g3-f4"},
	{id: "ultradamas", fen: "R:Ra1,c2,d3,e4:Be6,g6,h6", win: "e4-e5", reply: "e6xe4", missed: "e4-f5"},
}

func TestReviewMissedWin(t *testing.T) {
	p := New(Config{TableMB: 4})
	for _, c := range reviewWins {
		t.Run(c.id, func(t *testing.T) {
			s := load(t, c.id, nil, c.fen)
			seat := s.Turn()
			// The win is there: the shot's largest capture ends the game.
			end := play(t, play(t, s, c.win), c.reply)
			var most rules.Move
			for _, m := range end.Moves() {
				if len(m.Captured) > len(most.Captured) {
					most = m
				}
			}
			if out := play(t, end, most.Text).Outcome(); !out.Over || out.Winner != seat {
				t.Fatalf("%s %s %s: %+v, want a win", c.win, c.reply, most.Text, out)
			}
			// The move missed wins nothing within the checked depth.
			if got, now := materialAfter(play(t, s, c.missed), seat, checkDepth), material(s, seat); got > now {
				t.Fatalf("%s wins %d men", c.missed, got-now)
			}
			pr := reviewOne(t, p, s, c.missed)
			t.Logf("%s: %s %s, best %s, chances %.2f -> %.2f", c.fen, c.missed, pr.Mark, pr.Best, pr.Before, pr.After)
			if pr.Before != 1 {
				t.Errorf("Before = %.3f, want 1 (a forced win)", pr.Before)
			}
			if pr.Mark != MarkBlunder {
				t.Errorf("%s is marked %q, want a blunder", c.missed, pr.Mark)
			}
			if pr.Best != c.win {
				t.Errorf("Best = %s, want %s", pr.Best, c.win)
			}
			if w := reviewOne(t, p, s, c.win); w.Mark != MarkNone || w.After != 1 {
				t.Errorf("the win reviewed: %q, after %.3f", w.Mark, w.After)
			}
		})
	}
}

// halma8 is two-player Halma on the 8x8 board without the leave-home
// rule: player 1 fills the camp around h8, player 2 the camp around a1.
var halma8 = map[string]string{"size": "8", "leavehome": "off"}

// TestReviewHalmaRace: both players are a few moves from filling their
// camps; a move that wastes a tempo hands the race to the other.
func TestReviewHalmaRace(t *testing.T) {
	p := New(Config{TableMB: 4})
	cases := []struct {
		name, fen, bad string
		lose, win      int // plies within which player 2 wins after bad, player 1 after the best move
	}{
		// (b) A win at once (h4-h5) missed: player 2 then wins with a5-a4.
		{"win", "8:2:1:h8,g8,f8,e8,h7,g7,f7,h6,g6,h4:a1,b1,c1,d1,a2,b2,c2,a3,b3,a5", "h4-g4", 1, 0},
		// (a) Two moves each: h3-h4 (or h3-g4) wins the race; h3-g3
		// wastes a tempo and loses it (Halma's way of losing material).
		{"race", "8:2:1:h8,g8,f8,e8,h7,g7,f7,h6,g6,h3:a1,b1,c1,d1,a2,b2,c2,a3,b3,a6", "h3-g3", 3, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := load(t, "halma", halma8, c.fen)
			if !forcedWin(play(t, s, c.bad), 1, c.lose) {
				t.Fatalf("the position is not as drawn: after %s player 2 does not win", c.bad)
			}
			pr := reviewOne(t, p, s, c.bad)
			t.Logf("%s: %s, best %s, chances %.2f -> %.2f", c.bad, pr.Mark, pr.Best, pr.Before, pr.After)
			if pr.Mark != MarkBlunder {
				t.Errorf("%s is marked %q, want a blunder", c.bad, pr.Mark)
			}
			if !forcedWin(play(t, s, pr.Best), 0, c.win) {
				t.Errorf("the better move %s does not win the race", pr.Best)
			}
		})
	}
}

// forcedWin reports whether seat can force a win in s within plies plies.
func forcedWin(s rules.State, seat, plies int) bool {
	if out := s.Outcome(); out.Over {
		return out.Winner == seat
	}
	if plies == 0 {
		return false
	}
	mine := s.Turn() == seat
	for _, m := range s.Moves() {
		next, _, err := s.Play(m.Text)
		if err != nil {
			panic(err)
		}
		w := forcedWin(next, seat, plies-1)
		if mine && w {
			return true
		}
		if !mine && !w {
			return false
		}
	}
	return !mine
}

// TestReviewQuiet: a few plies into a game, no move that the computer
// would play, and (draughts) no move that keeps the material within the
// checked depth, is marked.
func TestReviewQuiet(t *testing.T) {
	p := New(Config{TableMB: 4})
	games := []struct {
		id   string
		opts map[string]string
		all  bool // review every legal move
	}{
		{"spanish", nil, true},
		{"damas", nil, true},
		{"dame", nil, true},
		{"ultradamas", nil, false},
		{"halma", halma8, false},
		{"halma", map[string]string{"players": "4"}, false},
	}
	for _, c := range games {
		g := newGame(t, c.id, c.opts)
		name := c.id
		if c.opts["players"] != "" {
			name += "4"
		}
		t.Run(name, func(t *testing.T) {
			s := start(t, g, 0)
			// A few plies in, so that the position is a quiet middle.
			for i := range 4 {
				s = play(t, s, choose(t, p, s, Options{Level: 3, Seed: uint64(i)}).Text)
			}
			moves := map[string]bool{}
			if c.all {
				now := material(s, s.Turn())
				for _, m := range s.Moves() {
					if materialAfter(play(t, s, m.Text), s.Turn(), checkDepth) >= now {
						moves[m.Text] = true
					}
				}
			} else {
				for seed := range uint64(4) {
					moves[choose(t, p, s, Options{Level: 4, Seed: seed, Depth: 2}).Text] = true
				}
			}
			for m := range moves {
				pr := reviewOne(t, p, s, m)
				if pr.Mark != MarkNone {
					t.Errorf("%s in %s: %q (chances %.2f -> %.2f, best %s)", m, s.FEN(), pr.Mark, pr.Before, pr.After, pr.Best)
				}
			}
		})
	}
}

// TestReviewLevels: a game of level 1 against level 4 (level 3 under
// -short): the weak side's accuracy is lower, and it has the marks.
func TestReviewLevels(t *testing.T) {
	p := New(Config{TableMB: 8})
	strong := 4
	plies := 60
	if testing.Short() {
		strong, plies = 3, 40
	}
	for _, id := range []string{"spanish", "ultradamas"} {
		if testing.Short() && id != "spanish" {
			continue
		}
		t.Run(id, func(t *testing.T) {
			for weak := range 2 {
				levels := []int{strong, strong}
				levels[weak] = 1
				pos, mv := selfPlay(t, p, start(t, newGame(t, id, nil), 0), levels, 5, plies)
				r := review(t, p, pos, mv, ReviewOptions{Nodes: reviewNodes()})
				w, s := r.Seats[weak], r.Seats[1-weak]
				t.Logf("weak seat %d: %+v; strong: %+v", weak, w, s)
				if w.Accuracy >= s.Accuracy {
					t.Errorf("level 1 (seat %d) has accuracy %.1f, level %d %.1f", weak, w.Accuracy, strong, s.Accuracy)
				}
				if w.Mistakes+w.Blunders == 0 {
					t.Errorf("level 1 made no mistake")
				}
				if w.Worst < 0 || r.Plies[w.Worst].Seat != weak {
					t.Errorf("the weak seat's worst ply %d is not its own", w.Worst)
				}
			}
		})
	}
}

// TestReviewShape: a review covers every ply, with chances between 0 and
// 1 that add up to 1, the mover's After among them, the counts matching
// the marks, and the same review from another Player.
func TestReviewShape(t *testing.T) {
	p := New(Config{TableMB: 4})
	for _, c := range []struct {
		id    string
		opts  map[string]string
		plies int
	}{
		{"dame", nil, 16},
		{"halma", halma8, 12},
		{"halma", map[string]string{"players": "4"}, 12},
	} {
		t.Run(c.id, func(t *testing.T) {
			g := newGame(t, c.id, c.opts)
			pos, mv := selfPlay(t, p, start(t, g, 0), []int{1, 2, 2, 2}, 9, c.plies)
			o := ReviewOptions{Nodes: 20_000}
			r := review(t, p, pos, mv, o)
			if len(r.Plies) != len(pos) || len(r.Seats) != len(g.Seats()) {
				t.Fatalf("%d plies and %d seats reviewed, want %d and %d", len(r.Plies), len(r.Seats), len(pos), len(g.Seats()))
			}
			counts := make([][3]int, len(r.Seats))
			for i, pr := range r.Plies {
				if pr.Ply != i || pr.Seat != pos[i].Turn() || pr.Played != mv[i].Text {
					t.Errorf("ply %d: %+v", i, pr)
				}
				sum := 0.0
				for _, c := range pr.Chances {
					if c < 0 || c > 1 {
						t.Errorf("ply %d: chances %v", i, pr.Chances)
					}
					sum += c
				}
				if len(pr.Chances) != len(r.Seats) || math.Abs(sum-1) > 1e-9 || math.Abs(pr.Chances[pr.Seat]-pr.After) > 1e-9 {
					t.Errorf("ply %d: chances %v, after %.3f", i, pr.Chances, pr.After)
				}
				if pr.Before < pr.After || markOf(100*(pr.Before-pr.After)) != pr.Mark {
					t.Errorf("ply %d: %.3f -> %.3f marked %q", i, pr.Before, pr.After, pr.Mark)
				}
				if pr.Mark > MarkNone {
					counts[pr.Seat][pr.Mark-1]++
				}
				if (pr.Best == pr.Played) != (pr.Mark == MarkNone && pr.Best == pr.Played) {
					t.Errorf("ply %d: best %s", i, pr.Best)
				}
			}
			for s, sr := range r.Seats {
				if got := [3]int{sr.Inaccuracies, sr.Mistakes, sr.Blunders}; got != counts[s] {
					t.Errorf("seat %d counts %v, marks %v", s, got, counts[s])
				}
				if sr.Accuracy < 0 || sr.Accuracy > 100 {
					t.Errorf("seat %d accuracy %.1f", s, sr.Accuracy)
				}
			}
			again := review(t, New(Config{TableMB: 4, Searches: 1}), pos, mv, o)
			if !reflect.DeepEqual(again, r) {
				t.Errorf("another Player reviews the game differently")
			}
		})
	}
}

func TestReviewBadInput(t *testing.T) {
	p := New(Config{TableMB: 4})
	s := load(t, "spanish", nil, middleGame)
	m := s.Moves()[0]
	if _, err := p.Review(context.Background(), []rules.State{s}, nil, ReviewOptions{}); !errors.Is(err, rules.ErrBadPosition) {
		t.Errorf("positions without moves: %v", err)
	}
	next := play(t, s, m.Text)
	if _, err := p.Review(context.Background(), []rules.State{s}, []rules.Move{{Text: "a1-b2"}}, ReviewOptions{}); !errors.Is(err, rules.ErrIllegal) && !errors.Is(err, rules.ErrSyntax) {
		t.Errorf("an illegal move: %v", err)
	}
	if _, err := p.ReviewMove(context.Background(), next, m.Text, ReviewOptions{}); err == nil {
		t.Errorf("a move of the other side: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Review(ctx, []rules.State{s}, []rules.Move{m}, ReviewOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled review: %v", err)
	}
	if r, err := p.Review(context.Background(), nil, nil, ReviewOptions{}); err != nil || len(r.Plies) != 0 {
		t.Errorf("an empty game: %+v, %v", r, err)
	}
}

func TestAccuracy(t *testing.T) {
	for _, c := range []struct{ loss, want float64 }{{0, 100}, {10, 63.6}, {20, 40.0}, {30, 24.8}, {100, 0}, {-5, 100}} {
		if got := Accuracy(c.loss); math.Abs(got-c.want) > 0.1 {
			t.Errorf("Accuracy(%v) = %.2f, want %.1f", c.loss, got, c.want)
		}
	}
	for _, c := range []struct {
		loss float64
		want Mark
	}{{9.9, MarkNone}, {10, MarkInaccuracy}, {25, MarkMistake}, {30, MarkBlunder}} {
		if got := markOf(c.loss); got != c.want {
			t.Errorf("markOf(%v) = %q, want %q", c.loss, got, c.want)
		}
	}
}
