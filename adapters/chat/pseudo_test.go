package chat_test

import (
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/chat"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// pseudoFixture is a fixture whose bot speaks the pseudo-language: every
// catalogue message wrapped in ⟦ ⟧.
func pseudoFixture(t *testing.T) *fixture {
	store := sessionstest.NewMemoryStore()
	svc := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	return &fixture{t: t, h: chat.New(chat.Config{Sessions: svc, Words: chat.PseudoWords("en")}), store: store}
}

// TestPseudoLanguage plays games in the pseudo-language and fails on any
// line the bot sends that did not come from the catalogue: a word left in
// the code would not be translated.
func TestPseudoLanguage(t *testing.T) {
	f := pseudoFixture(t)
	for _, step := range []struct{ who, text string }{
		{"alice", "/accept"},
		{"alice", "/move 1"},
		{"alice", "/play count @bob color=purple"},
		{"alice", "/play count @bob color=white target=4"},
		{"alice", "/accept"},
		{"carol", "/accept"},
		{"alice", "/move 1"},
		{"alice", "/play count @bob"},
		{"bob", "/accept"},
		{"bob", "/move 1"},
		{"carol", "/move 1"},
		{"alice", "/move 3"},
		{"alice", "/move 2"},
		{"bob", "/draw"},
		{"alice", "/decline"},
		{"bob", "/move 1"},
		{"alice", "/draw"},
		{"bob", "/draw"},
		{"alice", "/play count @bob target=4"},
		{"bob", "/decline"},
		{"alice", "/play count target=4"},
		{"alice", "/cancel"},
		{"alice", "/play count @bob target=4"},
		{"bob", "/accept"},
		{"alice", "/move 1"},
		{"bob", "/resign"},
		{"alice", "/play count @bob target=4"},
		{"bob", "/accept"},
		{"alice", "/move 2"},
		{"bob", "/move 2"},
		{"alice", "/help"},
		{"alice", "/help move"},
		{"alice", "/help nothing"},
		{"alice", "/games"},
		{"alice", "/lang"},
		{"alice", "/lang xx"},
		{"alice", "/history"},
		{"alice", "/history @nobody"},
		{"alice", "/show 1"},
		{"alice", "/show x"},
		{"alice", "/replay 1"},
		{"alice", "/export 1"},
		{"alice", "/rating"},
		{"alice", "/top"},
		{"alice", "/top count"},
		{"alice", "/top count 2026-01"},
		{"alice", "/nonsense"},
		{"alice", "hello"},
		{"alice", "/move"},
		{"alice", "/board now"},
		{"alice", "/notify on"},
		{"alice", "/play count @bob time=1h target=4"},
		{"bob", "/accept"},
		{"alice", "/board"},
		{"alice", "/moves"},
		{"alice", "/takeback"},
		{"alice", "/move 1"},
		{"alice", "/takeback"},
		{"bob", "/decline"},
		{"alice", "/takeback"},
		{"bob", "/accept"},
		{"alice", "/resign"},
	} {
		r := f.say(step.who, step.text)
		if len(r.Lines) == 0 {
			t.Errorf("%s %q: no reply", step.who, step.text)
		}
		for _, line := range r.Lines {
			if !chat.FromCatalogue(line) {
				t.Errorf("%s %q: line not from the catalogue: %q", step.who, step.text, line)
			}
		}
		for _, b := range r.Buttons {
			if !chat.FromCatalogue(b.Label) {
				t.Errorf("%s %q: button %q not from the catalogue", step.who, step.text, b.Label)
			}
		}
		if testing.Verbose() {
			t.Logf("%s %s\n%s", step.who, step.text, strings.Join(r.Lines, "\n"))
		}
	}
}
