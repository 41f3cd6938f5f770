package console_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// update rewrites the golden transcripts instead of comparing with them:
// go test ./adapters/console -run Golden -update.
var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/golden")

// goldenScript is a whole game of Spanish draughts on the console: /help,
// /games, a challenge, a move out of turn, an illegal move, /moves,
// /board, a draw offered and declined, /lang, and a resignation.
var goldenScript = []string{
	"/help", "/games", "/help move",
	"/play spanish @bob color=white", "/as bob", "/accept",
	"/move 22-18", // out of turn
	"/as alice", "/move b3-b5", "/move b3-a4",
	"/as bob", "/moves", "/move 22-18",
	"/as alice", "/draw", "/as bob", "/decline",
	"/board", "/lang", "/frobnicate", "/resign",
}

// transcript plays goldenScript on a console speaking lang.
func transcript(t *testing.T, lang string) string {
	t.Helper()
	w, err := chat.NewCatalogues(lang)
	if err != nil {
		t.Fatal(err)
	}
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Rand: func(int) int { return 0 },
		Places: sessions.PlaceSet{console.Platform: console.Places{}}})
	var out bytes.Buffer
	err = console.Run(ctx, console.Config{Handler: chat.New(chat.Config{Sessions: svc, Catalogues: w}),
		In: strings.NewReader(strings.Join(goldenScript, "\n") + "\n"), Out: &out, As: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestGoldenTranscripts plays the same whole game in every language and
// compares what the console printed with testdata/golden/<lang>.txt.
func TestGoldenTranscripts(t *testing.T) {
	got := map[string]string{}
	for _, lang := range []string{"en", "es", "de", "tl"} {
		got[lang] = transcript(t, lang)
		file := filepath.Join("testdata", "golden", lang+".txt")
		if *update {
			if err := os.WriteFile(file, []byte(got[lang]), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (go test -run Golden -update writes it)", err)
		}
		if got[lang] != string(want) {
			t.Errorf("%s: the transcript differs from %s (go test -run Golden -update rewrites it):\n%s",
				lang, file, firstDiff(string(want), got[lang]))
		}
	}
	// No English line left: a line of es, de or tl that equals the English
	// line in the same place is English, unless it holds no words (an echo
	// of what was typed, the board, moves, names, numbers).
	en := strings.Split(got["en"], "\n")
	for _, lang := range []string{"es", "de", "tl"} {
		lines := strings.Split(got[lang], "\n")
		if len(lines) != len(en) {
			t.Errorf("%s: %d lines, en has %d", lang, len(lines), len(en))
			continue
		}
		for i, l := range lines {
			if l == en[i] && hasWords(l) {
				t.Errorf("%s line %d is English: %q", lang, i+1, l)
				continue
			}
			// Nor a piece of English inside a translated line (a
			// reason from a catalogue part left untranslated).
			for _, part := range clauseRe.Split(en[i], -1) {
				if len(wordRe.FindAllString(nonWordRe.ReplaceAllString(part, " "), -1)) >= 3 && strings.Contains(l, part) {
					t.Errorf("%s line %d holds the English %q: %q", lang, i+1, part, l)
				}
			}
		}
	}
}

var (
	echoRe    = regexp.MustCompile(`^\w+> `)
	nonWordRe = regexp.MustCompile(`FEN: \S+|/\w+|\S+=\S+|\b(alice|bob|FEN|W|B|K|en|es|de|tl)\b|\b[a-p]?\d+([-x:^;][a-p]?\d+)*\b|#\d+`)
	wordRe    = regexp.MustCompile(`\pL\pL+`)
	clauseRe  = regexp.MustCompile(`[.;:()—] *`)
)

// hasWords reports whether a line holds words to translate: it is not an
// echo of a typed line and has a run of letters besides commands, options,
// names, squares, moves and numbers.
func hasWords(l string) bool {
	if echoRe.MatchString(l) {
		return false
	}
	return wordRe.MatchString(nonWordRe.ReplaceAllString(l, " "))
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\nwant: %s\ngot:  %s", i+1, a, b)
		}
	}
	return ""
}
