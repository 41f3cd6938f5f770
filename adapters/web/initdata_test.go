package web_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/adapters/web/webtest"
)

// The launch data of a Telegram Mini App and the token of the bot that
// signed it, as the Telegram Mini Apps documentation gives them (the
// init-data-golang example, signed by Telegram on 2024-12-06).
const (
	docInitData = "user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%20%2B%20-%20%3F%20%5C%2F%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%2C%22allows_write_to_pm%22%3Atrue%2C%22photo_url%22%3A%22https%3A%5C%2F%5C%2Ft.me%5C%2Fi%5C%2Fuserpic%5C%2F320%5C%2F4FPEE4tmP3ATHa57u6MqTDih13LTOiMoKoLDRG4PnSA.svg%22%7D&chat_instance=8134722200314281151&chat_type=private&auth_date=1733509682&signature=TYJxVcisqbWjtodPepiJ6ghziUL94-KNpG8Pau-X7oNNLNBM72APCpi_RKiUlBvcqo5L-LAxIc3dnTzcZX_PDg&hash=a433d8f9847bd6addcc563bff7cc82c89e97ea0d90c11fe5729cae6796a36d73"
	docBotToken = "7342037359:AAHI25ES9xCOMPokpYoz-p8XVrZUdygo2J4"
)

// TestInitDataDocumented: the documented example checks out with its
// bot's token and gives its user; changed anywhere, signed for another
// bot, or too old, it is refused.
func TestInitDataDocumented(t *testing.T) {
	signed := time.Unix(1733509682, 0)
	d, err := web.ValidateInitData(docInitData, docBotToken, time.Hour, signed.Add(10*time.Minute))
	if err != nil {
		t.Fatalf("the documented example: %v", err)
	}
	if d.User.ID != 279058397 || d.User.Username != "vdkfrost" || d.User.LanguageCode != "ru" || !d.AuthDate.Equal(signed) {
		t.Errorf("the documented example read as %+v", d)
	}
	q, _ := url.ParseQuery(docInitData)
	change := func(k, v string) string {
		c := url.Values{}
		for kk, vv := range q {
			c[kk] = vv
		}
		c.Set(k, v)
		return c.Encode()
	}
	forged := []struct{ name, data, token string }{
		{"another user", change("user", strings.Replace(q.Get("user"), "279058397", "279058398", 1)), docBotToken},
		{"a later auth_date", change("auth_date", "1733509683"), docBotToken},
		{"a start parameter added", change("start_param", "abc"), docBotToken},
		{"another hash", change("hash", strings.Repeat("ab", 32)), docBotToken},
		{"a short hash", change("hash", "a433d8f9"), docBotToken},
		{"no hash", strings.Split(docInitData, "&hash=")[0], docBotToken},
		{"another bot's token", docInitData, "7342037359:AAHI25ES9xCOMPokpYoz-p8XVrZUdygo2J5"},
		{"no token", docInitData, ""},
		{"the signature field changed (the hash covers it)", change("signature", "x"), docBotToken},
		{"a field twice", docInitData + "&auth_date=1733509682", docBotToken},
		{"not a query", "%%%", docBotToken},
	}
	for _, c := range forged {
		if _, err := web.ValidateInitData(c.data, c.token, time.Hour, signed.Add(time.Minute)); !errors.Is(err, web.ErrForged) {
			t.Errorf("%s: %v, want ErrForged", c.name, err)
		}
	}
	if _, err := web.ValidateInitData(docInitData, docBotToken, time.Hour, signed.Add(61*time.Minute)); !errors.Is(err, web.ErrStale) {
		t.Errorf("61 minutes old, an hour allowed: %v, want ErrStale", err)
	}
	if _, err := web.ValidateInitData(docInitData, docBotToken, 24*time.Hour, signed.Add(23*time.Hour)); err != nil {
		t.Errorf("23 hours old, a day allowed: %v", err)
	}
}

// TestInitDataSigned: launch data the tests' fake Telegram signs (as
// Telegram does) checks out with the bot's token, start parameter and
// all.
func TestInitDataSigned(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	raw := webtest.InitData(botToken, webtest.TelegramUser{ID: 42, Username: "bob", LanguageCode: "es"}, "startme", now)
	d, err := web.ValidateInitData(raw, botToken, time.Hour, now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if d.User.ID != 42 || d.User.Username != "bob" || d.StartParam != "startme" {
		t.Errorf("read %+v", d)
	}
	if _, err := web.ValidateInitData(raw, "123456:another", time.Hour, now); !errors.Is(err, web.ErrForged) {
		t.Errorf("with another bot's token: %v", err)
	}
}
