package web

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
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
	// ScopeStream: a page's live stream and downloads, derived from
	// its link for minutes (it rides in the stream's address): it
	// watches as the link's user, and never acts.
	ScopeStream Scope = 4
)

// Token is what a link carries, sealed by the bot: who (the platform's
// user, none for a watch link anyone may open), which game (its session
// key and when it was created: a later game at the same key is another
// game) or tournament, what it allows, and until when. Its text reveals
// none of it.
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
	// Gen is the user's link generation when the token was made: a
	// token of an older generation is revoked (/web revoke).
	Gen uint64
}

// The reasons a token is refused.
var (
	// ErrBadToken: the text is not a token of this bot (cut short,
	// changed, or sealed with another secret).
	ErrBadToken = errors.New("web: bad token")
	// ErrExpired: the token's time is over.
	ErrExpired = errors.New("web: token expired")
)

// tokenVersion is the first byte of every token.
const tokenVersion = 2

// MinSecret is the fewest bytes of a secret the Signer takes.
const MinSecret = 32

// sealKey is one secret's sealing key: AES-256-GCM with a key derived
// from the secret by HKDF-SHA256, its id (the token's second byte), and
// when it stops opening tokens (zero: never; a previous secret's grace).
type sealKey struct {
	id    byte
	aead  cipher.AEAD
	until time.Time
}

// Signer seals and opens tokens with the server's secret (and, for a
// grace, the previous one). A token's bytes are its version, its key's
// id, a random nonce and the sealed body: nothing in them reads without
// the secret. It is safe for concurrent use.
type Signer struct {
	keys []sealKey // the current key first
}

// NewSigner returns a Signer with secret (at least MinSecret bytes).
func NewSigner(secret []byte) (*Signer, error) {
	k, err := newSealKey(secret)
	if err != nil {
		return nil, err
	}
	return &Signer{keys: []sealKey{k}}, nil
}

// WithPrevious returns a Signer that seals with s's secret and opens
// tokens of previous too until until: the previous secret's links keep
// working for the grace of a rotation.
func (s *Signer) WithPrevious(previous []byte, until time.Time) (*Signer, error) {
	k, err := newSealKey(previous)
	if err != nil {
		return nil, err
	}
	k.until = until
	return &Signer{keys: []sealKey{s.keys[0], k}}, nil
}

func newSealKey(secret []byte) (sealKey, error) {
	if len(secret) < MinSecret {
		return sealKey{}, fmt.Errorf("web: the secret must have at least %d bytes", MinSecret)
	}
	key, err := hkdf.Key(sha256.New, secret, nil, "boardgamebot web token v2", 32)
	if err != nil {
		return sealKey{}, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return sealKey{}, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return sealKey{}, err
	}
	id := sha256.Sum256(append([]byte("key id\x00"), key...))
	return sealKey{id: id[0], aead: aead}, nil
}

// Sign returns t sealed as a link's text: base64url without padding
// (only A-Z, a-z, 0-9, _ and -, as Telegram's start parameters take
// them), at most a few hundred characters. Two seals of one token differ
// (a random nonce).
func (s *Signer) Sign(t Token) string {
	k := s.keys[0]
	body := []byte{byte(t.Scope)}
	body = binary.AppendVarint(body, t.Expires.Unix())
	body = binary.AppendVarint(body, created(t.Created))
	body = binary.AppendUvarint(body, t.Gen)
	for _, f := range []string{t.Key.Platform, t.Key.Channel, t.Key.Thread, t.Tournament, t.User.ID, t.User.Name} {
		body = binary.AppendUvarint(body, uint64(len(f)))
		body = append(body, f...)
	}
	head := []byte{tokenVersion, k.id}
	nonce := make([]byte, k.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("web: no randomness: " + err.Error())
	}
	b := append(head, nonce...)
	b = k.aead.Seal(b, nonce, body, head)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Parse opens text (its key's id names the secret: the current one, or
// the previous one during its grace), checks its expiry at now, and
// returns the token: ErrBadToken or ErrExpired otherwise.
func (s *Signer) Parse(text string, now time.Time) (Token, error) {
	if len(text) > 1024 {
		return Token{}, ErrBadToken
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(text)
	if err != nil || len(b) < 2 || b[0] != tokenVersion {
		return Token{}, ErrBadToken
	}
	var body []byte
	for _, k := range s.keys {
		ns := k.aead.NonceSize()
		if k.id != b[1] || len(b) < 2+ns+k.aead.Overhead() || (!k.until.IsZero() && !now.Before(k.until)) {
			continue
		}
		if body, err = k.aead.Open(nil, b[2:2+ns], b[2+ns:], b[:2]); err == nil {
			break
		}
		body = nil
	}
	if body == nil {
		return Token{}, ErrBadToken
	}
	t := Token{Scope: Scope(body[0])}
	rest := body[1:]
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
	if t.Gen, n = binary.Uvarint(rest); n <= 0 {
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
	if len(rest) != 0 || t.Scope < ScopePlay || t.Scope > ScopeStream {
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
