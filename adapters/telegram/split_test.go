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

// TestSplitHTML: a long table in a <pre> block is cut into messages that
// each hold a whole block, within Telegram's length.
func TestSplitHTML(t *testing.T) {
	var rows []string
	for i := range 300 {
		rows = append(rows, strings.Repeat("x", 20)+" "+strings.Repeat("é", i%7))
	}
	in := "Standings after round 3:\n<pre>" + strings.Join(rows, "\n") + "</pre>\nPts: points"
	got := splitHTML(in, 1000)
	if len(got) < 2 {
		t.Fatalf("splitHTML gave %d pieces", len(got))
	}
	var back []string
	for i, p := range got {
		if n := utf8.RuneCountInString(p); n > 1000 {
			t.Errorf("piece %d has %d characters", i, n)
		}
		if strings.Count(p, "<pre>") != 1 || strings.Count(p, "</pre>") != 1 || strings.Index(p, "<pre>") > strings.Index(p, "</pre>") {
			t.Errorf("piece %d does not hold one whole <pre> block: %q", i, p)
		}
		back = append(back, p)
	}
	joined := strings.ReplaceAll(strings.Join(back, "\n"), "</pre>\n<pre>", "\n")
	if joined != in {
		t.Errorf("the pieces do not make the text again:\n%q\nwant\n%q", joined, in)
	}
	if got := splitHTML("a <b>b</b>\nc", 100); !slices.Equal(got, []string{"a <b>b</b>\nc"}) {
		t.Errorf("splitHTML of a short text = %q", got)
	}
}
