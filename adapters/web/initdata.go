package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// InitData is what the bot reads of a Telegram Mini App's launch data
// (Telegram.WebApp.initData) once its signature checked out.
type InitData struct {
	User TelegramUser
	// StartParam is the direct link's startapp parameter ("" for none).
	StartParam string
	// AuthDate is when Telegram signed the data.
	AuthDate time.Time
}

// TelegramUser is the user who opened the Mini App.
type TelegramUser struct {
	ID           int64  `json:"id"`
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	Username     string `json:"username"`
	LanguageCode string `json:"language_code"`
}

// The reasons launch data is refused.
var (
	// ErrForged: the data is not signed for this bot (changed, made up,
	// or signed with another bot's token), or is not launch data at all.
	ErrForged = errors.New("web: Telegram launch data not signed for this bot")
	// ErrStale: the data was signed longer ago than the bot allows.
	ErrStale = errors.New("web: Telegram launch data too old")
)

// ValidateInitData checks the Mini App launch data raw (a query string)
// as the Bot API documents it: the hash is HMAC-SHA256 of the
// data-check-string (every field but hash, "key=value", sorted by key,
// joined by line feeds) with the key HMAC-SHA256("WebAppData", bot token),
// compared in constant time; auth_date must be within maxAge of now.
func ValidateInitData(raw, botToken string, maxAge time.Duration, now time.Time) (InitData, error) {
	if botToken == "" || len(raw) > 8192 {
		return InitData{}, ErrForged
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return InitData{}, ErrForged
	}
	got, err := hex.DecodeString(q.Get("hash"))
	if err != nil || len(got) != sha256.Size {
		return InitData{}, ErrForged
	}
	var pairs []string
	for k, v := range q {
		if len(v) != 1 {
			return InitData{}, ErrForged
		}
		if k != "hash" {
			pairs = append(pairs, k+"="+v[0])
		}
	}
	slices.Sort(pairs)
	key := hmac.New(sha256.New, []byte("WebAppData"))
	key.Write([]byte(botToken))
	m := hmac.New(sha256.New, key.Sum(nil))
	m.Write([]byte(strings.Join(pairs, "\n")))
	if !hmac.Equal(got, m.Sum(nil)) {
		return InitData{}, ErrForged
	}
	d := InitData{StartParam: q.Get("start_param")}
	sec, err := strconv.ParseInt(q.Get("auth_date"), 10, 64)
	if err != nil || sec <= 0 {
		return InitData{}, ErrForged
	}
	d.AuthDate = time.Unix(sec, 0).UTC()
	if err := json.Unmarshal([]byte(q.Get("user")), &d.User); err != nil || d.User.ID <= 0 {
		return InitData{}, ErrForged
	}
	if age := now.Sub(d.AuthDate); age > maxAge || age < -5*time.Minute {
		return d, ErrStale
	}
	return d, nil
}
