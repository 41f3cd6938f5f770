package telegram

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardgamebot/bot/adapters/identity"
	"github.com/boardgamebot/bot/adapters/telegram/pace"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
)

// Platform is the Platform of the session keys and the prefix of the user
// ids of this adapter.
const Platform = identity.Telegram

// Config is what a Bot needs besides the chat handler, the sessions and
// the renderer. Token is required; the rest have defaults.
type Config struct {
	// Token is the bot's token from @BotFather. It is never logged.
	Token string
	// APIEndpoint is the Bot API server: a base URL such as
	// "http://localhost:8081" for a local Bot API server, or a format with
	// two %s (token, method) as telegram-bot-api takes it. Empty means
	// https://api.telegram.org.
	APIEndpoint string
	// Webhook, when set, receives updates by webhook instead of long
	// polling.
	Webhook *WebhookConfig
	// HTTPClient makes the calls; nil means a client on Go's standard
	// transport, which honours HTTPS_PROXY, NO_PROXY and SSL_CERT_FILE.
	HTTPClient *http.Client
	// PollTimeout is the long-poll timeout of getUpdates; 0 means 50s.
	PollTimeout time.Duration
	// GroupLimit is the most messages the bot sends into one group in any
	// GroupWindow (more wait their turn, none is dropped); 0 means 20, a
	// negative value means no limit. GroupWindow 0 means one minute.
	GroupLimit  int
	GroupWindow time.Duration
	// ChatBurst and ChatEvery pace the messages into any one chat, as
	// Telegram asks (about one a second, short bursts allowed): ChatBurst
	// messages at once, then one every ChatEvery. 0 means 3 and one
	// second; a negative ChatEvery means no pace.
	ChatBurst int
	ChatEvery time.Duration
	// GlobalLimit is the most messages the bot sends in any second across
	// all chats, which take turns (Telegram allows about 30); 0 means 30,
	// a negative value means no limit.
	GlobalLimit int
	// RetryPause is the first pause after a failure that may pass (the
	// network is down, Telegram answers 5xx), doubled at each attempt up
	// to a minute; 0 means one second. Every call is tried again until it
	// succeeds, is refused, or the bot stops; a 429 is waited out for its
	// retry_after, which counts as no failure.
	RetryPause time.Duration
	// ShutdownGrace is how long Run, once its context is done, still sends
	// the replies already queued; 0 means 5s.
	ShutdownGrace time.Duration
	// Clock paces the sends; nil means the system's clock.
	Clock Clock
	// Picture chooses the theme and size of the board pictures (the square
	// numbers are drawn for the draughts games whatever it says).
	Picture render.Options
	// Prefs keeps the players' choices of turn pings (/notify on|off)
	// across restarts; *storage.Store implements it. Nil keeps them in
	// memory only, until the bot stops.
	Prefs Prefs
	// AppName is the short name of the bot's Mini App (BotFather's
	// /newapp, its URL the web board's /tg): in groups, /web gives its
	// direct link, https://t.me/<bot>/<app>?startapp=<game>. Empty: the
	// user's own link goes to their private chat with the bot.
	AppName string
	// Metrics, when set, is told of the messages sent, retried and given
	// up, and of Telegram's 429s.
	Metrics Metrics
}

// Prefs stores the choices of turn pings by private message, by platform
// and user id (the user's decimal Telegram id, Platform "telegram").
type Prefs interface {
	// SetNotify records that the user turned pings on or off.
	SetNotify(ctx context.Context, platform, userID string, on bool) error
	// NotifyPrefs returns the recorded choices of the platform's users:
	// true for on, false for off.
	NotifyPrefs(ctx context.Context, platform string) (map[string]bool, error)
}

// WebhookConfig sets up webhook mode: the bot serves HTTP itself and asks
// Telegram to post updates to URL.
type WebhookConfig struct {
	// Listen is the address to serve on (":8443"); a TLS-terminating proxy
	// usually stands in front of it.
	Listen string
	// URL is the public https URL Telegram posts to; its path is the path
	// served.
	URL string
	// SecretToken is checked against the X-Telegram-Bot-Api-Secret-Token
	// header of every request; empty means a random one made at start.
	SecretToken string
	// CertFile and KeyFile, when set, serve HTTPS directly.
	CertFile, KeyFile string
	// Listener, when set, is used instead of listening on Listen.
	Listener net.Listener
}

// Bot is the Telegram adapter: it receives updates, passes commands and
// button presses to the chat handler, and sends the replies (board photos,
// keyboards) back, within Telegram's limits. It also implements
// sessions.Notifier for turn pings by private message.
type Bot struct {
	cfg    Config
	c      *client
	h      *chat.Handler
	svc    *sessions.Service
	r      *render.Renderer
	log    *slog.Logger
	self   string // the bot's username, filled by Run
	selfID int64  // the bot's user id, filled by Run

	work   lanes  // handling, per chat
	out    outbox // sending, per chat
	edits  lanes  // keyboard edits, per chat
	dedupe *chat.Recent

	// sendCtx is the context of every send; cancelled once Run's grace
	// period is over, and made again for the next Run. Read it with
	// sending().
	sendCtx  context.Context
	stopSend context.CancelFunc

	// pingMu orders the changes of opt-ins, so that the stored choice is
	// the last one made.
	pingMu sync.Mutex

	mu      sync.Mutex
	photos  map[string]string // picture key -> file_id
	bare    map[msgRef]bool   // messages whose keyboard was taken off
	chats   map[int64]chatInfo
	boards  map[where]board  // the last board photo of each place
	started map[int64]bool   // users who opened a private chat with the bot
	optedIn map[int64]bool   // users who asked for turn pings
	names   map[string]int64 // usernames seen (lower case) -> user ids
	closed  map[where]string // topics of finished tournament games, closed, with the game's id
}

// chatInfo is what the bot remembers of a chat, for links in pings.
type chatInfo struct {
	title    string
	username string
}

// msgRef names a message: its chat and its id there.
type msgRef struct {
	chat int64
	id   int
}

// board is the last board photo sent to a place: its message id, and
// whether it has a keyboard (to take off when the next board comes).
type board struct {
	id       int
	keyboard bool
}

// New returns a Bot. It makes no call yet: Run checks the token. It reads
// the choices of turn pings from cfg.Prefs, when set.
func New(cfg Config, h *chat.Handler, svc *sessions.Service, r *render.Renderer, log *slog.Logger) (*Bot, error) {
	if strings.TrimSpace(cfg.Token) == "" {
		return nil, errors.New("telegram: no token (set telegram.token or BOT_TELEGRAM_TOKEN; @BotFather gives one)")
	}
	if h == nil || svc == nil || r == nil {
		return nil, errors.New("telegram: New needs a chat handler, a sessions service and a renderer")
	}
	endpoint, err := endpointFormat(cfg.APIEndpoint)
	if err != nil {
		return nil, err
	}
	if w := cfg.Webhook; w != nil {
		u, err := url.Parse(w.URL)
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, fmt.Errorf("telegram: webhook url %q is not an http(s) URL", w.URL)
		}
		if w.Listen == "" && w.Listener == nil {
			return nil, errors.New("telegram: webhook needs an address to listen on (telegram.webhook.listen, e.g. :8443)")
		}
		if (w.CertFile == "") != (w.KeyFile == "") {
			return nil, errors.New("telegram: webhook needs both cert_file and key_file, or neither")
		}
		for _, c := range w.SecretToken {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
				return nil, errors.New("telegram: webhook secret_token may hold only A-Z, a-z, 0-9, _ and -")
			}
		}
		if len(w.SecretToken) > 256 {
			return nil, errors.New("telegram: webhook secret_token is longer than 256 characters")
		}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.PollTimeout <= 0 {
		cfg.PollTimeout = 50 * time.Second
	}
	if cfg.GroupLimit == 0 {
		cfg.GroupLimit = 20
	}
	if cfg.GroupWindow <= 0 {
		cfg.GroupWindow = time.Minute
	}
	if cfg.ChatBurst <= 0 {
		cfg.ChatBurst = 3
	}
	if cfg.ChatEvery == 0 {
		cfg.ChatEvery = time.Second
	}
	if cfg.GlobalLimit == 0 {
		cfg.GlobalLimit = 30
	}
	if cfg.RetryPause <= 0 {
		cfg.RetryPause = time.Second
	}
	if cfg.ShutdownGrace <= 0 {
		cfg.ShutdownGrace = 5 * time.Second
	}
	clock := cfg.Clock
	if clock == nil {
		clock = systemClock{}
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	if cfg.Metrics == nil {
		cfg.Metrics = noMetrics{}
	}
	api := &tgbotapi.BotAPI{Token: cfg.Token, Client: hc, Buffer: 100}
	api.SetAPIEndpoint(endpoint)
	b := &Bot{
		cfg: cfg, h: h, svc: svc, r: r, log: log,
		c:       &client{api: api, http: hc, token: cfg.Token, log: log, pause: cfg.RetryPause, sleep: rest(clock), m: cfg.Metrics},
		dedupe:  chat.NewRecent(8192),
		photos:  map[string]string{},
		bare:    map[msgRef]bool{},
		chats:   map[int64]chatInfo{},
		boards:  map[where]board{},
		started: map[int64]bool{},
		optedIn: map[int64]bool{},
		names:   map[string]int64{},
		closed:  map[where]string{},
	}
	b.out = outbox{lim: pace.Limits{Burst: cfg.ChatBurst, Every: cfg.ChatEvery, Group: cfg.GroupLimit, Window: cfg.GroupWindow},
		pace: &pace.Pacer{N: cfg.GlobalLimit, Per: time.Second}, clock: clock, log: log, ctx: b.sending, m: cfg.Metrics}
	if err := b.loadPings(); err != nil {
		return nil, err
	}
	b.sendCtx, b.stopSend = context.WithCancel(context.Background())
	return b, nil
}

// loadPings reads the stored opt-ins. A user who opted in has started a
// private chat with the bot, so the bot may write there.
func (b *Bot) loadPings() error {
	if b.cfg.Prefs == nil {
		return nil
	}
	prefs, err := b.cfg.Prefs.NotifyPrefs(context.Background(), Platform)
	if err != nil {
		return fmt.Errorf("telegram: reading the turn-ping choices: %w", err)
	}
	for user, on := range prefs {
		id, err := strconv.ParseInt(user, 10, 64)
		if err != nil || id <= 0 {
			b.log.Warn("telegram: a stored turn-ping choice has a bad user id", "user", user)
			continue
		}
		if on {
			b.optedIn[id], b.started[id] = true, true
		}
	}
	b.log.Info("telegram: turn pings loaded", "users_on", len(b.optedIn))
	return nil
}

// endpointFormat turns the configured endpoint into telegram-bot-api's
// format ("<base>/bot%s/%s").
func endpointFormat(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return tgbotapi.APIEndpoint, nil
	}
	if strings.Count(s, "%s") == 2 {
		return s, nil
	}
	if strings.Contains(s, "%") {
		return "", fmt.Errorf("telegram: api_endpoint %q: give a base URL, or a format with two %%s (token, method)", s)
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("telegram: api_endpoint %q is not an http(s) URL", s)
	}
	return strings.TrimRight(s, "/") + "/bot%s/%s", nil
}

// Run checks the token (getMe), publishes the command menus, and receives
// updates by long polling, or by webhook when one is configured, until ctx
// is done. Then it finishes the updates being handled, sends what is queued
// (for at most ShutdownGrace) and returns nil.
//
// A failure that may pass (the network is down, Telegram answers 5xx)
// never ends Run: every call is tried again after a pause that doubles from
// RetryPause up to a minute, with one log line per failed attempt, until
// it succeeds or ctx is done. Run returns an error only for what waiting
// cannot mend: a token that Telegram refuses, a webhook that cannot be
// served or that Telegram refuses. Run may then be called again (a
// supervisor starting the platform again); not twice at the same time.
func (b *Bot) Run(ctx context.Context) error {
	defer func() {
		b.drain()
		// What is still running is cut; the next Run sends afresh.
		b.mu.Lock()
		b.stopSend()
		b.sendCtx, b.stopSend = context.WithCancel(context.Background())
		b.mu.Unlock()
		b.log.Info("telegram bot stopped")
	}()
	var me tgbotapi.User
	res, err := b.c.call(ctx, "getMe", nil, nil)
	if err == nil {
		err = json.Unmarshal(res, &me)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("telegram: checking the token: %w", err)
	}
	b.mu.Lock()
	b.self, b.selfID = me.UserName, me.ID
	b.mu.Unlock()
	b.log.Info("telegram bot started", "bot", me.UserName, "webhook", b.cfg.Webhook != nil)
	b.publishCommands(ctx)
	if b.cfg.Webhook != nil {
		err = b.serveWebhook(ctx)
	} else {
		b.poll(ctx)
	}
	return err
}

// sending returns the context of the sends.
func (b *Bot) sending() context.Context {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sendCtx
}

// drain waits for the handlers, then for the queued sends during the
// grace period, then cancels what is left.
func (b *Bot) drain() {
	_ = b.work.wait(context.Background())
	grace, cancel := context.WithTimeout(context.Background(), b.cfg.ShutdownGrace)
	defer cancel()
	errOut := b.out.wait(grace)
	errEdits := b.edits.wait(grace)
	if errOut != nil || errEdits != nil {
		b.log.Warn("telegram: replies still queued at shutdown are not sent")
		b.stopSend()
		_ = b.out.wait(context.Background())
		_ = b.edits.wait(context.Background())
	}
}

// serveWebhook sets the webhook and serves it until ctx is done.
func (b *Bot) serveWebhook(ctx context.Context) error {
	w := b.cfg.Webhook
	secret := w.SecretToken
	if secret == "" {
		var buf [24]byte
		_, _ = rand.Read(buf[:])
		secret = hex.EncodeToString(buf[:])
	}
	u, _ := url.Parse(w.URL)
	path := u.Path
	if path == "" {
		path = "/"
	}
	ln := w.Listener
	if ln == nil {
		var err error
		ln, err = net.Listen("tcp", w.Listen)
		if err != nil {
			return fmt.Errorf("telegram: webhook: %w", err)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc(path, func(rw http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost {
			http.Error(rw, "POST only", http.StatusMethodNotAllowed)
			return
		}
		got := req.Header.Get("X-Telegram-Bot-Api-Secret-Token")
		if subtle.ConstantTimeCompare([]byte(got), []byte(secret)) != 1 {
			http.Error(rw, "wrong secret token", http.StatusUnauthorized)
			return
		}
		body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		if err != nil {
			http.Error(rw, "cannot read the body", http.StatusBadRequest)
			return
		}
		var up update
		if err := json.Unmarshal(body, &up); err != nil {
			// Telegram would send it again and again: take it and drop it.
			b.log.Warn("telegram: a webhook update could not be read", "err", err)
			rw.WriteHeader(http.StatusOK)
			return
		}
		// Telegram takes the update as delivered at the answer: answer
		// once it was handled, so that a bot killed in the middle gets it
		// again.
		select {
		case <-b.dispatch(up):
			rw.WriteHeader(http.StatusOK)
		case <-req.Context().Done():
		}
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	served := make(chan error, 1)
	go func() {
		var err error
		if w.CertFile != "" {
			err = srv.ServeTLS(ln, w.CertFile, w.KeyFile)
		} else {
			err = srv.Serve(ln)
		}
		served <- err
	}()
	p := tgbotapi.Params{"url": w.URL, "secret_token": secret, "allowed_updates": allowedUpdates}
	if _, err := b.c.call(ctx, "setWebhook", p, nil); err != nil && ctx.Err() == nil {
		_ = srv.Close()
		<-served
		return fmt.Errorf("telegram: %w", err)
	}
	b.log.Info("telegram webhook served", "address", ln.Addr().String(), "path", path)
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
		err = fmt.Errorf("telegram: webhook server: %w", err)
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if serr := srv.Shutdown(shut); serr != nil {
		b.log.Warn("telegram: webhook shutdown", "err", serr)
	}
	if err == nil {
		if e := <-served; e != nil && !errors.Is(e, http.ErrServerClosed) {
			err = fmt.Errorf("telegram: webhook server: %w", e)
		}
	}
	return err
}
