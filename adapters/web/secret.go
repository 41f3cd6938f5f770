package web

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
)

// ErrWeakSecret: a secret that does not carry MinSecret random bytes.
var ErrWeakSecret = errors.New("web: the secret must carry at least 32 random bytes: make one with `openssl rand -base64 32`")

// SecretKey reads an operator's secret (web.secret, web.previous_secret)
// as the bytes that seal the links: base64 (standard or URL-safe, padded
// or not) or hex that decodes to at least MinSecret bytes; else the text
// itself, when it has at least MinSecret bytes and 20 distinct characters
// (a pass phrase, not a word repeated). Decoded bytes must look random
// too: 16 distinct values at least (32 random bytes have about 30).
// Anything else is ErrWeakSecret.
// `openssl rand -base64 32` makes a good one.
func SecretKey(text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	if b, err := hex.DecodeString(text); err == nil && random(b) {
		return b, nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(text); err == nil && random(b) {
			return b, nil
		}
	}
	distinct := map[rune]bool{}
	for _, r := range text {
		distinct[r] = true
	}
	if len(text) >= MinSecret && len(distinct) >= 20 {
		return []byte(text), nil
	}
	return nil, ErrWeakSecret
}

// random reports whether b is long enough and varied enough to be random
// bytes.
func random(b []byte) bool {
	distinct := map[byte]bool{}
	for _, x := range b {
		distinct[x] = true
	}
	return len(b) >= MinSecret && len(distinct) >= 16
}
