package chat_test

import (
	"strings"
	"testing"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// pseudoFixture is a fixture whose bot speaks the pseudo-language: every
// catalogue message wrapped in ⟦ ⟧.
func pseudoFixture(t *testing.T) *fixture {
	store := sessionstest.NewMemoryStore()
	svc := sessions.New(sessions.Config{Store: store, Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	return &fixture{t: t, h: chat.New(chat.Config{Sessions: svc, Catalogues: chat.PseudoCatalogues("en")}), store: store}
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

// TestPseudoLanguageRules plays into every real game in the pseudo-language
// and sends what the rules refuse: a malformed move, a square off the
// board, an illegal move, a bad option, a bad formation. Each refusal must
// carry the rules' reason worded from the catalogue (a ⟦...⟧ of its own
// inside the refusal's), never the rules' English (which has no ⟦).
func TestPseudoLanguageRules(t *testing.T) {
	for _, g := range []struct {
		id, opts string
		illegal  []string // moves that are well formed but not legal at the start
	}{
		{"spanish", "", []string{"a3-b4", "c3-c5", "e3-f4"}},
		{"damas", "", []string{"a3-b4", "c3-c5", "e3-f4"}},
		{"dame", "", []string{"a3-b4", "c3-c5", "e3-f4"}},
		{"ultradamas", "", []string{"a1-b2", "c3-c5", "h6-g5"}},
		{"halma", "size=8", []string{"a1-b2", "a1-h8", "h8-g7"}},
	} {
		t.Run(g.id, func(t *testing.T) {
			store := sessionstest.NewMemoryStore()
			svc := sessions.New(sessions.Config{Store: store, Games: games.New, Rand: func(int) int { return 0 }})
			t.Cleanup(svc.Close)
			f := &fixture{t: t, h: chat.New(chat.Config{Sessions: svc, Catalogues: chat.PseudoCatalogues("en")}), store: store}
			rulesRefusal := func(who, text string) {
				t.Helper()
				r := f.say(who, text)
				line := r.Text()
				if !r.Error || !strings.HasPrefix(line, "⟦⟦") || !chat.FromCatalogue(line) {
					t.Errorf("%s %q: want a refusal starting with the rules' reason from the catalogue, got %q", who, text, line)
				}
			}
			rulesRefusal("alice", "/play "+g.id+" @bob flavour=mint")
			f.say("alice", strings.TrimSpace("/play "+g.id+" @bob color=white "+g.opts))
			f.say("bob", "/accept")
			if g.id == "ultradamas" {
				rulesRefusal("alice", "/setup a1 a1")
				rulesRefusal("alice", "/setup z9")
				f.say("alice", "/setup default")
				f.say("bob", "/setup default")
			}
			s, err := svc.Look(ctx, key)
			if err != nil || s.Turn() < 0 {
				t.Fatalf("no game to play: %v", err)
			}
			who := s.Player(s.Turn()).Name
			rulesRefusal(who, "/move nonsense")
			rulesRefusal(who, "/move z1-z2")
			legal := map[string]bool{}
			for _, m := range s.State.Moves() {
				legal[m.Text] = true
			}
			for _, mv := range g.illegal {
				if !legal[mv] {
					rulesRefusal(who, "/move "+mv)
				}
			}
		})
	}
}
