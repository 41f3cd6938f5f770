package draughts

import (
	"sort"
	"strings"
	"testing"
)

// diagram draws p as ASCII, rank 8 at the top: w/b men, W/B kings, . for
// an empty playing square, space for the other squares.
func diagram(v Variant, p Position) string {
	var rows []string
	for r := 7; r >= 0; r-- {
		row := []byte("        ")
		for f := Square(0); f < 32; f++ {
			sq := v.Rules(f)
			if int(sq.Rank) != r {
				continue
			}
			c := byte('.')
			bit := uint32(1) << f
			switch {
			case p.White&bit != 0 && p.Kings&bit != 0:
				c = 'W'
			case p.White&bit != 0:
				c = 'w'
			case p.Black&bit != 0 && p.Kings&bit != 0:
				c = 'B'
			case p.Black&bit != 0:
				c = 'b'
			}
			row[sq.File] = c
		}
		rows = append(rows, string(row))
	}
	return strings.Join(rows, "\n")
}

// mustFEN parses a position or stops the test.
func mustFEN(t testing.TB, v Variant, fen string) Position {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// moveTexts returns the sorted texts of the legal moves of p.
func moveTexts(v Variant, p Position) []string {
	var out []string
	for _, m := range v.Moves(p) {
		out = append(out, v.MoveText(m))
	}
	sort.Strings(out)
	return out
}
