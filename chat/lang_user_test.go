package chat_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/chat/chattest"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// memLangs is a LangStore in memory that counts its reads.
type memLangs struct {
	mu    sync.Mutex
	langs map[string]string
	reads int
}

func (s *memLangs) SetLang(ctx context.Context, platform, userID, lang string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.langs[platform+"/"+userID] = lang
	return nil
}

func (s *memLangs) Langs(ctx context.Context, platform string) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	out := map[string]string{}
	for k, v := range s.langs {
		if p, u, _ := strings.Cut(k, "/"); p == platform {
			out[u] = v
		}
	}
	return out, nil
}

func langHandler(t *testing.T, store chat.LangStore) *chat.Handler {
	t.Helper()
	w, err := chattest.Catalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	svc := sessions.New(sessions.Config{Store: sessionstest.NewMemoryStore(), Games: sessionstest.Games, Rand: func(int) int { return 0 }})
	return chat.New(chat.Config{Sessions: svc, Catalogues: w, Langs: store})
}

// TestReplyInSpeakersLanguage: each reply is in the language of the person
// it answers: the platform's tag (es-MX is Spanish), unless they chose one
// with /lang, which is kept (a new handler on the same store still knows).
func TestReplyInSpeakersLanguage(t *testing.T) {
	store := &memLangs{langs: map[string]string{}}
	h := langHandler(t, store)
	say := func(name, lang, text string) chat.Reply {
		return h.Handle(ctx, chat.Message{Key: key, User: user(name), Text: text, Lang: lang})
	}
	say("alice", "en-GB", "/play count @bob color=white target=4")
	r := say("bob", "es-MX", "/accept")
	if want := "Turno de alice (Blancas): /move <jugada>."; r.Lang != "es" || !strings.Contains(r.Text(), want) {
		t.Fatalf("bob (es-MX) /accept: lang %q\n%s\nwant %q", r.Lang, r.Text(), want)
	}
	if r := say("alice", "en-GB", "/move 1"); r.Lang != "en" || !strings.Contains(r.Text(), "alice (White) played 1.") {
		t.Fatalf("alice (en-GB) /move: lang %q\n%s", r.Lang, r.Text())
	}
	if r := say("carol", "fr", "/board"); r.Lang != "en" {
		t.Fatalf("carol (fr, no catalogue) got lang %q, want the default", r.Lang)
	}
	// alice chooses Spanish: it beats her app's language, and is kept.
	if r := say("alice", "en-GB", "/lang es"); r.Error || r.Text() != "Desde ahora te hablo en Español." {
		t.Fatalf("/lang es: %+v", r)
	}
	if r := say("alice", "en-GB", "/lang"); !strings.Contains(r.Text(), "(es)") || !strings.Contains(r.Text(), "en|es") {
		t.Fatalf("/lang alone: %q", r.Text())
	}
	if r := say("alice", "en", "/lang xx"); !r.Error || !strings.Contains(r.Text(), "en|es") {
		t.Fatalf("/lang xx: %+v", r)
	}
	h2 := langHandler(t, store)
	r = h2.Handle(ctx, chat.Message{Key: key, User: user("alice"), Text: "/help move", Lang: "en"})
	if !strings.Contains(r.Text(), "jugar una jugada") {
		t.Fatalf("after a restart, alice's /help move: %q", r.Text())
	}
	if store.reads != 2 {
		t.Errorf("the store was read %d times, want once per handler and platform", store.reads)
	}
}

// TestLangOf maps the platforms' tags to catalogues.
func TestLangOf(t *testing.T) {
	w, err := chattest.Catalogues("en")
	if err != nil {
		t.Fatal(err)
	}
	for tag, want := range map[string]string{"es": "es", "es-MX": "es", "es-419": "es", "ES_es": "es", "en-US": "en", "fr": "", "": "", "de": ""} {
		if got := w.LangOf(tag); got != want {
			t.Errorf("LangOf(%q) = %q, want %q", tag, got, want)
		}
	}
}

// TestLangConcurrent: users choosing languages while others play is safe
// (run with -race).
func TestLangConcurrent(t *testing.T) {
	h := langHandler(t, &memLangs{langs: map[string]string{}})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := user(string(rune('a' + i)))
			for j := range 20 {
				text := "/board"
				if j%2 == 0 {
					text = []string{"/lang es", "/lang en"}[(i+j)%2]
				}
				h.Handle(ctx, chat.Message{Key: key, User: u, Text: text, Lang: "es-MX"})
			}
		}()
	}
	wg.Wait()
}
