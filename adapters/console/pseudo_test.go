package console_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/chat/chattest"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestConsolePseudoLanguage plays a game on the console in the
// pseudo-language and fails on any line it prints, besides the echo of
// what was typed and the text board, that did not come from the catalogue.
func TestConsolePseudoLanguage(t *testing.T) {
	w, err := chattest.Pseudo()
	if err != nil {
		t.Fatal(err)
	}
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	var out bytes.Buffer
	script := []string{"/play count @bob color=white target=4", "/as bob", "/accept", "/as alice", "/move 2",
		"/as bob", "/draw", "/as alice", "/decline", "/board", "/moves", "/as", "/as b!b", "/help", "/games", "/lang",
		"/move 2", "/as bob", "/move 2", "/history", "/show 1", "/replay 1"}
	err = console.Run(ctx, console.Config{Handler: chat.New(chat.Config{Sessions: svc, Catalogues: w}),
		In: strings.NewReader(strings.Join(script, "\n") + "\n"), Out: &out, As: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	echo := regexp.MustCompile(`^\w+> `)
	board := regexp.MustCompile(`^\s*(\d+ .* \d+|[a-p](\s+[a-p])+)\s*$`)
	lines := 0
	for _, l := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		if echo.MatchString(l) || board.MatchString(l) || l == "" {
			continue
		}
		lines++
		if !chattest.FromCatalogue(l) {
			t.Errorf("line not from the catalogue: %q", l)
		}
	}
	if testing.Verbose() {
		t.Log(out.String())
	}
	if lines < len(script) {
		t.Errorf("only %d lines checked:\n%s", lines, out.String())
	}
}

// TestConsoleDefaultLanguage: the console speaks the bot's default
// language (BOT_LANG), and /lang changes it for the one typing.
func TestConsoleDefaultLanguage(t *testing.T) {
	w, err := chattest.Catalogues("es")
	if err != nil {
		t.Fatal(err)
	}
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	var out bytes.Buffer
	script := []string{"/play count @bob color=white target=4", "/as bob", "/accept", "/lang en", "/board"}
	err = console.Run(ctx, console.Config{Handler: chat.New(chat.Config{Sessions: svc, Catalogues: w}),
		In: strings.NewReader(strings.Join(script, "\n") + "\n"), Out: &out, As: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"Empieza la partida: Counting game, alice (Blancas) vs bob (Negras)",
		"Turno de alice (Blancas): /move <jugada>.", "bob> /board", "alice (White) to move: /move <move>"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
