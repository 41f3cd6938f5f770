package web

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/sessions"
)

// Links makes the links of the web board: signed tokens under the public
// base URL. It implements chat.WebLinks. It is safe for concurrent use.
type Links struct {
	base     string
	signer   *Signer
	playFor  time.Duration
	watchFor time.Duration
	now      func() time.Time
	miniApp  bool
	gens     sessions.LinkGenerations
}

// LinksConfig sets up Links.
type LinksConfig struct {
	// Base is the public URL the server is reached at
	// ("https://board.example.org"; a path is kept).
	Base   string
	Signer *Signer
	// PlayFor and WatchFor are how long play and watch links work
	// (0: 24 hours and 30 days).
	PlayFor, WatchFor time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MiniApp: the server runs the Telegram Mini App (a bot token is
	// set), so Telegram games get its links (WebBoard.App, Start).
	MiniApp bool
	// Generations are the users' link generations (the store's), which
	// a user's own links carry; nil: none (every link at generation 0).
	Generations sessions.LinkGenerations
}

// Default link lifetimes.
const (
	DefaultPlayFor  = 24 * time.Hour
	DefaultWatchFor = 30 * 24 * time.Hour
)

// NewLinks returns Links.
func NewLinks(c LinksConfig) *Links {
	l := &Links{base: strings.TrimRight(c.Base, "/"), signer: c.Signer, playFor: c.PlayFor, watchFor: c.WatchFor, now: c.Now, miniApp: c.MiniApp,
		gens: c.Generations}
	if l.playFor <= 0 {
		l.playFor = DefaultPlayFor
	}
	if l.watchFor <= 0 {
		l.watchFor = DefaultWatchFor
	}
	if l.now == nil {
		l.now = time.Now
	}
	return l
}

// Base returns the public base URL.
func (l *Links) Base() string { return l.base }

// token makes a token of scope for the game of s (and user u).
func (l *Links) token(scope Scope, s *sessions.Snapshot, u sessions.User) Token {
	life := l.watchFor
	if scope == ScopePlay {
		life = l.playFor
	}
	t := Token{Scope: scope, User: u, Key: s.Record.Key, Created: s.Record.Created, Expires: l.now().Add(life)}
	if !u.IsZero() && l.gens != nil {
		// The user's generation now: their links end when they raise
		// it (/web revoke). Unread, 0: a link that ends at once if
		// they ever revoked.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		t.Gen, _ = l.gens.LinkGeneration(ctx, s.Record.Key.Platform, u.ID)
		cancel()
	}
	return t
}

// page is the URL of the page of a token: the token in its fragment,
// which the browser never sends (nor a proxy logs); the page sends it in
// a header.
func (l *Links) page(t Token) string {
	prefix := "/g/"
	if t.Scope == ScopeTournament {
		prefix = "/t/"
	}
	if t.Scope == ScopeWatch || t.Scope == ScopeTournament {
		// A watch link carries its token as its view too: the server
		// draws the page from it, in its first paint (a tournament's page
		// only watches); the page takes it from the fragment as any link's.
		tok := l.signer.Sign(t)
		return l.base + prefix + t.Ref() + "?v=" + tok + "#t=" + tok
	}
	if t.Scope == ScopePlay {
		// A play link also carries a watch token in its address, for the
		// server to draw the board in the page's first paint; the play
		// token stays in the fragment, which no server or log sees.
		// The view names the player (and their link generation), so the
		// first paint is their side of the board with their controls; it
		// only watches.
		view := t
		view.Scope = ScopeWatch
		return l.base + prefix + t.Ref() + "?v=" + l.signer.Sign(view) + "#t=" + l.signer.Sign(t)
	}
	return l.base + prefix + t.Ref() + "#t=" + l.signer.Sign(t)
}

// Board implements chat.WebLinks: u's own link to play when they hold a
// seat still in the game, and the watch page; on Telegram, the Mini App's.
func (l *Links) Board(s *sessions.Snapshot, u sessions.User) chat.WebBoard {
	watch := l.token(ScopeWatch, s, sessions.User{})
	b := chat.WebBoard{Watch: l.page(watch)}
	if !u.IsZero() && s.Record.Result == nil && len(s.Record.SeatsOf(u)) > 0 {
		b.Play, b.PlayFor = l.page(l.token(ScopePlay, s, u)), l.playFor
	}
	if l.miniApp && s.Record.Key.Platform == "telegram" {
		b.Start = l.signer.Sign(watch)
		b.App = l.base + "/tg?g=" + url.QueryEscape(b.Start)
		b.AppMenu = l.MiniApp()
	}
	return b
}

// Watch returns the watch page of the game of s.
func (l *Links) Watch(s *sessions.Snapshot) string {
	return l.page(l.token(ScopeWatch, s, sessions.User{}))
}

// WatchUntil returns the watch page of the game of s for a link minted
// from another link: it ends when that link does, or before.
func (l *Links) WatchUntil(s *sessions.Snapshot, until time.Time) string {
	t := l.token(ScopeWatch, s, sessions.User{})
	if until.Before(t.Expires) {
		t.Expires = until
	}
	return l.page(t)
}

// TournamentUntil is Tournament for a link minted from another link: it
// ends when that link does, or before.
func (l *Links) TournamentUntil(tour *sessions.Tournament, until time.Time) string {
	t := Token{Scope: ScopeTournament, Key: sessions.Key{Platform: tour.Key.Platform, Channel: tour.Key.Channel},
		Tournament: tour.ID, Expires: l.now().Add(l.watchFor)}
	if until.Before(t.Expires) {
		t.Expires = until
	}
	return l.page(t)
}

// Tournament implements chat.WebLinks: the page of tournament t.
func (l *Links) Tournament(t *sessions.Tournament) string {
	return l.page(Token{Scope: ScopeTournament, Key: sessions.Key{Platform: t.Key.Platform, Channel: t.Key.Channel},
		Tournament: t.ID, Expires: l.now().Add(l.watchFor)})
}

// MiniApp returns the URL of the Telegram Mini App that opens a user's
// game in their private chat with the bot (the chat's menu button).
func (l *Links) MiniApp() string { return l.base + "/tg" }
