package halma

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// diagram builds a position from a board drawn rank by rank from the top:
// a rank label, then one token per square, '.' for empty or the player's
// digit 1-4. A line of file letters is ignored.
func diagram(t *testing.T, players, toMove int, text string) Position {
	t.Helper()
	var rows [][]string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || (len(f[0]) == 1 && f[0][0] >= 'a' && f[0][0] <= 'p') {
			continue
		}
		rows = append(rows, f[1:]) // f[0] is the rank label
	}
	size := len(rows)
	lists := make([][]string, players)
	for i, row := range rows {
		if len(row) != size {
			t.Fatalf("diagram row %d has %d squares, want %d", i+1, len(row), size)
		}
		for f, c := range row {
			if c == "." {
				continue
			}
			seat := int(c[0] - '1')
			if seat < 0 || seat >= players {
				t.Fatalf("diagram: bad token %q", c)
			}
			lists[seat] = append(lists[seat], SquareAt(f, size-1-i).String())
		}
	}
	fen := fmt.Sprintf("%d:%d:%d", size, players, toMove)
	for _, l := range lists {
		fen += ":" + strings.Join(l, ",")
	}
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("diagram: %v", err)
	}
	return p
}

// moveTexts returns the texts of p's moves, sorted.
func moveTexts(p Position) []string {
	var out []string
	for _, m := range p.Moves() {
		out = append(out, m.String())
	}
	sort.Strings(out)
	return out
}

// slowMoves is an independent move generator: for each piece it tries the
// steps and every jump path depth-first (each square landed on once, the
// start square counting as empty), applying the target-camp rule along
// the path, and keeps the distinct start-end pairs. It works on
// coordinates, not on the package's tables.
func slowMoves(p Position) []string {
	if p.Winner() >= 0 {
		return nil
	}
	size, turn := p.Size(), p.Turn()
	type xy struct{ f, r int }
	board := map[xy]bool{}
	var own []xy
	for f := 0; f < size; f++ {
		for r := 0; r < size; r++ {
			if seat := p.At(SquareAt(f, r)); seat >= 0 {
				board[xy{f, r}] = true
				if seat == turn {
					own = append(own, xy{f, r})
				}
			}
		}
	}
	targetSet := p.Target(turn)
	inTarget := func(q xy) bool { return targetSet.Has(SquareAt(q.f, q.r)) }
	on := func(q xy) bool { return q.f >= 0 && q.f < size && q.r >= 0 && q.r < size }
	name := func(q xy) string { return SquareAt(q.f, q.r).String() }
	ends := map[string]bool{}
	dirs := []xy{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	for _, s := range own {
		delete(board, s)
		for _, d := range dirs {
			n := xy{s.f + d.f, s.r + d.r}
			if on(n) && !board[n] && !(inTarget(s) && !inTarget(n)) {
				ends[name(s)+"-"+name(n)] = true
			}
		}
		visited := map[xy]bool{s: true}
		var dfs func(c xy, in bool)
		dfs = func(c xy, in bool) {
			for _, d := range dirs {
				over, land := xy{c.f + d.f, c.r + d.r}, xy{c.f + 2*d.f, c.r + 2*d.r}
				if !on(land) || !board[over] || board[land] || visited[land] || (in && !inTarget(land)) {
					continue
				}
				ends[name(s)+"-"+name(land)] = true
				visited[land] = true
				dfs(land, in || inTarget(land))
				visited[land] = false
			}
		}
		dfs(s, inTarget(s))
		board[s] = true
	}
	var out []string
	for m := range ends {
		out = append(out, m)
	}
	if len(out) == 0 {
		out = []string{"pass"}
	}
	sort.Strings(out)
	return out
}

// slowPerft counts leaves with slowMoves.
func slowPerft(t *testing.T, p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, text := range slowMoves(p) {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("slowPerft: %s in %s: %v", text, p.FEN(), err)
		}
		n += slowPerft(t, p.Play(m), depth-1)
	}
	return n
}

// squares parses a space-separated list of squares on a 16x16 board.
func squares(t *testing.T, list string) Board {
	t.Helper()
	var b Board
	for _, name := range strings.Fields(list) {
		q, err := rules.ParseSquare(name, 16)
		if err != nil {
			t.Fatal(err)
		}
		b = b.With(SquareOf(q))
	}
	return b
}

// names lists the squares of b by name, for messages.
func names(b Board) string {
	var out []string
	for _, s := range b.Squares() {
		out = append(out, s.String())
	}
	return strings.Join(out, " ")
}

// wantKind checks that err is a *rules.Error of the given kind.
func wantKind(t *testing.T, err error, kind error) {
	t.Helper()
	var re *rules.Error
	if !errors.As(err, &re) || !errors.Is(err, kind) {
		t.Fatalf("error %v (%T): want a *rules.Error of kind %v", err, err, kind)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("error %q has more than one line", err)
	}
}
