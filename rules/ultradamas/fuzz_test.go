package ultradamas

import (
	"bufio"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules"
)

// seeds reads the non-comment lines of a testdata file.
func seeds(f *testing.F, name string) []string {
	file, err := os.Open("testdata/" + name)
	if err != nil {
		f.Fatal(err)
	}
	defer file.Close()
	var out []string
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		if ln := sc.Text(); ln != "" && !strings.HasPrefix(ln, "#") {
			out = append(out, ln)
		}
	}
	return out
}

// FuzzFEN: any text either fails with a typed error or gives a valid
// position whose FEN reads back to the same position and prints the same.
func FuzzFEN(f *testing.F) {
	for _, s := range seeds(f, "fens.txt") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParseFEN(text)
		if err != nil {
			var re *rules.Error
			if !errors.As(err, &re) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("ParseFEN(%q): untyped or multi-line error %v", text, err)
			}
			return
		}
		if err := p.Valid(); err != nil {
			t.Fatalf("ParseFEN(%q) accepted an invalid position: %v", text, err)
		}
		q, err := ParseFEN(p.FEN())
		if err != nil || q != p || q.FEN() != p.FEN() {
			t.Fatalf("ParseFEN(%q) = %s, which reads back as %s, %v", text, p.FEN(), q.FEN(), err)
		}
	})
}

// FuzzMove: any text in any position either fails with a typed one-line
// error or names a legal move whose text names it again.
func FuzzMove(f *testing.F) {
	for _, s := range seeds(f, "moves.txt") {
		fen, move, _ := strings.Cut(s, "\t")
		f.Add(fen, move)
	}
	f.Fuzz(func(t *testing.T, fen, text string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		m, err := p.ParseMove(text)
		if err != nil {
			var re *rules.Error
			if !errors.As(err, &re) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: ParseMove(%q): untyped or multi-line error %v", fen, text, err)
			}
			return
		}
		legal := false
		for _, l := range p.Moves(nil) {
			legal = legal || l == m
		}
		if !legal {
			t.Fatalf("%s: ParseMove(%q) gave a move not in the legal list", fen, text)
		}
		if back, err := p.ParseMove(p.Text(m)); err != nil || back != m {
			t.Fatalf("%s: %q -> %q does not read back: %v", fen, text, p.Text(m), err)
		}
		if err := p.Apply(m).Valid(); err != nil {
			t.Fatalf("%s: %q leaves an invalid position: %v", fen, text, err)
		}
	})
}
