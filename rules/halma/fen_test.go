package halma

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

func TestFENRoundTrip(t *testing.T) {
	for _, v := range []Variant{{Size: 8, Players: 2}, {Size: 10, Players: 2}, {Size: 16, Players: 2}, {Size: 16, Players: 4}} {
		for first := 0; first < v.Players; first++ {
			p := v.Start(first)
			q, err := ParseFEN(p.FEN())
			if err != nil || q != p {
				t.Errorf("%v first %d: %s parses to %v, %v", v, first, p.FEN(), q.FEN(), err)
			}
		}
	}
	// Any order and case, spaces around squares: the same position.
	p, err := ParseFEN(" 8:2:2: B2 ,a1 :h8,G7 ")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.FEN(), "8:2:2:a1,b2:h8,g7"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestFENErrors(t *testing.T) {
	for _, fen := range []string{
		"",
		"8:2",
		"9:2:1:a1:h8",
		"8:3:1:a1:h8",
		"8:4:1:a1:h8:a8:h1",
		"10:4:1:a1:j10:a10:j1",
		"8:2:0:a1:h8",
		"8:2:3:a1:h8",
		"8:2:x:a1:h8",
		"8:2:1:a1",
		"8:2:1:a1:h8:h1",
		"8:2:1:a1:a1",
		"8:2:1:a1,a1:h8",
		"8:2:1:i1:h8",
		"8:2:1:a9:h8",
		"8:2:1:a1,:h8",
		"8:2:1:a1,b1,c1,d1,e1,f1,g1,h1,a2,b2,c2:h8",
		"16:2:1:a17:p16",
		"+8:2:1:a1:h8",
		"8:2:1:a01:h8",
		"8:2:1:a1 b1:h8",
	} {
		t.Run(fen, func(t *testing.T) {
			_, err := ParseFEN(fen)
			wantKind(t, err, rules.ErrBadPosition)
		})
	}
}

func TestLoadChecksVariant(t *testing.T) {
	g, _ := New(Variant{Size: 16, Players: 4})
	_, err := g.Load((Variant{Size: 16, Players: 2}).Start(0).FEN())
	wantKind(t, err, rules.ErrBadPosition)
}

// FuzzFEN: whatever parses prints and parses back to the same position;
// whatever does not is a one-line rules.ErrBadPosition error.
func FuzzFEN(f *testing.F) {
	for _, s := range readLines(f, "fens.txt") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			wantKind(t, err, rules.ErrBadPosition)
			return
		}
		out := p.FEN()
		q, err := ParseFEN(out)
		if err != nil || q != p || q.FEN() != out {
			t.Fatalf("%q printed %q which parses to %q, %v", s, out, q.FEN(), err)
		}
	})
}

// FuzzMove: a text names a legal move, whose own text and full path name
// it again, or gets a one-line typed error.
func FuzzMove(f *testing.F) {
	fens := readLines(f, "fens.txt")
	for i, s := range readLines(f, "moves.txt") {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		p, err := ParseFEN(fens[int(which)%len(fens)])
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(text)
		if err != nil {
			var re *rules.Error
			if !errors.As(err, &re) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: error %q is not a one-line *rules.Error", text, err)
			}
			return
		}
		legal := false
		for _, l := range p.Moves() {
			legal = legal || l == m
		}
		if !legal {
			t.Fatalf("%q gave %v, not a legal move", text, m)
		}
		if again, err := p.ParseMove(m.String()); err != nil || again != m {
			t.Fatalf("%q gave %v; its text gives %v, %v", text, m, again, err)
		}
		if m.IsPass() {
			return
		}
		var path []string
		for _, s := range p.Path(m) {
			path = append(path, s.String())
		}
		if again, err := p.ParseMove(strings.Join(path, "-")); err != nil || again != m {
			t.Fatalf("%v: its path %v gives %v, %v", m, path, again, err)
		}
	})
}

// readLines reads the non-empty lines of a file in testdata, not counting
// lines starting with #.
func readLines(tb testing.TB, name string) []string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}
