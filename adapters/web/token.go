package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strconv"
	"time"

	"github.com/boardgamebot/bot/sessions"
)

// Scope is what a token allows.
type Scope byte

// The scopes of tokens.
const (
	// ScopePlay: play the game as the token's user (and watch it).
	ScopePlay Scope = 1
	// ScopeWatch: watch the game.
	ScopeWatch Scope = 2
	// ScopeTournament: see a tournament's page.
	ScopeTournament Scope = 3
)

// Token is what a link carries, signed by the bot: who (the platform's
// user, none for a watch link anyone may open), which game (its session
// key and when it was created: a later game at the same key is another
// game) or tournament, what it allows, and until when.
type Token struct {
	Scope Scope
	// User is the player (ScopePlay); zero for a link anyone may open.
	User sessions.User
	// Key and Created name the game: a session key holds one game at a
	// time, and Created tells the games it held apart. A tournament's
	// token names its channel in Key.
	Key     sessions.Key
	Created time.Time
	// Tournament is the tournament's id (ScopeTournament).
	Tournament string
	// Expires is when the token stops working.
	Expires time.Time
}

// The reasons a token is refused.
var (
	// ErrBadToken: the text is not a token of this bot (cut short,
	// changed, or signed with another secret).
	ErrBadToken = errors.New("web: bad token")
	// ErrExpired: the token's time is over.
	ErrExpired = errors.New("web: token expired")
)

// tokenVersion is the first byte of every token.
const tokenVersion = 1

// macSize is how many bytes of the HMAC-SHA256 a token keeps: 128 bits.
const macSize = 16

// Signer signs and checks tokens with the server's secret. It is safe for
// concurrent use.
type Signer struct {
	secret []byte
}

// NewSigner returns a Signer with secret (at least 16 bytes).
func NewSigner(secret []byte) (*Signer, error) {
	if len(secret) < 16 {
		return nil, errors.New("web: the secret must have at least 16 bytes")
	}
	return &Signer{secret: append([]byte(nil), secret...)}, nil
}

// Sign returns t as a link's text: base64url without padding (only A-Z,
// a-z, 0-9, _ and -, as Telegram's start parameters take them), at most
// a few hundred characters.
func (s *Signer) Sign(t Token) string {
	b := []byte{tokenVersion, byte(t.Scope)}
	b = binary.AppendVarint(b, t.Expires.Unix())
	b = binary.AppendVarint(b, created(t.Created))
	for _, f := range []string{t.Key.Platform, t.Key.Channel, t.Key.Thread, t.Tournament, t.User.ID, t.User.Name} {
		b = binary.AppendUvarint(b, uint64(len(f)))
		b = append(b, f...)
	}
	b = append(b, s.mac(b)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Parse checks text's signature (in constant time) and its expiry at now,
// and returns the token: ErrBadToken or ErrExpired otherwise.
func (s *Signer) Parse(text string, now time.Time) (Token, error) {
	if len(text) > 1024 {
		return Token{}, ErrBadToken
	}
	b, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil || len(b) < 2+macSize {
		return Token{}, ErrBadToken
	}
	body, sum := b[:len(b)-macSize], b[len(b)-macSize:]
	if !hmac.Equal(sum, s.mac(body)) {
		return Token{}, ErrBadToken
	}
	if body[0] != tokenVersion {
		return Token{}, ErrBadToken
	}
	t := Token{Scope: Scope(body[1])}
	rest := body[2:]
	exp, n := binary.Varint(rest)
	if n <= 0 {
		return Token{}, ErrBadToken
	}
	rest = rest[n:]
	cr, n := binary.Varint(rest)
	if n <= 0 {
		return Token{}, ErrBadToken
	}
	rest = rest[n:]
	var fields [6]string
	for i := range fields {
		l, n := binary.Uvarint(rest)
		if n <= 0 || l > uint64(len(rest)-n) {
			return Token{}, ErrBadToken
		}
		fields[i] = string(rest[n : n+int(l)])
		rest = rest[n+int(l):]
	}
	if len(rest) != 0 || t.Scope < ScopePlay || t.Scope > ScopeTournament {
		return Token{}, ErrBadToken
	}
	t.Expires = time.Unix(exp, 0).UTC()
	if cr != 0 {
		t.Created = time.Unix(0, cr).UTC()
	}
	t.Key = sessions.Key{Platform: fields[0], Channel: fields[1], Thread: fields[2]}
	t.Tournament = fields[3]
	t.User = sessions.User{ID: fields[4], Name: fields[5]}
	if !now.Before(t.Expires) {
		return t, ErrExpired
	}
	return t, nil
}

func (s *Signer) mac(b []byte) []byte {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte("boardgamebot web token\x00"))
	m.Write(b)
	return m.Sum(nil)[:macSize]
}

// created is a game's creation time as a token writes it: Unix
// nanoseconds, 0 for none.
func created(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// Ref names a game in URLs (/g/<ref>): a short hash of its session key and
// creation. It is no secret: every request also carries a token, which
// must name the same game.
func Ref(key sessions.Key, createdAt time.Time) string {
	h := sha256.New()
	for _, f := range []string{key.Platform, key.Channel, key.Thread, strconv.FormatInt(created(createdAt), 10)} {
		h.Write([]byte(f))
		h.Write([]byte{0})
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:9])
}

// TourRef names a tournament in URLs (/t/<ref>).
func TourRef(platform, id string) string {
	h := sha256.Sum256([]byte("tournament\x00" + platform + "\x00" + id))
	return base64.RawURLEncoding.EncodeToString(h[:9])
}

// Ref returns the reference of the token's game or tournament.
func (t Token) Ref() string {
	if t.Scope == ScopeTournament {
		return TourRef(t.Key.Platform, t.Tournament)
	}
	return Ref(t.Key, t.Created)
}
