package telegram

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	long := strings.Repeat("é", 25)
	for _, tc := range []struct {
		in   string
		n    int
		want []string
	}{
		{"", 10, []string{""}},
		{"short", 10, []string{"short"}},
		{"line one\nline two\nline three", 18, []string{"line one\nline two", "line three"}},
		{"aaaa\nbbbb\ncccc", 9, []string{"aaaa\nbbbb", "cccc"}},
		{long, 10, []string{long[:20], long[20:40], long[40:]}},
		{"ab\n" + long, 10, []string{"ab", long[:20], long[20:40], long[40:]}},
	} {
		got := split(tc.in, tc.n)
		if !slices.Equal(got, tc.want) {
			t.Errorf("split(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
		for _, p := range got {
			if utf8.RuneCountInString(p) > tc.n || !utf8.ValidString(p) {
				t.Errorf("split(%q, %d): piece %q too long or cut in a rune", tc.in, tc.n, p)
			}
		}
	}
}
