package ai

import (
	"context"
	"testing"
)

// TestLevelOneBlunders: level 1 makes mistakes on purpose, level 4 does
// less. Along games between level 2 players, each level answers the same
// positions; a move is a blunder when a deeper search finds it at least
// 0.8 of a man worse than the best move (level 4, held to fewer positions
// than the judge, still misses some of its tactics).
func TestLevelOneBlunders(t *testing.T) {
	p := New(Config{TableMB: 4})
	g := newGame(t, "spanish", nil)
	blunders, positions := map[int]int{}, 0
	for game := 0; game < 2; game++ {
		s := start(t, g, 0)
		for ply := 0; ply < 40 && !s.Outcome().Over; ply++ {
			if ply >= 6 {
				best, err := p.Search(context.Background(), s, Options{Level: 4, Depth: 9, Nodes: 300_000})
				if err != nil {
					t.Fatal(err)
				}
				positions++
				for _, lv := range []int{1, 4} {
					m := choose(t, p, s, Options{Level: lv, Seed: uint64(ply*7 + game), Nodes: 50_000})
					n := play(t, s, m.Text)
					if n.Outcome().Over {
						continue
					}
					r, err := p.Search(context.Background(), n, Options{Level: 4, Depth: 8, Nodes: 300_000})
					if err != nil {
						t.Fatal(err)
					}
					if -r.Score < best.Score-80 {
						blunders[lv]++
					}
				}
			}
			s = play(t, s, choose(t, p, s, Options{Level: 2, Seed: uint64(ply + 100*game)}).Text)
		}
	}
	t.Logf("%d positions; blunders: level 1 %d, level 4 %d", positions, blunders[1], blunders[4])
	if blunders[1]*10 < positions {
		t.Errorf("level 1 blundered in %d of %d positions, want at least 10%%", blunders[1], positions)
	}
	if blunders[4] >= blunders[1] {
		t.Errorf("level 4 blundered %d times, level 1 %d: level 4 should blunder less", blunders[4], blunders[1])
	}
}
