package telegram_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/adapters/telegram/telegramtest"
)

// TestInspect: Inspect reports the bot and its webhook as Telegram says
// them, names a refused token (ErrTokenRefused), and never writes the
// token in an error, not even the network's (whose URLs hold it); it
// calls nothing that changes the set-up.
func TestInspect(t *testing.T) {
	ctx := context.Background()
	f := telegramtest.New(t)
	s, err := telegram.Inspect(ctx, telegram.Config{Token: telegramtest.Token, APIEndpoint: f.URL})
	if err != nil || s.Username != telegramtest.Username || s.Webhook != "" || s.LastError != "" {
		t.Fatalf("long polling: %+v %v", s, err)
	}
	f.SetWebhook("https://games.example/tg", "Connection refused")
	s, err = telegram.Inspect(ctx, telegram.Config{Token: telegramtest.Token, APIEndpoint: f.URL})
	if err != nil || s.Webhook != "https://games.example/tg" || s.LastError != "Connection refused" || s.LastErrorAt.IsZero() {
		t.Fatalf("webhook: %+v %v", s, err)
	}
	if got := strings.Join(f.Calls(), ","); got != "getMe,getWebhookInfo,getMe,getWebhookInfo" {
		t.Errorf("calls %s: only getMe and getWebhookInfo, please", got)
	}

	const wrong = "654321:WRONG-token"
	_, err = telegram.Inspect(ctx, telegram.Config{Token: wrong, APIEndpoint: f.URL})
	if !errors.Is(err, telegram.ErrTokenRefused) || strings.Contains(err.Error(), wrong) {
		t.Errorf("refused token: %v", err)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + ln.Addr().String()
	ln.Close()
	_, err = telegram.Inspect(ctx, telegram.Config{Token: telegramtest.Token, APIEndpoint: gone})
	if err == nil || errors.Is(err, telegram.ErrTokenRefused) || strings.Contains(err.Error(), telegramtest.Token) {
		t.Errorf("unreachable API: %v", err)
	}
}
