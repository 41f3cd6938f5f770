package web_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/sessions"
)

// TestTokenRoundTrip: a signed token reads back as it was made, in
// characters Telegram's start parameters take, short enough for them.
func TestTokenRoundTrip(t *testing.T) {
	s, err := web.NewSigner([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, tok := range []web.Token{
		{Scope: web.ScopePlay, User: sessions.User{ID: "1234567890", Name: "alice — Ålice"},
			Key:     sessions.Key{Platform: "discord", Channel: "1234567890123456789", Thread: "1234567890123456790"},
			Created: time.Date(2026, 4, 30, 8, 1, 2, 345678901, time.UTC), Expires: now.Add(24 * time.Hour)},
		{Scope: web.ScopeWatch, Key: sessions.Key{Platform: "telegram", Channel: "-1001234567890", Thread: "77"},
			Created: time.Date(2026, 4, 30, 8, 1, 2, 1, time.UTC), Expires: now.Add(30 * 24 * time.Hour)},
		{Scope: web.ScopeTournament, Key: sessions.Key{Platform: "console", Channel: "terminal"}, Tournament: "12", Expires: now.Add(time.Hour)},
	} {
		text := s.Sign(tok)
		if strings.Trim(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != "" || len(text) > 512 {
			t.Errorf("token %q: want at most 512 of A-Z a-z 0-9 _ -", text)
		}
		got, err := s.Parse(text, now)
		if err != nil {
			t.Fatalf("Parse(Sign(%+v)): %v", tok, err)
		}
		if got.Scope != tok.Scope || got.User != tok.User || got.Key != tok.Key || !got.Created.Equal(tok.Created) ||
			got.Tournament != tok.Tournament || !got.Expires.Equal(tok.Expires) || got.Ref() != tok.Ref() {
			t.Errorf("Parse(Sign(%+v)) = %+v", tok, got)
		}
	}
}

// TestTokenRefusals: a token changed anywhere, cut short, signed with
// another secret, or past its time is refused, never read.
func TestTokenRefusals(t *testing.T) {
	s, _ := web.NewSigner([]byte("0123456789abcdef0123456789abcdef"))
	other, _ := web.NewSigner([]byte("another secret, another bot.....!"))
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	tok := web.Token{Scope: web.ScopePlay, User: sessions.User{ID: "7", Name: "bob"}, Key: sessions.Key{Platform: "console", Channel: "c"},
		Created: now.Add(-time.Hour), Expires: now.Add(time.Hour)}
	good := s.Sign(tok)
	flip := func(i int) string {
		b := []byte(good)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	for _, c := range []struct {
		name, text string
		at         time.Time
		want       error
	}{
		{"a letter of the user changed", flip(len(good) / 2), now, web.ErrBadToken},
		{"a letter of the signature changed", flip(len(good) - 2), now, web.ErrBadToken},
		{"the first letter changed", flip(0), now, web.ErrBadToken},
		{"cut short", good[:len(good)-4], now, web.ErrBadToken},
		{"empty", "", now, web.ErrBadToken},
		{"not base64", good[:10] + "!" + good[11:], now, web.ErrBadToken},
		{"another bot's", other.Sign(tok), now, web.ErrBadToken},
		{"expired", good, now.Add(time.Hour), web.ErrExpired},
		{"long expired", good, now.Add(1000 * time.Hour), web.ErrExpired},
		{"huge", strings.Repeat("A", 5000), now, web.ErrBadToken},
	} {
		if _, err := s.Parse(c.text, c.at); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := web.NewSigner([]byte("short")); err == nil {
		t.Error("a 5-byte secret was taken")
	}
}

// FuzzParseToken: no text makes Parse panic, and what it takes is a
// token it signed.
func FuzzParseToken(f *testing.F) {
	s, _ := web.NewSigner([]byte("0123456789abcdef0123456789abcdef"))
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	f.Add(s.Sign(web.Token{Scope: web.ScopeWatch, Key: sessions.Key{Platform: "p", Channel: "c"}, Expires: now.Add(time.Hour)}))
	f.Add("")
	f.Add("AQI")
	f.Fuzz(func(t *testing.T, text string) {
		tok, err := s.Parse(text, now)
		if err == nil && s.Sign(tok) != text {
			t.Fatalf("Parse took %q, which is not what Sign writes of it", text)
		}
	})
}
