package draughts

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

func TestPDNExport(t *testing.T) {
	g := play(t, NewGame(Spanish, Initial), "11-15", "23-19", "9-13")
	got := g.PDN(rules.Meta{Event: "Club", Date: "2026.11.21", Names: []string{"ana", "ben"}})
	want := `[Event "Club"]
[Date "2026.11.21"]
[White "ana"]
[Black "ben"]
[Result "*"]
[GameType "24,W,8,8,N1,1"]

1. 11-15 23-19 2. 9-13 *
`
	if got != want {
		t.Fatalf("PDN:\n%s\nwant:\n%s", got, want)
	}
	d := play(t, NewGame(DameShort, mustFEN(t, DameShort, "B:Wc3:Bd6,b6,h8")), "h8-g7").Resign(White)
	got = d.PDN(rules.Meta{})
	for _, line := range []string{`[GameType "0,W,8,8,N1,0"]`, `[Variant "dame flying=no"]`, `[FEN "B:Wc3:Bb6,d6,h8"]`, `[Result "0-1"]`, "1... 29-25 0-1"} {
		if !strings.Contains(got, line) {
			t.Errorf("PDN lacks %s:\n%s", line, got)
		}
	}
	// The two series with the same ends are written in full.
	d = play(t, NewGame(Dame, mustFEN(t, Dame, "W:Wc3:Bd4,b4,d6,b6,h8")), "c3xe5xc7")
	if got := d.PDN(rules.Meta{}); !strings.Contains(got, "1. 11x18x27 *") {
		t.Errorf("PDN:\n%s", got)
	}
}

func TestPDNRoundTrip(t *testing.T) {
	for vi, v := range fuzzVariants {
		for n := 0; n < 10; n++ {
			rng := rand.New(rand.NewPCG(uint64(vi)+100, uint64(n)))
			start := Initial
			if n%3 == 1 {
				start = mustFEN(t, v, "B:W1-12:B21-32")
			}
			g := NewGame(v, start)
			for ply := 0; ply < 400 && !g.Outcome().Over && !(n%4 == 3 && ply == 20); ply++ {
				if h := g.Huffable(); h != 0 && (rng.IntN(2) == 0 || len(g.Moves()) == 0) {
					g, _ = g.Huff(Square(bits.TrailingZeros32(h)))
					continue
				}
				ms := g.Moves()
				g, _ = g.Play(ms[rng.IntN(len(ms))])
			}
			if n%4 == 3 {
				g = g.AgreeDraw()
			}
			meta := rules.Meta{Event: "test \"quoted\"", Date: "2026.01.02", Names: []string{"W", "B"}}
			text := g.PDN(meta)
			back, m2, err := ParsePDN(text)
			if err != nil {
				t.Fatalf("%s game %d: %v\n%s", v.ID, n, err, text)
			}
			if back.v != v || back.start != g.start || back.cur != g.cur || !slices.Equal(back.plies, g.plies) ||
				!slices.Equal(back.history, g.history) || back.Outcome() != g.Outcome() {
				t.Fatalf("%s game %d does not round-trip: %v %v %v %v %v %v\n%s\n%s", v.ID, n, back.start != g.start, back.cur != g.cur, !slices.Equal(back.plies, g.plies),
					!slices.Equal(back.history, g.history), back.Outcome(), g.Outcome(), text, back.PDN(meta))
			}
			if m2.Event != meta.Event || m2.Date != meta.Date || !slices.Equal(m2.Names, meta.Names) || m2.Result != g.Result() {
				t.Fatalf("meta %+v", m2)
			}
			if again := back.PDN(meta); again != text {
				t.Fatalf("export-import-export differs:\n%s\n%s", text, again)
			}
		}
	}
}

func TestParsePDNErrors(t *testing.T) {
	for _, c := range []struct{ text, msg string }{
		{"[Event \"x\"\n1. 11-15", "unterminated tag"},
		{"[GameType \"20,W,10,10,N2,0\"]\n1. 32-28", "GameType"},
		{"[Variant \"checkers\"]\n", "unknown game"},
		{"[Variant \"dame flying=perhaps\"]\n", "not allowed"},
		{"[FEN \"X:W:B\"]\n", "unknown side"},
		{"1. 11-15 11-15", `move 2 ("11-15")`},
		{"1. 11-15 22-18 12-16\x00", `move 3 ("12-16\x00")`},
		{"1. 11-15 {never closed", "unterminated comment"},
		{"1. 11-15 {huff 9} 22-18", "bad huff"},
	} {
		_, _, err := ParsePDN(c.text)
		if err == nil || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want %q", c.text, err, c.msg)
		}
	}
	// A standard game with algebraic moves and move numbers glued on.
	g, _, err := ParsePDN("[GameType \"24\"]\n1.d3-c4 e6-d5 2.c4xe6 f7xd5 1/2-1/2")
	if err != nil || len(g.plies) != 4 || g.Outcome().Reason != rules.DrawAgreed {
		t.Fatalf("%v %+v", err, g.Outcome())
	}
}
