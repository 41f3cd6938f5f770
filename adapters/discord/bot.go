package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/bwmarrin/discordgo"
)

// Platform is the platform name of Discord session keys.
const Platform = "discord"

// Config is what a Bot needs to connect.
type Config struct {
	// Token is the bot token (BOT_DISCORD_TOKEN, discord.token).
	Token string
	// GuildID, when set, registers the slash commands on that server only
	// (they update at once: for testing); empty registers them globally.
	GuildID string
	// ShardID and ShardCount split the servers between processes; a
	// ShardCount of 0 or 1 means one process serves every server.
	ShardID, ShardCount int
	// HTTPClient, when set, replaces the library's HTTP client (tests
	// point it at a fake Discord); nil keeps discordgo's default, which
	// honours HTTPS_PROXY and SSL_CERT_FILE. The gateway address comes
	// from the REST API (GET /gateway) through this client.
	HTTPClient *http.Client
	// Picture chooses the theme and size of the board pictures.
	Picture render.Options
	// Games lists the games for the /play choices; nil means games.List.
	Games func() []games.Info
	// Routes keeps where the commands typed in a channel go when its game
	// lives under another key, so that a restart keeps them; nil keeps
	// them in memory only.
	Routes Routes
	// Web makes the web board's links: board messages get a link button
	// to the game's watch page; nil for none (the bot serves no board).
	Web chat.WebLinks
	// RetryPause is the first pause before sending a message again after
	// a failure that may pass (the connection dropped, Discord answered
	// 5xx), doubled at each attempt up to a minute; 0 means one second.
	// A message is tried until it goes, Discord refuses it, or the bot
	// stops.
	RetryPause time.Duration
	// Metrics, when set, is told of every message sent.
	Metrics Metrics
}

// Routes keeps the channels whose commands go to a session under another
// key: a challenge waiting in the channel, or a game whose thread could
// not be opened, played in the channel under its challenge's key.
// *storage.Store implements it.
type Routes interface {
	// SaveRoute records that the commands typed in channel go to key.
	SaveRoute(ctx context.Context, platform, channel string, key sessions.Key) error
	// DeleteRoute forgets the route of channel if it still goes to key.
	DeleteRoute(ctx context.Context, platform, channel string, key sessions.Key) error
	// Routes returns the routes of the platform's channels, by channel.
	Routes(ctx context.Context, platform string) (map[string]sessions.Key, error)
}

// client is the part of discordgo's Session the bot calls, so that a test
// can stand a fake in front of it; *discordgo.Session implements it.
type client interface {
	InteractionRespond(i *discordgo.Interaction, r *discordgo.InteractionResponse, o ...discordgo.RequestOption) error
	InteractionResponse(i *discordgo.Interaction, o ...discordgo.RequestOption) (*discordgo.Message, error)
	InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, o ...discordgo.RequestOption) (*discordgo.Message, error)
	InteractionResponseDelete(i *discordgo.Interaction, o ...discordgo.RequestOption) error
	FollowupMessageCreate(i *discordgo.Interaction, wait bool, p *discordgo.WebhookParams, o ...discordgo.RequestOption) (*discordgo.Message, error)
	MessageThreadStartComplex(channelID, messageID string, t *discordgo.ThreadStart, o ...discordgo.RequestOption) (*discordgo.Channel, error)
	ThreadStartComplex(channelID string, t *discordgo.ThreadStart, o ...discordgo.RequestOption) (*discordgo.Channel, error)
	ForumThreadStartComplex(channelID string, t *discordgo.ThreadStart, m *discordgo.MessageSend, o ...discordgo.RequestOption) (*discordgo.Channel, error)
	ChannelEditComplex(channelID string, e *discordgo.ChannelEdit, o ...discordgo.RequestOption) (*discordgo.Channel, error)
	ChannelMessageSendComplex(channelID string, m *discordgo.MessageSend, o ...discordgo.RequestOption) (*discordgo.Message, error)
	ChannelMessageEditComplex(m *discordgo.MessageEdit, o ...discordgo.RequestOption) (*discordgo.Message, error)
	Channel(channelID string, o ...discordgo.RequestOption) (*discordgo.Channel, error)
	ApplicationCommandBulkOverwrite(appID, guildID string, cmds []*discordgo.ApplicationCommand, o ...discordgo.RequestOption) ([]*discordgo.ApplicationCommand, error)
}

// Bot serves the command language on Discord. Build it with New, start it
// with Run; it is the sessions.Notifier of Discord sessions.
type Bot struct {
	cfg   Config
	s     *discordgo.Session
	c     client
	h     *chat.Handler
	svc   *sessions.Service
	r     *render.Renderer
	log   *slog.Logger
	games func() []games.Info

	self  atomic.Pointer[string] // the bot's user id, from READY
	app   atomic.Pointer[string] // the application id, from READY
	ctx   atomic.Pointer[context.Context]
	wg    sync.WaitGroup
	stop  atomic.Bool
	seen  *chat.Recent
	where places

	mu       sync.Mutex
	halt     chan struct{}                      // closed when Run has stopped: sends give up
	busy     map[sessions.Key]int               // requests in hand per session: their replies carry the news
	queue    map[sessions.Key][]sessions.Notice // notices waiting for those replies, or being posted
	posted   map[sessions.Key]string            // the position version of the last post per session
	flushing map[sessions.Key]bool
	starters map[string]bool         // forum posts that started with their game's board
	tags     map[string]forumRound   // forum -> its tag for the round last opened there
	closed   map[sessions.Key]string // tournament games' places archived, with their game's id
}

// New returns a Bot on the chat handler h and the sessions service svc,
// drawing pictures with r. It does not connect: Run does.
func New(cfg Config, h *chat.Handler, svc *sessions.Service, r *render.Renderer, log *slog.Logger) (*Bot, error) {
	if cfg.Token == "" {
		return nil, errors.New("discord: no bot token (set BOT_DISCORD_TOKEN or discord.token)")
	}
	if cfg.ShardCount > 1 && (cfg.ShardID < 0 || cfg.ShardID >= cfg.ShardCount) {
		return nil, fmt.Errorf("discord: shard_id %d is not in 0..%d (shard_count %d)", cfg.ShardID, cfg.ShardCount-1, cfg.ShardCount)
	}
	if h == nil || svc == nil {
		return nil, errors.New("discord: a chat handler and a sessions service are required")
	}
	if r == nil {
		r = render.New()
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s, err := discordgo.New("Bot " + cfg.Token)
	if err != nil {
		return nil, fmt.Errorf("discord: %w", err)
	}
	s.Identify.Intents = discordgo.IntentsGuilds
	if cfg.ShardCount > 1 {
		s.ShardID, s.ShardCount = cfg.ShardID, cfg.ShardCount
	}
	if cfg.HTTPClient != nil {
		s.Client = cfg.HTTPClient
	}
	if cfg.RetryPause <= 0 {
		cfg.RetryPause = time.Second
	}
	b := &Bot{cfg: cfg, s: s, h: h, svc: svc, r: r, log: log, games: cfg.Games, halt: make(chan struct{}),
		busy: map[sessions.Key]int{}, queue: map[sessions.Key][]sessions.Notice{}, posted: map[sessions.Key]string{},
		flushing: map[sessions.Key]bool{}, starters: map[string]bool{}, tags: map[string]forumRound{}, closed: map[sessions.Key]string{}}
	b.c = patient{client: session{s}, b: b}
	if b.games == nil {
		b.games = games.List
	}
	if cfg.Metrics != nil {
		b.c = counting{client: b.c, m: cfg.Metrics} // what the patient client made of each message
	}
	b.seen = chat.NewRecent(4096)
	b.where.init()
	s.AddHandler(b.onEvent)
	return b, nil
}

// Run connects to the gateway, registers the slash commands and serves
// until ctx is done; then it lets the interactions in hand finish and
// closes the connection.
func (b *Bot) Run(ctx context.Context) error {
	base := context.WithoutCancel(ctx)
	b.ctx.Store(&base)
	b.mu.Lock()
	select {
	case <-b.halt:
		b.halt = make(chan struct{}) // a Run again
	default:
	}
	b.mu.Unlock()
	b.stop.Store(false)
	if b.cfg.Routes != nil {
		routes, err := b.cfg.Routes.Routes(ctx, Platform)
		if err != nil {
			return fmt.Errorf("discord: reading where the channels' games are: %w", err)
		}
		for ch, key := range routes {
			b.where.route(ch, key)
		}
	}
	if err := b.s.Open(); err != nil {
		return fmt.Errorf("discord: connecting to the gateway: %w", err)
	}
	defer func() {
		if err := b.s.Close(); err != nil {
			b.log.Warn("discord: closing the gateway connection", "err", err)
		}
	}()
	if u := b.s.State.User; u != nil {
		id := u.ID
		b.self.Store(&id)
	}
	appID := b.appID()
	if appID == "" {
		return errors.New("discord: the gateway's READY named no application")
	}
	cmds := commands(b.h, b.games())
	if _, err := b.c.ApplicationCommandBulkOverwrite(appID, b.cfg.GuildID, cmds); err != nil {
		return fmt.Errorf("discord: registering the slash commands: %w", err)
	}
	scope := "global"
	if b.cfg.GuildID != "" {
		scope = "guild " + b.cfg.GuildID
	}
	b.log.Info("discord: connected", "user", b.selfID(), "commands", len(cmds), "scope", scope,
		"shard", b.cfg.ShardID, "shards", max(b.cfg.ShardCount, 1))
	<-ctx.Done()
	b.mu.Lock()
	b.stop.Store(true) // under b.mu: no wg.Add after this
	b.mu.Unlock()
	done := make(chan struct{})
	go func() { b.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		b.log.Warn("discord: interactions still in hand at shutdown")
	}
	b.mu.Lock()
	close(b.halt)
	b.mu.Unlock()
	b.log.Info("discord: stopping")
	return nil
}

// halted returns a channel closed once Run has stopped.
func (b *Bot) halted() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.halt
}

func (b *Bot) selfID() string {
	if p := b.self.Load(); p != nil {
		return *p
	}
	return ""
}

func (b *Bot) appID() string {
	if p := b.app.Load(); p != nil && *p != "" {
		return *p
	}
	b.s.State.RLock()
	defer b.s.State.RUnlock()
	if a := b.s.State.Ready.Application; a != nil && a.ID != "" {
		return a.ID
	}
	return b.selfID()
}

func (b *Bot) context() context.Context {
	if p := b.ctx.Load(); p != nil {
		return *p
	}
	return context.Background()
}

// rawInteraction is what the bot reads of an interaction beyond discordgo's
// struct: the channel it happened in, with its type and parent.
type rawInteraction struct {
	Channel *struct {
		ID       string                `json:"id"`
		Type     discordgo.ChannelType `json:"type"`
		ParentID string                `json:"parent_id"`
	} `json:"channel"`
}

// onEvent receives every gateway event (discordgo runs each in its own
// goroutine) and serves the interactions.
func (b *Bot) onEvent(s *discordgo.Session, e *discordgo.Event) {
	switch e.Type {
	case "READY":
		if r, ok := e.Struct.(*discordgo.Ready); ok {
			if r.User != nil {
				id := r.User.ID
				b.self.Store(&id)
			}
			if r.Application != nil {
				id := r.Application.ID
				b.app.Store(&id)
			}
		}
	case "INTERACTION_CREATE":
		ic, ok := e.Struct.(*discordgo.InteractionCreate)
		if !ok || ic.Interaction == nil || b.stop.Load() {
			return
		}
		if !b.seen.Add(ic.ID) {
			b.log.Info("discord: interaction delivered again; ignored", "id", ic.ID)
			return
		}
		var raw rawInteraction
		_ = json.Unmarshal(e.RawData, &raw)
		if raw.Channel != nil && raw.Channel.ID == ic.ChannelID {
			b.where.learn(raw.Channel.ID, raw.Channel.Type, raw.Channel.ParentID)
		}
		if ic.ChannelID != "" && ic.GuildID != "" {
			b.where.allow(ic.ChannelID, ic.AppPermissions)
		}
		if !b.track() {
			return
		}
		defer b.wg.Done()
		b.interaction(ic.Interaction)
	}
}

// track counts one more piece of work that Run waits for at shutdown; it
// reports false once the bot is stopping.
func (b *Bot) track() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stop.Load() {
		return false
	}
	b.wg.Add(1)
	return true
}

// places knows which channels are threads and where games went: the
// parent of each thread, and channels whose game lives under another key
// (a challenge waiting in a channel, a game whose thread could not be
// opened).
type places struct {
	mu     sync.Mutex
	parent map[string]string                // thread -> parent channel
	plain  map[string]discordgo.ChannelType // channels known not to be threads, with their type
	routes map[string]sessions.Key          // channel -> the key its commands go to
	perms  map[string]int64                 // channel -> the bot's permissions there, from its last interaction
}

func (p *places) init() {
	p.parent = map[string]string{}
	p.plain = map[string]discordgo.ChannelType{}
	p.routes = map[string]sessions.Key{}
	p.perms = map[string]int64{}
}

// allow remembers the bot's permissions in a channel (an interaction's
// app_permissions).
func (p *places) allow(channel string, perms int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.perms) >= maxPlaces {
		clear(p.perms)
	}
	p.perms[channel] = perms
}

// permissions returns the bot's permissions in a channel, as its last
// interaction there told them.
func (p *places) permissions(channel string) (int64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	perms, ok := p.perms[channel]
	return perms, ok
}

func isThread(t discordgo.ChannelType) bool {
	return t == discordgo.ChannelTypeGuildPublicThread || t == discordgo.ChannelTypeGuildPrivateThread ||
		t == discordgo.ChannelTypeGuildNewsThread
}

// maxPlaces bounds what places remembers; past it, it starts again (and
// asks Discord about channels it meets again).
const maxPlaces = 100_000

func (p *places) learn(id string, t discordgo.ChannelType, parent string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.parent)+len(p.plain) >= maxPlaces {
		clear(p.parent)
		clear(p.plain)
	}
	if isThread(t) && parent != "" {
		p.parent[id] = parent
	} else if !isThread(t) {
		p.plain[id] = t
	}
}

func (p *places) lookup(id string) (parent string, thread, known bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if parent, ok := p.parent[id]; ok {
		return parent, true, true
	}
	_, known = p.plain[id]
	return "", false, known
}

// kind returns the type of a channel known not to be a thread.
func (p *places) kind(id string) (discordgo.ChannelType, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.plain[id]
	return t, ok
}

func (p *places) route(channel string, key sessions.Key) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.routes) >= maxPlaces {
		clear(p.routes)
	}
	p.routes[channel] = key
}

func (p *places) unroute(channel string, key sessions.Key) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.routes[channel] == key {
		delete(p.routes, channel)
	}
}

func (p *places) routed(channel string) (sessions.Key, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.routes[channel]
	return k, ok
}

// route sends the commands typed in channel to key, and keeps it so.
func (b *Bot) route(ctx context.Context, channel string, key sessions.Key) {
	b.where.route(channel, key)
	if b.cfg.Routes != nil {
		if err := b.cfg.Routes.SaveRoute(ctx, Platform, channel, key); err != nil {
			b.log.Warn("discord: saving where a channel's game is", "channel", channel, "err", err)
		}
	}
}

// unroute forgets the route of channel to key.
func (b *Bot) unroute(ctx context.Context, channel string, key sessions.Key) {
	b.where.unroute(channel, key)
	if b.cfg.Routes != nil {
		if err := b.cfg.Routes.DeleteRoute(ctx, Platform, channel, key); err != nil {
			b.log.Warn("discord: forgetting where a channel's game was", "channel", channel, "err", err)
		}
	}
}

// playedHere returns the game played in a channel that is not a thread
// (its own, or one whose thread could not be opened), if any.
func (b *Bot) playedHere(ctx context.Context, channelID string) (sessions.Key, bool) {
	key := b.commandKey(ctx, channelID)
	if s, err := b.svc.Look(ctx, key); err == nil && s.Phase() == sessions.PhasePlaying {
		return key, true
	}
	return sessions.Key{}, false
}

// channelKey returns the session key of a channel: {discord, parent,
// thread} in a thread, {discord, channel} elsewhere; and whether the
// channel is a thread.
func (b *Bot) channelKey(channelID string) (sessions.Key, bool) {
	parent, thread, known := b.where.lookup(channelID)
	if !known {
		if ch, err := b.s.State.Channel(channelID); err == nil {
			b.where.learn(ch.ID, ch.Type, ch.ParentID)
		} else if ch, err := b.c.Channel(channelID); err == nil {
			b.where.learn(ch.ID, ch.Type, ch.ParentID)
		} else {
			b.log.Warn("discord: cannot tell whether a channel is a thread", "channel", channelID, "err", err)
		}
		parent, thread, _ = b.where.lookup(channelID)
	}
	if thread {
		return sessions.Key{Platform: Platform, Channel: parent, Thread: channelID}, true
	}
	return sessions.Key{Platform: Platform, Channel: channelID}, false
}

// commandKey returns the key a command typed in a channel goes to: the
// channel's own session, or, when it has none, the challenge or game that
// was last opened from it under another key.
func (b *Bot) commandKey(ctx context.Context, channelID string) sessions.Key {
	key, thread := b.channelKey(channelID)
	if thread {
		return key
	}
	if r, ok := b.where.routed(channelID); ok {
		if _, err := b.svc.Look(ctx, key); err != nil {
			if _, err := b.svc.Look(ctx, r); err == nil {
				return r
			}
			b.unroute(ctx, channelID, r)
		}
	}
	return key
}

// enter marks a request of key in hand; leave ends it. Notices about a
// session with a request in hand are left to that request's reply. Only
// requests that may change the game enter: a flood of read-only commands
// (/board, /moves, a refusal) never holds back the computer's move or the
// clock's posts.
func (b *Bot) enter(key sessions.Key) {
	b.mu.Lock()
	b.busy[key]++
	b.mu.Unlock()
}

func (b *Bot) leave(key sessions.Key) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.busy[key]--; b.busy[key] <= 0 {
		delete(b.busy, key)
		b.kick(key)
	}
}

// handle runs one command of the language. The caller has entered the
// session's key, so that notices about it wait for the reply.
func (b *Bot) handle(ctx context.Context, m chat.Message) chat.Reply {
	return b.h.Handle(ctx, m)
}

// user is the person behind an interaction.
func user(i *discordgo.Interaction) sessions.User {
	var u *discordgo.User
	if i.Member != nil {
		u = i.Member.User
	}
	if u == nil {
		u = i.User
	}
	if u == nil {
		return sessions.User{}
	}
	return sessions.User{ID: u.ID, Name: displayName(u, i.Member)}
}
