package draughts

import (
	"errors"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

var fuzzVariants = []Variant{Spanish, Damas, DamasHuff, Dame, DameShort}

// checkError checks that err is a one-line *rules.Error.
func checkError(t *testing.T, what string, err error) {
	t.Helper()
	var re *rules.Error
	if !errors.As(err, &re) || re.Kind == nil || strings.ContainsAny(err.Error(), "\n\r") {
		t.Fatalf("%s: error %q is not a one-line rules error", what, err)
	}
}

// FuzzFEN: no panic on any input; a position that parses prints, parses
// back to itself and prints the same again. Seeds in testdata/fuzz/FuzzFEN.
func FuzzFEN(f *testing.F) {
	f.Add(uint8(0), "W:Wb1,d1,Kf5:Bb7,d7")
	f.Add(uint8(3), "B:W1-12:B21-32.")
	f.Fuzz(func(t *testing.T, vi uint8, fen string) {
		v := fuzzVariants[int(vi)%len(fuzzVariants)]
		p, err := v.ParseFEN(fen)
		if err != nil {
			checkError(t, fen, err)
			return
		}
		s := v.FEN(p)
		q, err := v.ParseFEN(s)
		if err != nil || q != p || v.FEN(q) != s {
			t.Fatalf("%q -> %q does not round-trip: %v", fen, s, err)
		}
		v.Moves(p) // no panic on any legal FEN
	})
}

// FuzzParseMove: no panic on any text; a move that parses is legal and
// its canonical and numeric texts name it again. Seeds in
// testdata/fuzz/FuzzParseMove.
func FuzzParseMove(f *testing.F) {
	f.Add(uint8(0), "W:W1-12:B21-32", "11-15")
	f.Add(uint8(3), "W:Wc3:Bd4,b4,d6,b6", "c3xc7")
	f.Fuzz(func(t *testing.T, vi uint8, fen, text string) {
		v := fuzzVariants[int(vi)%len(fuzzVariants)]
		p, err := v.ParseFEN(fen)
		if err != nil {
			return
		}
		m, err := v.ParseMove(p, text)
		if err != nil {
			checkError(t, text, err)
			return
		}
		legal := false
		for _, l := range v.Moves(p) {
			legal = legal || Same(l, m)
		}
		if !legal {
			t.Fatalf("%s %q: %s is not legal", fen, text, v.MoveText(m))
		}
		for _, s := range []string{v.MoveText(m), v.NumericText(p, m)} {
			if back, err := v.ParseMove(p, s); err != nil || !Same(back, m) || v.MoveText(back) != v.MoveText(m) {
				t.Fatalf("%s: %q names %v, %v", fen, s, back, err)
			}
		}
	})
}
