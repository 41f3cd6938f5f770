package main

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/boardgamebot/bot/adapters/discord"
	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/ops"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
)

// adapters builds the chat platforms' adapters of bot run on one sessions
// service; each one built is added to notifiers and places.
type adapters struct {
	c         config
	store     botStore
	svc       *sessions.Service
	h         *chat.Handler
	r         *render.Renderer
	picture   render.Options
	log       *slog.Logger
	o         *operations
	wb        *webBoard
	notifiers *sessions.Notifiers
	places    sessions.PlaceSet
}

// telegram builds the Telegram adapter: polling (on etcd, by the elected
// process only) or a webhook.
func (a adapters) telegram() (platform, error) {
	c, o := a.c, a.o
	state := o.platform("telegram")
	tc := telegram.Config{Token: c.Telegram.Token, APIEndpoint: c.Telegram.APIEndpoint,
		GroupLimit: c.Telegram.GroupLimit, GlobalLimit: c.Telegram.GlobalLimit, Prefs: a.store, Picture: a.picture, AppName: c.Telegram.AppName}
	if state != nil {
		// Go's standard client, telling /readyz whether Telegram
		// answers; the messages counted.
		tc.HTTPClient = &http.Client{Transport: ops.Watch(http.DefaultTransport, state)}
		tc.Metrics = o.messages("telegram")
	}
	if w := c.Telegram.Webhook; w.URL != "" {
		tc.Webhook = &telegram.WebhookConfig{URL: w.URL, Listen: w.Listen, SecretToken: w.SecretToken,
			CertFile: w.CertFile, KeyFile: w.KeyFile}
	}
	tg, err := telegram.New(tc, a.h, a.svc, a.r, a.log.With("adapter", "telegram"))
	if err != nil {
		return platform{}, err
	}
	o.waiting("telegram", tg.Waiting)
	*a.notifiers = append(*a.notifiers, tg)
	a.places[telegram.Platform] = tg.Places()
	run := tg.Run
	if l, ok := a.store.(pollLeader); ok && tc.Webhook == nil {
		// Processes on one etcd: only the elected one polls (a
		// webhook is served by every process).
		lead := func(ctx context.Context, poll func(context.Context)) {
			l.leadPolling(ctx, o.whileLeading("telegram_poll", poll))
		}
		run = func(ctx context.Context) error { return tg.Run(telegram.WithPollGate(ctx, lead)) }
	}
	return platform{"telegram", run, state}, nil
}

// discord builds the Discord adapter.
func (a adapters) discord() (platform, error) {
	c, o := a.c, a.o
	state := o.platform("discord")
	dc := discord.Config{Token: c.Discord.Token, GuildID: c.Discord.GuildID,
		ShardID: c.Discord.ShardID, ShardCount: c.Discord.ShardCount, Picture: a.picture, Routes: a.store, Web: a.wb.webLinks()}
	if msgs := o.messages("discord"); msgs != nil {
		// discordgo's own client, with its timeout, counting the 429s
		// and retries it sees.
		dc.Metrics, dc.HTTPClient = msgs, &http.Client{Timeout: 20 * time.Second, Transport: msgs.Transport(nil)}
	}
	bot, err := discord.New(dc, a.h, a.svc, a.r, a.log.With("adapter", "discord"))
	if err != nil {
		return platform{}, err
	}
	o.waiting("discord", bot.Waiting)
	state.Probe(bot.Connected)
	*a.notifiers = append(*a.notifiers, bot)
	a.places[discord.Platform] = bot.Places()
	return platform{"discord", bot.Run, state}, nil
}
