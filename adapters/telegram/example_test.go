package telegram_test

import (
	"context"
	"log/slog"
	"os"
	"os/signal"

	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// Example_wiring shows how a program runs the Telegram adapter: the
// sessions service's notices go to the bot, made after the service.
func Example_wiring() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	log := slog.Default()
	store, err := bolt.Open("./data/bot.db", bolt.Options{})
	if err != nil {
		log.Error("opening the database", "err", err)
		return
	}
	defer store.Close()
	notifiers := &sessions.Notifiers{}
	svc := sessions.New(sessions.Config{Store: store, Notifier: notifiers, Log: log})
	if _, err := svc.Resume(ctx); err != nil {
		log.Error("resuming the games", "err", err)
		return
	}
	go svc.Run(ctx, 0) // clocks: reminders, auto-moves, expired challenges
	bot, err := telegram.New(telegram.Config{
		Token: os.Getenv("BOT_TELEGRAM_TOKEN"),
		// Webhook: &telegram.WebhookConfig{URL: "https://bot.example.org/tg", Listen: ":8443"},
	}, chat.New(chat.Config{Sessions: svc, Log: log}), svc, render.New(), log.With("adapter", "telegram"))
	if err != nil {
		log.Error("telegram", "err", err)
		return
	}
	*notifiers = append(*notifiers, bot)
	if err := bot.Run(ctx); err != nil { // until Ctrl-C
		log.Error("telegram", "err", err)
	}
}
