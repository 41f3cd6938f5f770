package ai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/draughts"
)

// everyGame lists every game and option combination the computer plays.
var everyGame = []struct {
	id   string
	opts map[string]string
}{
	{"spanish", nil},
	{"damas", nil},
	{"damas", map[string]string{"huff": "yes"}},
	{"dame", nil},
	{"dame", map[string]string{"flying": "no"}},
	{"ultradamas", nil},
	{"halma", map[string]string{"size": "8"}},
	{"halma", map[string]string{"size": "10"}},
	{"halma", map[string]string{"size": "16"}},
	{"halma", map[string]string{"size": "16", "players": "4"}},
}

// TestNeverIllegal asks for moves along random games of every game, at
// every level, and checks each against the state's own move list.
func TestNeverIllegal(t *testing.T) {
	p := New(Config{TableMB: 2, MaxTime: time.Second})
	for gi, c := range everyGame {
		t.Run(fmt.Sprint(c.id, c.opts), func(t *testing.T) {
			g := newGame(t, c.id, c.opts)
			r := rand.New(rand.NewPCG(uint64(gi), 7))
			asked, huffs, plies := 0, 0, 300
			if c.id == "halma" {
				plies = 100 // random Halma games do not end; long move lists
			}
			for game := 0; game < 3; game++ {
				s := start(t, g, game)
				for ply := 0; ply < plies && !s.Outcome().Over; ply++ {
					ms := s.Moves()
					if ply%5 == game {
						lv := 1 + r.IntN(MaxLevel)
						o := Options{Level: lv, Seed: r.Uint64(), Depth: 1 + r.IntN(4), Nodes: 20000}
						m := choose(t, p, s, o)
						asked++
						if h, ok := s.(rules.Huffer); ok && len(h.Huffable()) > 0 {
							huffs++
							sq, ok, err := p.Huff(context.Background(), s, 1, 1)
							if err != nil || !ok || !contains(h.Huffable(), sq) {
								t.Fatalf("Huff in %s = %v, %v, %v; huffable %v", s.FEN(), sq, ok, err, h.Huffable())
							}
						}
						if r.IntN(2) == 0 {
							s = play(t, s, m.Text)
							continue
						}
					}
					s = play(t, s, ms[r.IntN(len(ms))].Text)
				}
			}
			if asked < 20 {
				t.Errorf("only %d positions tried", asked)
			}
			if c.opts["huff"] == "yes" && huffs == 0 {
				t.Errorf("no position with a piece to huff came up")
			}
		})
	}
}

func contains(list []rules.Square, s rules.Square) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestMoveAPI drives Move as the sessions do: default level, seeds.
func TestMoveAPI(t *testing.T) {
	p := New(Config{TableMB: 2, MaxTime: 300 * time.Millisecond})
	s := start(t, newGame(t, "spanish", nil), 0)
	for lv := 0; lv <= MaxLevel; lv++ {
		m, err := p.Move(context.Background(), s, lv, 42)
		if err != nil || !isLegal(s, m) {
			t.Errorf("Move(level %d) = %q, %v", lv, m.Text, err)
		}
	}
}

func TestBadRequests(t *testing.T) {
	p := New(Config{TableMB: 1})
	ctx := context.Background()
	s := start(t, newGame(t, "spanish", nil), 0)
	if _, err := p.Move(ctx, s, 6, 1); !errors.Is(err, rules.ErrBadOption) {
		t.Errorf("level 6: %v, want ErrBadOption", err)
	}
	lost := load(t, "spanish", nil, "B:Wd1:B")
	if _, err := p.Move(ctx, lost, 3, 1); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("a finished game: %v, want ErrGameOver", err)
	}
	formation := newGame(t, "ultradamas", nil).Start(0)
	if _, err := p.Move(ctx, formation, 3, 1); !errors.Is(err, rules.ErrNotNow) {
		t.Errorf("formation phase: %v, want ErrNotNow", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.Move(cancelled, s, 5, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v, want context.Canceled", err)
	}
}

// TestDeadline: a caller's deadline is a budget, not an error.
func TestDeadline(t *testing.T) {
	p := New(Config{TableMB: 2, MaxTime: 10 * time.Second})
	s := start(t, newGame(t, "spanish", nil), 0)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	begin := time.Now()
	m, err := p.Move(ctx, s, 5, 1)
	if err != nil || !isLegal(s, m) {
		t.Fatalf("Move with a deadline = %q, %v", m.Text, err)
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("Move took %v with a 50ms deadline", d)
	}
}

// TestSingleMove: one legal move is played without searching.
func TestSingleMove(t *testing.T) {
	p := New(Config{TableMB: 1})
	// White's man on h1, in the corner, can only go to g2.
	s := load(t, "spanish", nil, "W:Wh1:Bd7")
	r, err := p.Search(context.Background(), s, Options{Level: 5})
	if err != nil || r.Move.Text != "h1-g2" || r.Nodes != 0 {
		t.Errorf("single move: %q, %d nodes, %v; want h1-g2 at once", r.Move.Text, r.Nodes, err)
	}
}

// TestDeterministic: levels 1 to 4 give the same move for the same seed,
// and level 1 varies with the seed.
func TestDeterministic(t *testing.T) {
	s := start(t, newGame(t, "spanish", nil), 0)
	s = play(t, s, "d3-e4")
	for lv := 1; lv <= 4; lv++ {
		a := choose(t, New(Config{TableMB: 2, MaxTime: 5 * time.Second}), s, Options{Level: lv, Seed: 9})
		b := choose(t, New(Config{TableMB: 2, MaxTime: 5 * time.Second}), s, Options{Level: lv, Seed: 9})
		if a.Text != b.Text {
			t.Errorf("level %d, seed 9: %s then %s", lv, a.Text, b.Text)
		}
	}
	seen := map[string]bool{}
	p := New(Config{TableMB: 1})
	for seed := uint64(0); seed < 20; seed++ {
		seen[choose(t, p, s, Options{Level: 1, Seed: seed}).Text] = true
	}
	if len(seen) < 3 {
		t.Errorf("level 1 plays only %v over 20 seeds", seen)
	}
}

// TestShifts checks the evaluation's bitboard steps against the engine:
// the men's steps counted with them equal the plain men moves listed.
func TestShifts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		var p draughts.Position
		for f := 0; f < 32; f++ {
			switch r.IntN(4) {
			case 0:
				p.White |= 1 << f
			case 1:
				p.Black |= 1 << f
			}
		}
		p.White &^= rank8
		p.Black &^= rank1
		p.ToMove = draughts.Color(r.IntN(2))
		empty := ^(p.White | p.Black)
		want := count(upLeft(p.White)&empty) + count(upRight(p.White)&empty)
		if p.ToMove == draughts.Black {
			want = count(downLeft(p.Black)&empty) + count(downRight(p.Black)&empty)
		}
		if q := (draughtsEngine{v: draughts.Spanish}).quiet(&p); q && hasCapture(draughts.Spanish.Moves(p)) {
			t.Fatalf("%s: quiet, yet a capture is on", draughts.Spanish.FEN(p))
		}
		got := 0
		for _, m := range draughts.Spanish.Moves(p) {
			if m.Captured == 0 {
				got++
			}
		}
		if hasCapture(draughts.Spanish.Moves(p)) {
			continue
		}
		if got != want {
			t.Fatalf("%s: %d plain moves, the steps count %d", draughts.Spanish.FEN(p), got, want)
		}
	}
}

func hasCapture(ms []draughts.Move) bool {
	for _, m := range ms {
		if m.Captured != 0 {
			return true
		}
	}
	return false
}

func count(b uint32) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}

// TestConcurrent: one Player serves several games at once (run with -race).
func TestConcurrent(t *testing.T) {
	p := New(Config{TableMB: 1, Searches: 2})
	states := []rules.State{
		start(t, newGame(t, "spanish", nil), 0),
		start(t, newGame(t, "ultradamas", nil), 0),
		start(t, newGame(t, "halma", map[string]string{"size": "8"}), 1),
		start(t, newGame(t, "dame", nil), 0),
	}
	errs := make(chan error, len(states))
	for i, s := range states {
		go func() {
			r, err := p.Search(context.Background(), s, Options{Level: 4, Seed: uint64(i), Nodes: 20000})
			if err == nil && !isLegal(s, r.Move) {
				err = fmt.Errorf("%s: %q is not legal", s.Game().ID(), r.Move.Text)
			}
			errs <- err
		}()
	}
	for range states {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestUltraKings: positions with ultra kings and double ultra kings, whose
// teleports make thousands of moves, still get a legal move at every level.
func TestUltraKings(t *testing.T) {
	p := New(Config{TableMB: 2, MaxTime: 100 * time.Millisecond})
	for _, fen := range []string{
		"R:R6d4,a1,b2,5c3+1:B6e6,h8,g7,5a8", // double ultra kings, a loaded ultra king
		"R:R5d4+2,a1,3b2:B4e6,h8,2g7,5a6",   // a king to drop, a quad king
		"B:R6d4,a1:B6f6,h8",                 // Black teleports next to d4 and consumes it
	} {
		s := load(t, "ultradamas", nil, fen)
		for lv := MinLevel; lv <= MaxLevel; lv++ {
			choose(t, p, s, Options{Level: lv, Seed: uint64(lv)})
		}
	}
}
