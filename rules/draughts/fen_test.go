package draughts

import (
	"errors"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

func TestFEN(t *testing.T) {
	for _, c := range []struct {
		v        Variant
		in, want string
	}{
		{Spanish, "W:Wb1,d1,Kf5:Bb7,d7", "W:Wb1,d1,Kf5:Bb7,d7"},
		{Spanish, "W:W1-12:B21-32", "W:Wb1,d1,f1,h1,a2,c2,e2,g2,b3,d3,f3,h3:Ba6,c6,e6,g6,b7,d7,f7,h7,a8,c8,e8,g8"},
		{Dame, "W:W1-12:B21-32", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"},
		{Dame, "b:bKh8, c3 :w K1,3.", "B:Wc1,Kg1:Bc3,Kh8"},
		{Dame, "W:BK1:W", "W:W:BKg1"},
		{Spanish, "W:W:B", "W:W:B"},
		{Spanish, "W", "W:W:B"},
	} {
		p, err := c.v.ParseFEN(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := c.v.FEN(p); got != c.want {
			t.Errorf("%s: FEN %s, want %s", c.in, got, c.want)
		}
		if q, err := c.v.ParseFEN(c.v.FEN(p)); err != nil || q != p {
			t.Errorf("%s: does not round-trip: %v", c.in, err)
		}
	}
	for _, v := range []Variant{Spanish, Damas, Dame} {
		if p, err := v.ParseFEN("W:W1-12:B21-32"); err != nil || p != Initial {
			t.Errorf("%s: numeric initial position: %v", v.ID, err)
		}
	}
}

func TestFENErrors(t *testing.T) {
	for _, c := range []struct {
		v        Variant
		fen, msg string
	}{
		{Spanish, "", "empty"},
		{Spanish, "X:Wb1:Bb7", `unknown side to move "X"`},
		{Spanish, "White:Wb1:Bb7", "unknown side to move"},
		{Spanish, "W:Wi9:Bb7", `"i9" is not a square`},
		{Spanish, "W:Wb0:Bb7", `"b0" is not a square`},
		{Spanish, "W:W33:Bb7", `"33" is not a square`},
		{Spanish, "W:W0:Bb7", `"0" is not a square`},
		{Spanish, "W:Wa1:Bb7", "a1 is not a playing square"},
		{Dame, "W:Wb1:Bb7", "b1 is not a playing square"},
		{Spanish, "W:Wb1,b1:Bb7", "square b1 listed twice"},
		{Spanish, "W:Wb1:Bb1", "square b1 listed twice"},
		{Spanish, "W:W4:Bb1", "square b1 listed twice"},
		{Spanish, "W:W1-13:B21-32", "White has 13 pieces"},
		{Spanish, "W:W1-12:B20-32", "Black has 13 pieces"},
		{Spanish, "W:Wa8:Bb7", "a white man on a8"},
		{Spanish, "W:Wd1:Bh1", "a black man on h1"},
		{Spanish, "W:Wb1:Wd1", "White pieces listed twice"},
		{Spanish, "W:Wb1:Bb7:Bd7", "too many sections"},
		{Spanish, "W:Xb1:Bb7", "must start with W or B"},
		{Spanish, "W::Bb7", "empty section"},
		{Spanish, "W:W1-40:B", "not a range"},
		{Spanish, "W:W12-1:B", "not a range"},
		{Spanish, "W:Wb1,:B", "a square is missing"},
		{Spanish, "W:WK:B", "a square is missing"},
		{Spanish, "W:Wb1\n:Bb7x", `"b7x" is not a square`},
	} {
		p, err := c.v.ParseFEN(c.fen)
		if !errors.Is(err, rules.ErrBadPosition) || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v (%v), want ErrBadPosition with %q", c.fen, err, p, c.msg)
		}
		if p != (Position{}) {
			t.Errorf("%q: a position came back with the error", c.fen)
		}
	}
}

func TestNumbers(t *testing.T) {
	// The rules page: Spanish 1 = h1, 4 = b1, 5 = g2, 32 = a8, the long
	// diagonal 1-5-10-14-19-23-28-32; dame and damas 1 = g1, 4 = a1,
	// 5 = h2, 32 = b8.
	for _, c := range []struct {
		v  Variant
		n  int
		sq string
	}{
		{Spanish, 1, "h1"}, {Spanish, 2, "f1"}, {Spanish, 3, "d1"}, {Spanish, 4, "b1"}, {Spanish, 5, "g2"}, {Spanish, 32, "a8"},
		{Spanish, 10, "f3"}, {Spanish, 14, "e4"}, {Spanish, 19, "d5"}, {Spanish, 23, "c6"}, {Spanish, 28, "b7"},
		{Dame, 1, "g1"}, {Dame, 4, "a1"}, {Dame, 5, "h2"}, {Dame, 32, "b8"}, {Damas, 11, "c3"}, {Damas, 15, "d4"},
	} {
		f, ok := c.v.SquareOfNumber(c.n)
		if !ok || c.v.Rules(f).String() != c.sq || c.v.Number(f) != c.n {
			t.Errorf("%s %d: %s, want %s", c.v.ID, c.n, c.v.Rules(f), c.sq)
		}
		sq, _ := rules.ParseSquare(c.sq, 8)
		if g, ok := c.v.SquareOf(sq); !ok || g != f {
			t.Errorf("%s %s: square %d, want %d", c.v.ID, c.sq, g, f)
		}
	}
	for n := 1; n <= 32; n++ {
		f, _ := Spanish.SquareOfNumber(n)
		on := longDiagonal&(1<<f) != 0
		want := strings.Contains("-1-5-10-14-19-23-28-32-", "-"+itoa(n)+"-")
		if on != want {
			t.Errorf("Spanish %d on the long diagonal: %v", n, on)
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
