package web_test

import (
	"encoding/base64"
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

// FuzzParseToken: no text makes Parse panic, every change of a sealed
// token is refused, and what Parse takes reads back the same when sealed
// again.
func FuzzParseToken(f *testing.F) {
	s, _ := web.NewSigner([]byte("0123456789abcdef0123456789abcdef"))
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	good := s.Sign(web.Token{Scope: web.ScopePlay, User: sessions.User{ID: "42", Name: "ann"}, Key: sessions.Key{Platform: "p", Channel: "c"},
		Expires: now.Add(time.Hour), Gen: 3})
	f.Add(good, 0, byte(1))
	f.Add(good, len(good)/2, byte(0x20))
	f.Add("", 0, byte(0))
	f.Add("AQI", 1, byte(1))
	f.Fuzz(func(t *testing.T, text string, at int, flip byte) {
		tok, err := s.Parse(text, now)
		if err == nil {
			again, err := s.Parse(s.Sign(tok), now)
			if err != nil || again != tok {
				t.Fatalf("Parse took %q as %+v, which seals back as %+v, %v", text, tok, again, err)
			}
		}
		// Every change of a good token's bytes is refused.
		b, _ := base64.RawURLEncoding.DecodeString(good)
		if flip == 0 || at < 0 {
			return
		}
		b[at%len(b)] ^= flip
		if _, err := s.Parse(base64.RawURLEncoding.EncodeToString(b), now); err == nil {
			t.Fatalf("a token with byte %d changed by %#x was taken", at%len(b), flip)
		}
	})
}

// TestTokenRevealsNothing: a sealed token's text, and its bytes decoded,
// hold none of what it names: not the chat's id, the user's id or name,
// nor the platform; and two seals of one token differ. The ids are long
// enough that random text holds them by chance with no real odds (a
// two-digit thread id showed up by chance in one run in thirty).
func TestTokenRevealsNothing(t *testing.T) {
	s, _ := web.NewSigner([]byte("0123456789abcdef0123456789abcdef"))
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	tok := web.Token{Scope: web.ScopePlay, User: sessions.User{ID: "987654321", Name: "alice"},
		Key: sessions.Key{Platform: "telegram", Channel: "-1001234567890", Thread: "7700770077"}, Created: now.Add(-time.Hour), Expires: now.Add(time.Hour)}
	a, b := s.Sign(tok), s.Sign(tok)
	if a == b {
		t.Errorf("two seals of one token are the same text %q", a)
	}
	for _, text := range []string{a, b} {
		raw, err := base64.RawURLEncoding.DecodeString(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"987654321", "1001234567890", "alice", "telegram", "7700770077"} {
			if strings.Contains(text, secret) || strings.Contains(string(raw), secret) {
				t.Errorf("the token %q holds %q in clear", text, secret)
			}
		}
		// Nor as the varint or decimal digits of the ids.
		if strings.Contains(strings.ToLower(text), "9876") {
			t.Errorf("the token %q shows the user's id", text)
		}
	}
}

// TestTokenRotation: with web.previous_secret, a link sealed with the
// previous secret works until the grace ends and not after; new links
// are sealed with the new secret, which the old bot cannot open.
func TestTokenRotation(t *testing.T) {
	oldSecret := []byte("the previous secret, 32 bytes..!")
	old, _ := web.NewSigner(oldSecret)
	cur, _ := web.NewSigner([]byte("the current secret, 32 bytes...!"))
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	grace := now.Add(7 * 24 * time.Hour)
	both, err := cur.WithPrevious(oldSecret, grace)
	if err != nil {
		t.Fatal(err)
	}
	tok := web.Token{Scope: web.ScopeWatch, Key: sessions.Key{Platform: "console", Channel: "c"}, Expires: now.Add(30 * 24 * time.Hour)}
	oldLink := old.Sign(tok)
	if _, err := both.Parse(oldLink, now); err != nil {
		t.Errorf("a previous secret's link during the grace: %v", err)
	}
	if _, err := both.Parse(oldLink, grace.Add(-time.Second)); err != nil {
		t.Errorf("a previous secret's link the second before the grace ends: %v", err)
	}
	if _, err := both.Parse(oldLink, grace); !errors.Is(err, web.ErrBadToken) {
		t.Errorf("a previous secret's link after the grace: %v, want refused", err)
	}
	if _, err := cur.Parse(oldLink, now); !errors.Is(err, web.ErrBadToken) {
		t.Errorf("a previous secret's link without previous_secret: %v, want refused", err)
	}
	newLink := both.Sign(tok)
	if _, err := cur.Parse(newLink, grace.Add(time.Hour)); err != nil {
		t.Errorf("a new link after the grace: %v", err)
	}
	if _, err := old.Parse(newLink, now); !errors.Is(err, web.ErrBadToken) {
		t.Errorf("the previous secret opens a new link: %v", err)
	}
	if _, err := cur.WithPrevious([]byte("short"), grace); err == nil {
		t.Error("a short previous secret was taken")
	}
}

// TestSecretKey: web.secret must carry 32 random bytes: base64 or hex of
// 32 bytes, or a long pass phrase; short, repetitive or 16-byte ones are
// refused with the line saying how to make one.
func TestSecretKey(t *testing.T) {
	for _, c := range []struct {
		text string
		n    int // bytes of the key, 0: refused
	}{
		{"dXDFCCHxAjosNLsYbl98Jh9LHjUG/IKT04bYpmulSkU=", 32}, // openssl rand -base64 32
		{"dXDFCCHxAjosNLsYbl98Jh9LHjUG/IKT04bYpmulSkU", 32},
		{"-GEaDR-lrQMgcEMu9U8xOK-Fo75dp564Jq_jT8fMEjD-WA", 34},
		{"dcd353446009b38dc2a1d9cca2e9be93aaf280551491743a4019710dce6f7958", 32}, // openssl rand -hex 32
		{"correct horse battery staple, 7 glad owls jump!", 47},
		{"dcd353446009b38dc2a1d9cca2e9be93", 0}, // hex of 16 bytes
		{"sixteen chars at least", 0},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0},
		{"q83vEjRWeJq7ze8SNFZ4mg==", 0}, // base64 of 16 bytes
		{"", 0},
	} {
		key, err := web.SecretKey(c.text)
		switch {
		case c.n == 0 && (err == nil || !strings.Contains(err.Error(), "openssl rand -base64 32")):
			t.Errorf("SecretKey(%q): %d bytes, %v; want refused saying how to make one", c.text, len(key), err)
		case c.n > 0 && (err != nil || len(key) != c.n):
			t.Errorf("SecretKey(%q): %d bytes, %v; want %d", c.text, len(key), err, c.n)
		}
	}
}
