package textsplit

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	e25 := strings.Repeat("é", 25) // 25 runes, 50 bytes
	for _, tc := range []struct {
		name string
		in   string
		n    int
		u    Unit
		want []string
	}{
		{"empty", "", 10, Runes, nil},
		{"short", "short", 10, Runes, []string{"short"}},
		{"exactly n", "0123456789", 10, Runes, []string{"0123456789"}},
		{"exactly n, a line break after", "0123456789\nab", 10, Runes, []string{"0123456789", "ab"}},
		{"at the last line break", "line one\nline two\nline three", 18, Runes, []string{"line one\nline two", "line three"}},
		{"a line break just past n", "aaaa\nbbbb\ncccc", 9, Runes, []string{"aaaa\nbbbb", "cccc"}},
		{"many newlines", "a\n\n\n\n\n\n\n\n\n\n\n\nb", 3, Runes, []string{"a\n\n", "\n\n\n", "\n\n\n", "\nb"}},
		{"only newlines", "\n\n\n\n\n", 2, Runes, []string{"\n\n", "\n\n"}},
		{"a leading newline", "\n0123456789ab", 10, Runes, []string{"0123456789", "ab"}},
		{"at a space", "one two three four", 10, Runes, []string{"one two ", "three four"}},
		{"at the last space", "one two three four", 9, Runes, []string{"one two ", "three ", "four"}},
		{"a line break before a space", "one\ntwo three four", 12, Runes, []string{"one", "two three ", "four"}},
		{"one long word", "abcdefghijklmnopqrstuvwxy", 10, Runes, []string{"abcdefghij", "klmnopqrst", "uvwxy"}},
		{"a long word after a space", " abcdefghijkl", 10, Runes, []string{" abcdefghi", "jkl"}},
		{"multibyte runes", e25, 10, Runes, []string{e25[:20], e25[20:40], e25[40:]}},
		{"multibyte bytes", e25, 11, Bytes, []string{e25[:10], e25[10:20], e25[20:30], e25[30:40], e25[40:]}},
		{"emoji bytes", "🎲🎲🎲", 5, Bytes, []string{"🎲", "🎲", "🎲"}},
		{"n below one rune", "🎲é", 1, Bytes, []string{"🎲", "é"}},
		{"a line then a long line", "ab\n" + e25, 10, Runes, []string{"ab", e25[:20], e25[20:40], e25[40:]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Split(tc.in, tc.n, tc.u)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("Split(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
			for _, p := range got {
				if p == "" || !utf8.ValidString(p) || (tc.n >= 4 && tc.u.Len(p) > tc.n) {
					t.Errorf("piece %q empty, too long or cut in a rune", p)
				}
			}
		})
	}
}

// TestSplitMakesTheText: the pieces, joined where the line breaks cut at
// were, make the text again.
func TestSplitMakesTheText(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		b.WriteString(strings.Repeat("Grüße 🎲 ", i%9))
		b.WriteString(strings.Repeat("x", i%40))
		b.WriteByte('\n')
	}
	text := b.String()
	for _, u := range []Unit{Runes, Bytes} {
		for _, n := range []int{7, 30, 100, 2000} {
			parts := Split(text, n, u)
			rest := text
			for _, p := range parts {
				if u.Len(p) > n {
					t.Fatalf("unit %d, n %d: piece %q too long", u, n, p)
				}
				if strings.HasPrefix(rest, "\n"+p) {
					rest = rest[1:] // the line break cut at
				}
				if !strings.HasPrefix(rest, p) {
					t.Fatalf("unit %d, n %d: piece %q is not where the text goes on: %q", u, n, p, rest[:min(len(rest), 40)])
				}
				rest = rest[len(p):]
			}
			if strings.Trim(rest, "\n") != "" {
				t.Fatalf("unit %d, n %d: the pieces leave %q", u, n, rest)
			}
		}
	}
}
