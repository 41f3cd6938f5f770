package ai

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/boardgamebot/bot/rules"
)

// The long match tests run only when AI_MATCH=1 is set (and not under
// -short): go test -run Match -v ./rules/ai with AI_MATCH=1. Without it
// they run a quick form with fewer games and depth-bounded searches.
func longMatches(t *testing.T) bool {
	return !testing.Short() && os.Getenv("AI_MATCH") == "1"
}

// mover picks a move in s.
type mover func(t testing.TB, s rules.State) rules.Move

func randomMover(seed uint64) mover {
	r := rand.New(rand.NewPCG(seed, 99))
	return func(t testing.TB, s rules.State) rules.Move {
		ms := s.Moves()
		return ms[r.IntN(len(ms))]
	}
}

func aiMover(p *Player, o Options) mover {
	n := uint64(0)
	return func(t testing.TB, s rules.State) rules.Move {
		n++
		o := o
		o.Seed = o.Seed*1000 + n
		return choose(t, p, s, o)
	}
}

// match plays a game from s, seat i moved by movers[i], for at most
// maxPlies plies; it returns the outcome (Over false when the game was cut).
func match(t testing.TB, s rules.State, movers []mover, maxPlies int) (rules.Outcome, int) {
	t.Helper()
	for ply := 0; ply < maxPlies; ply++ {
		if out := s.Outcome(); out.Over {
			return out, ply
		}
		m := movers[s.Turn()](t, s)
		s = play(t, s, m.Text)
	}
	return s.Outcome(), maxPlies
}

// matchGames are the games the match tests play.
var matchGames = []struct {
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
	{"halma", map[string]string{"size": "16", "players": "4"}},
}

func TestMatchAgainstRandom(t *testing.T) {
	games, maxTime := 2, time.Duration(0)
	if longMatches(t) {
		games, maxTime = 6, 200*time.Millisecond
	}
	p := New(Config{TableMB: 4, MaxTime: time.Second})
	for _, c := range matchGames {
		t.Run(fmt.Sprint(c.id, c.opts), func(t *testing.T) {
			g := newGame(t, c.id, c.opts)
			seats := len(g.Seats())
			for i := 0; i < games; i++ {
				seat := i % seats
				o := Options{Level: 5, Seed: uint64(i + 1), Depth: 4}
				if maxTime > 0 {
					o = Options{Level: 5, Seed: uint64(i + 1), Time: maxTime}
				}
				movers := make([]mover, seats)
				for j := range movers {
					movers[j] = randomMover(uint64(10*i + j))
				}
				movers[seat] = aiMover(p, o)
				out, plies := match(t, start(t, g, 0), movers, 1000)
				if !out.Over || out.Winner != seat {
					t.Errorf("game %d: the computer (seat %d) did not win: %+v after %d plies", i, seat, out, plies)
				} else {
					t.Logf("game %d: the computer (seat %d) won after %d plies (%s)", i, seat, plies, out.Reason)
				}
			}
		})
	}
}

func TestMatchLevel5AgainstLevel1(t *testing.T) {
	games, o5 := 4, Options{Level: 5, Depth: 6}
	if longMatches(t) {
		games, o5 = 20, Options{Level: 5}
	}
	p := New(Config{TableMB: 8, MaxTime: 250 * time.Millisecond})
	for _, c := range matchGames[:6] { // the draughts games and Ultradamas
		t.Run(fmt.Sprint(c.id, c.opts), func(t *testing.T) {
			g := newGame(t, c.id, c.opts)
			wins := 0
			for i := 0; i < games; i++ {
				seat := i % 2
				strong, weak := o5, Options{Level: 1}
				strong.Seed, weak.Seed = uint64(i+1), uint64(100+i)
				movers := []mover{aiMover(p, weak), aiMover(p, weak)}
				movers[seat] = aiMover(p, strong)
				out, plies := match(t, start(t, g, 0), movers, 400)
				if out.Over && out.Winner == seat {
					wins++
				} else {
					t.Logf("game %d: level 5 (seat %d) did not win: %+v after %d plies", i, seat, out, plies)
				}
			}
			t.Logf("level 5 won %d of %d games", wins, games)
			if wins*10 < games*9 {
				t.Errorf("level 5 won %d of %d games against level 1, want at least 90%%", wins, games)
			}
		})
	}
}
