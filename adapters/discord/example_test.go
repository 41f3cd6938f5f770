package discord_test

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"strconv"

	"github.com/boardgamebot/bot/adapters/discord"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// Example_wiring shows how a program runs the Discord adapter: the
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
	defer svc.Close()
	if _, err := svc.Resume(ctx); err != nil {
		log.Error("resuming the games", "err", err)
		return
	}
	shard, _ := strconv.Atoi(os.Getenv("BOT_DISCORD_SHARD_ID"))
	shards, _ := strconv.Atoi(os.Getenv("BOT_DISCORD_SHARD_COUNT"))
	bot, err := discord.New(discord.Config{
		Token:      os.Getenv("BOT_DISCORD_TOKEN"),
		GuildID:    os.Getenv("BOT_DISCORD_GUILD_ID"), // empty: global commands
		ShardID:    shard,
		ShardCount: shards,
	}, chat.New(chat.Config{Sessions: svc, Log: log}), svc, render.New(), log.With("adapter", "discord"))
	if err != nil {
		log.Error("discord", "err", err)
		return
	}
	*notifiers = append(*notifiers, bot) // before the clocks run: Notifiers has no lock
	go svc.Run(ctx, 0)                   // clocks: reminders, auto-moves, expired challenges
	if err := bot.Run(ctx); err != nil { // until Ctrl-C
		log.Error("discord", "err", err)
	}
}
