package draughts

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// refMoves is a slow, plain reference generator written straight from the
// rules page on an 8x8 array, to check the bitboard generator on random
// positions full of kings. Each move is "from-to:captured squares".
func refMoves(v Variant, p Position) []string {
	g := refGen{v: v, board: refBoardOf(v, p), side: 1, fwd: 1}
	if p.ToMove == Black {
		g.side, g.fwd = -1, -1
	}
	var plain []refSeq
	for x := 0; x < 8; x++ {
		for y := 0; y < 8; y++ {
			pc := g.board[x][y] * g.side
			if pc <= 0 {
				continue
			}
			g.board[x][y] = 0 // the start square is empty during the series
			g.dfs([2]int{x, y}, x, y, pc == 2, nil, 0)
			g.board[x][y] = pc * g.side
			plain = append(plain, g.steps(x, y, pc)...)
		}
	}
	caps := g.caps
	if !v.Huff && len(caps) > 0 {
		caps = refMost(v, caps)
		plain = nil
	}
	return refNames(append(caps, plain...))
}

// refBoardOf draws p on an 8x8 array, [file][rank]: +1/+2 a White
// man/king, -1/-2 a Black one.
func refBoardOf(v Variant, p Position) [8][8]int {
	var board [8][8]int
	for f := Square(0); f < 32; f++ {
		sq := v.Rules(f)
		bit := uint32(1) << f
		k := 1
		if p.Kings&bit != 0 {
			k = 2
		}
		switch {
		case p.White&bit != 0:
			board[sq.File][sq.Rank] = k
		case p.Black&bit != 0:
			board[sq.File][sq.Rank] = -k
		}
	}
	return board
}

// refSeq is a move of the reference: its ends, what it captures and how
// many of those are kings.
type refSeq struct {
	from, to [2]int
	capt     [][2]int
	kings    int
}

// refGen gathers the reference's capture series on board, for the side
// (+1 White, -1 Black) moving forward by fwd ranks.
type refGen struct {
	v         Variant
	board     [8][8]int
	side, fwd int
	caps      []refSeq
}

func refOn(x, y int) bool { return x >= 0 && x < 8 && y >= 0 && y < 8 }

// dfs follows the capture series from from, now on x, y, having captured
// capt (kings of them kings), and adds each complete one to g.caps.
func (g *refGen) dfs(from [2]int, x, y int, king bool, capt [][2]int, kings int) {
	v, board, side := g.v, &g.board, g.side
	taken := func(a, b int) bool { return slices.Contains(capt, [2]int{a, b}) }
	found := false
	for _, d := range [][2]int{{-1, 1}, {1, 1}, {-1, -1}, {1, -1}} {
		if !king && d[1] != g.fwd {
			continue
		}
		a, b := x+d[0], y+d[1]
		if king && v.Flying {
			for refOn(a, b) && board[a][b] == 0 {
				a, b = a+d[0], b+d[1]
			}
		}
		if !refOn(a, b) || board[a][b]*side >= 0 || taken(a, b) {
			continue
		}
		k := 0
		if board[a][b] == -2*side {
			k = 1
		}
		for c, e := a+d[0], b+d[1]; refOn(c, e) && board[c][e] == 0; c, e = c+d[0], e+d[1] {
			found = true
			g.dfs(from, c, e, king, append(slices.Clip(capt), [2]int{a, b}), kings+k)
			if !king || !v.Flying || v.LandNext {
				break
			}
		}
	}
	if !found && len(capt) > 0 {
		g.caps = append(g.caps, refSeq{from, [2]int{x, y}, capt, kings})
	}
}

// steps returns the plain moves of the piece pc (1 man, 2 king) on x, y.
func (g *refGen) steps(x, y, pc int) []refSeq {
	var plain []refSeq
	for _, d := range [][2]int{{-1, 1}, {1, 1}, {-1, -1}, {1, -1}} {
		if pc == 1 && d[1] != g.fwd {
			continue
		}
		for a, b := x+d[0], y+d[1]; refOn(a, b) && g.board[a][b] == 0; a, b = a+d[0], b+d[1] {
			plain = append(plain, refSeq{from: [2]int{x, y}, to: [2]int{a, b}})
			if pc == 1 || !g.v.Flying {
				break
			}
		}
	}
	return plain
}

// refMost keeps the series that capture the most pieces (and of those,
// with Quality, the most kings).
func refMost(v Variant, caps []refSeq) []refSeq {
	best := 0
	score := func(s refSeq) int {
		if v.Quality {
			return len(s.capt)*32 + s.kings
		}
		return len(s.capt)
	}
	for _, s := range caps {
		best = max(best, score(s))
	}
	return slices.DeleteFunc(caps, func(s refSeq) bool { return score(s) < best })
}

// refNames writes the moves as "from-to:captured squares", sorted, each once.
func refNames(ms []refSeq) []string {
	name := func(c [2]int) string { return rules.Square{File: int8(c[0]), Rank: int8(c[1])}.String() }
	set := map[string]bool{}
	for _, s := range ms {
		var cs []string
		for _, c := range s.capt {
			cs = append(cs, name(c))
		}
		sort.Strings(cs)
		set[name(s.from)+"-"+name(s.to)+":"+strings.Join(cs, ",")] = true
	}
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func engineMoves(v Variant, p Position) []string {
	var out []string
	for _, m := range v.Moves(p) {
		var cs []string
		for b := m.Captured; b != 0; b &= b - 1 {
			cs = append(cs, v.Rules(Square(bits.TrailingZeros32(b))).String())
		}
		sort.Strings(cs)
		out = append(out, fmt.Sprintf("%s-%s:%s", v.Rules(m.From), v.Rules(m.To), strings.Join(cs, ",")))
	}
	sort.Strings(out)
	return out
}

// randomPosition puts up to 12 pieces a side on random squares, many of them kings.
func randomPosition(rng *rand.Rand) Position {
	var p Position
	p.ToMove = Color(rng.IntN(2))
	perm := rng.Perm(32)
	nw, nb := 1+rng.IntN(12), 1+rng.IntN(12)
	kingOdds := rng.IntN(4)
	for i, f := range perm[:nw+nb] {
		bit := uint32(1) << f
		white := i < nw
		if white {
			p.White |= bit
		} else {
			p.Black |= bit
		}
		if rng.IntN(4) < kingOdds || (white && bit&topRank != 0) || (!white && bit&lowRank != 0) {
			p.Kings |= bit
		}
	}
	return p
}

func TestReferenceGenerator(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	for vi, v := range fuzzVariants {
		rng := rand.New(rand.NewPCG(7, uint64(vi)))
		series := 0
		for i := 0; i < n; i++ {
			p := randomPosition(rng)
			want, got := refMoves(v, p), engineMoves(v, p)
			if !slices.Equal(got, want) {
				t.Fatalf("%s %v %s:\n%s\nengine    %v\nreference %v", v.ID, v.Options(), v.FEN(p), diagram(v, p), got, want)
			}
			if len(want) > 0 && strings.Contains(want[0], ",") {
				series++
			}
		}
		// Make sure the random positions exercise long series.
		if series < n/50 {
			t.Errorf("%s: only %d of %d positions with a series", v.ID, series, n)
		}
	}
}
