package web

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
)

// Config is what a Server needs. Sessions, Chat, Hub, Links and Signer
// are required.
type Config struct {
	Sessions *sessions.Service
	// Chat is the chat handler: every action of a page goes through its
	// Handle, as a message of the user, so it gets the chat's checks,
	// limits and refusals; and it words the pages.
	Chat   *chat.Handler
	Hub    *Hub
	Links  *Links
	Signer *Signer
	// Renderer draws the boards' pictures (Open Graph og:image); nil
	// makes one.
	Renderer *render.Renderer
	Picture  render.Options
	// TelegramToken is the bot's Telegram token, which signs the Mini
	// App's launch data; empty: the Mini App is refused.
	TelegramToken string
	// InitMaxAge is how old the Mini App's launch data may be (0: an hour).
	InitMaxAge time.Duration
	// Log receives the server's errors; nil discards them. It never
	// receives a token.
	Log *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// TrustedProxies are the proxies in front of the board (see
	// ParseProxies): a request from one of them is counted against the
	// client address it reports in X-Forwarded-For.
	TrustedProxies []netip.Prefix
	// RequestRate is how many requests a second one client address may
	// make without a player's token (a watch link, or none), and
	// RequestBurst how many at once (0: 10 and 100); more are answered
	// 429 with Retry-After. A player's own link is limited by the chat.
	RequestRate  float64
	RequestBurst int
}

// Server is the web board's HTTP server: the board pages, their live
// streams and actions, the Telegram Mini App and the tournaments' pages.
type Server struct {
	svc     *sessions.Service
	chat    *chat.Handler
	hub     *Hub
	links   *Links
	signer  *Signer
	r       *render.Renderer
	picture render.Options
	tgToken string
	maxAge  time.Duration
	log     *slog.Logger
	now     func() time.Time
	assets  assets
	mux     *http.ServeMux
	proxies []netip.Prefix
	limit   *limiter
	cache   *cache
}

// The header that carries a link's token on the requests that change
// something (a cross-site form cannot set it).
const tokenHeader = "X-Board-Token"

// maxBody is the largest request body the server reads.
const maxBody = 8 << 10

// New returns a Server.
func New(c Config) (*Server, error) {
	if c.Sessions == nil || c.Chat == nil || c.Hub == nil || c.Links == nil || c.Signer == nil {
		return nil, errors.New("web: New needs the sessions service, the chat handler, a hub, links and a signer")
	}
	s := &Server{svc: c.Sessions, chat: c.Chat, hub: c.Hub, links: c.Links, signer: c.Signer, r: c.Renderer, picture: c.Picture,
		tgToken: c.TelegramToken, maxAge: c.InitMaxAge, log: c.Log, now: c.Now}
	if s.r == nil {
		s.r = render.New()
	}
	if s.maxAge <= 0 {
		s.maxAge = time.Hour
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if c.RequestRate <= 0 {
		c.RequestRate = 10
	}
	if c.RequestBurst <= 0 {
		c.RequestBurst = 100
	}
	s.proxies = c.TrustedProxies
	s.limit = newLimiter(c.RequestRate, c.RequestBurst, s.now)
	s.cache = newCache(cacheSize)
	var err error
	if s.assets, err = loadAssets(); err != nil {
		return nil, err
	}
	s.hub.mu.Lock()
	s.hub.src = s
	s.hub.mu.Unlock()
	s.mux = http.NewServeMux()
	s.routes()
	return s, nil
}

func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /s/{file}", s.asset)
	m.HandleFunc("GET /g/{ref}", s.boardPage)
	m.HandleFunc("GET /g/{ref}/state", s.getState)
	m.HandleFunc("GET /g/{ref}/events", s.events)
	m.HandleFunc("GET /g/{ref}/pass", s.pass)
	m.HandleFunc("GET /g/{ref}/frames", s.getFrames)
	m.HandleFunc("GET /g/{ref}/board.png", s.boardPicture)
	m.HandleFunc("GET /g/{ref}/record", s.record)
	m.HandleFunc("POST /g/{ref}/{action}", s.act)
	m.HandleFunc("POST /g/{ref}/better", s.tryBetter)
	m.HandleFunc("GET /tg", s.miniAppPage)
	m.HandleFunc("POST /tg/login", s.miniAppLogin)
	m.HandleFunc("GET /t/{ref}", s.tournamentPage)
	m.HandleFunc("GET /t/{ref}/standings.png", s.standingsPicture)
	m.HandleFunc("GET /t/{ref}/events", s.tournamentEvents)
	m.HandleFunc("GET /{$}", s.home)
}

// Handle serves pattern with h too, beside the board's pages (the
// operator's /metrics, /healthz and /readyz on the board's listener).
// Call it before Serve.
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// Handler returns the server's handler: every answer gets the security
// headers, and a panic is logged and answered 500.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("web: panic serving a request", "path", r.URL.Path, "panic", fmt.Sprint(p))
				http.Error(w, "internal error", http.StatusInternalServerError)
			}
		}()
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", csp(false))
		if !s.allowed(w, r) {
			return
		}
		s.mux.ServeHTTP(w, r)
	})
}

// csp is the pages' Content-Security-Policy: nothing from another host,
// except Telegram's script (and Telegram's web client framing the page)
// on the Mini App's entry.
func csp(miniApp bool) string {
	script, frame := "'self'", "'none'"
	if miniApp {
		script, frame = "'self' https://telegram.org", "https://web.telegram.org https://*.telegram.org"
	}
	return "default-src 'self'; script-src " + script + "; style-src 'self' " + pageStyleHash + "; img-src 'self' data:; connect-src 'self'; " +
		"base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors " + frame
}

// Serve serves on ln until ctx is done, with HTTPS when certFile and
// keyFile are set (the Mini App needs https: serve it here, or put a TLS
// proxy in front). The server has read, write and idle timeouts; the live
// streams leave it (they are the hub's) and close with Serve.
func (s *Server) Serve(ctx context.Context, ln net.Listener, certFile, keyFile string) error {
	handler := s.Handler()
	if certFile != "" {
		handler = hsts(handler)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10,
		// HTTP/1.1 only: a page's live stream then leaves the server
		// (hijacked), costing no goroutine while it waits.
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
		ErrorLog:     slog.NewLogLogger(s.log.Handler(), slog.LevelWarn)}
	served := make(chan error, 1)
	go func() {
		if certFile != "" {
			served <- srv.ServeTLS(ln, certFile, keyFile)
		} else {
			served <- srv.Serve(ln)
		}
	}()
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	s.hub.close()
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if serr := srv.Shutdown(shut); serr != nil {
		s.log.Warn("web: shutdown", "err", serr)
	}
	if err == nil {
		if e := <-served; e != nil && !errors.Is(e, http.ErrServerClosed) {
			err = e
		}
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	return nil
}

// hsts tells browsers to come back over https only, for two years: the
// server serves TLS itself.
func hsts(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Strict-Transport-Security", "max-age=63072000")
		h.ServeHTTP(w, r)
	})
}

// Close ends the live streams (Serve does it too).
func (s *Server) Close() { s.hub.close() }

// ---- tokens, games, languages ----

// failure is a refused request: its HTTP status and the catalogue
// message that says why.
type failure struct {
	status int
	msg    string
}

// tokenOf reads a request's token: from its header, or, on a request
// that changes nothing, from its query (t=): a page's link, an event
// stream (EventSource sets no header), a picture.
func tokenOf(r *http.Request) string {
	if t := r.Header.Get(tokenHeader); t != "" {
		return t
	}
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return r.URL.Query().Get("t")
	}
	return ""
}

// check checks a request's token for the game or tournament ref: sealed
// by this bot, not expired, for ref, not revoked by its user, and, when
// play, a token that plays.
func (s *Server) check(r *http.Request, ref string, play bool) (Token, *failure) {
	text := tokenOf(r)
	if text == "" {
		return Token{}, &failure{http.StatusUnauthorized, "WebNoToken"}
	}
	t, err := s.signer.Parse(text, s.now())
	switch {
	case errors.Is(err, ErrExpired):
		return t, &failure{http.StatusUnauthorized, "WebExpired"}
	case err != nil:
		return t, &failure{http.StatusUnauthorized, "WebBadLink"}
	case t.Ref() != ref:
		return t, &failure{http.StatusForbidden, "WebOtherGame"}
	case play && t.Scope != ScopePlay:
		return t, &failure{http.StatusForbidden, "WebWatchOnly"}
	case t.Scope == ScopeTournament && r.PathValue("action") != "":
		return t, &failure{http.StatusForbidden, "WebWatchOnly"}
	}
	if !t.User.IsZero() {
		// A user's own link: ended when they revoked their links after
		// it was made (read from the store on every request, so that a
		// revocation holds at once in every process).
		gen, err := s.svc.LinkGeneration(r.Context(), t.Key.Platform, t.User)
		switch {
		case err != nil:
			s.log.Error("web: reading a link generation", "err", err)
			return t, &failure{http.StatusServiceUnavailable, "RefusedUnexpected"}
		case t.Gen < gen:
			return t, &failure{http.StatusUnauthorized, "WebRevokedLink"}
		}
	}
	return t, nil
}

// current implements source: the game of key created at created, live
// (the session there) or finished (its record in the channel's history);
// errGone when neither. A finished game is kept in the cache: it no
// longer changes.
func (s *Server) current(ctx context.Context, key sessions.Key, created time.Time) (*sessions.Snapshot, error) {
	type result struct {
		snap *sessions.Snapshot
		err  error
	}
	r := s.cache.get("snapshot\x00"+key.String()+"\x00"+created.UTC().Format(time.RFC3339Nano), s.now(), func() (any, int, time.Duration) {
		snap, err := s.lookUp(ctx, key, created)
		if err != nil || snap.Record.Result == nil || snap.Record.ID == "" {
			return result{snap, err}, 0, 0
		}
		return result{snap, nil}, 16 << 10, finishedKeep
	}).(result)
	return r.snap, r.err
}

// finishedKeep is how long the cache keeps what it made of a finished
// game.
const finishedKeep = 10 * time.Minute

// lookUp finds the game of key created at created in the store (see
// current).
func (s *Server) lookUp(ctx context.Context, key sessions.Key, created time.Time) (*sessions.Snapshot, error) {
	snap, err := s.svc.Look(ctx, key)
	switch {
	case err == nil && snap.Record.Created.Equal(created):
		return snap, nil
	case err != nil && !errors.Is(err, sessions.ErrNoGame):
		return nil, err
	}
	recs, err := s.svc.History(ctx, sessions.HistoryQuery{Key: key, Limit: 200})
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		if rec.Created.Equal(created) {
			return s.svc.Replay(rec)
		}
	}
	return nil, errGone
}

// game returns the token's game as it stands.
func (s *Server) game(ctx context.Context, t Token) (*sessions.Snapshot, error) {
	if t.Scope == ScopeTournament {
		return nil, errGone
	}
	return s.current(ctx, t.Key, t.Created)
}

// langOf is the language of a page for the token's user: their /lang
// choice, else tag (what Telegram reports for them), else the browser's
// (Accept-Language), else what the platform last reported, else the
// bot's.
func (s *Server) langOf(r *http.Request, u sessions.User, platform, tag string) string {
	if tag == "" {
		tag = s.acceptLang(r)
	}
	if u.IsZero() {
		if l := s.chat.Catalogues().LangOf(tag); l != "" {
			return l
		}
		return s.chat.Catalogues().Default()
	}
	return s.chat.LangFor(r.Context(), platform, u, tag)
}

// acceptLang is the first language of the request's Accept-Language that
// has a catalogue ("" for none), by the weights given.
func (s *Server) acceptLang(r *http.Request) string {
	type choice struct {
		lang string
		q    float64
	}
	var cs []choice
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		if l := s.chat.Catalogues().LangOf(tag); l != "" && q > 0 {
			cs = append(cs, choice{l, q})
		}
	}
	slices.SortStableFunc(cs, func(a, b choice) int {
		switch {
		case a.q > b.q:
			return -1
		case a.q < b.q:
			return 1
		}
		return 0
	})
	if len(cs) == 0 {
		return ""
	}
	return cs[0].lang
}

// say words a catalogue message in lang.
func (s *Server) say(lang, id string, kv ...any) string {
	return s.chat.Catalogues().In(lang).T(id, kv...)
}
