package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/boardgamebot/bot/adapters/web"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/ops"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/sessions"
)

// secrets keeps the web board's signing key (both stores implement it).
type secrets interface {
	Secret(ctx context.Context, name string, gen func() ([]byte, error)) ([]byte, error)
}

// webBoard is the web board of the configuration: its hub exists before
// the sessions service (it takes the service's changes), its server
// after the chat handler.
type webBoard struct {
	c      config
	hub    *web.Hub
	links  *web.Links
	signer *web.Signer
	// heads is the store's watch of the sessions' heads (etcd), which
	// the hub follows while the board is served; nil: none.
	heads sessions.HeadWatcher
}

// pollShared is how often a page's game is looked at for the moves other
// processes made, with a store they share (etcd).
const pollShared = 250 * time.Millisecond

// newWebBoard prepares the web board when web.listen is set (nil, nil
// otherwise): its signing key is web.secret, else the one kept in the
// store, made on the first start, so that every process on one etcd
// signs alike and links outlive restarts.
func newWebBoard(ctx context.Context, c config, store botStore) (*webBoard, error) {
	if c.Web.Listen == "" {
		return nil, nil
	}
	var key []byte
	if c.Web.Secret != "" {
		var err error
		if key, err = web.SecretKey(c.Web.Secret); err != nil {
			return nil, fmt.Errorf("web.secret: %w", err)
		}
	} else {
		var err error
		key, err = store.Secret(ctx, "web", func() ([]byte, error) {
			b := make([]byte, 32)
			_, err := rand.Read(b)
			return b, err
		})
		if err != nil {
			return nil, fmt.Errorf("the web board's secret: %w", err)
		}
	}
	signer, err := webSigner(c, key)
	if err != nil {
		return nil, err
	}
	var poll time.Duration
	heads, follow := store.(sessions.HeadWatcher)
	if _, shared := store.(sessions.SharedStore); shared && !follow {
		poll = pollShared
	}
	gens, _ := store.(sessions.LinkGenerations)
	links := web.NewLinks(web.LinksConfig{Base: c.Web.URL, Signer: signer, PlayFor: time.Duration(c.Web.PlayLinks), Generations: gens,
		WatchFor: time.Duration(c.Web.WatchLinks),
		// Telegram opens a Mini App at https addresses only.
		MiniApp: c.Telegram.Token != "" && strings.HasPrefix(c.Web.URL, "https://")})
	hub := web.NewHub(web.HubConfig{Poll: poll, StreamsPerAddress: c.Web.StreamsPerAddress, StreamsPerGame: c.Web.StreamsPerGame})
	wb := &webBoard{c: c, hub: hub, links: links, signer: signer}
	if follow {
		wb.heads = heads
	}
	return wb, nil
}

// changed is the service's Config.Changed: the hub's, or none.
func (wb *webBoard) changed() func(sessions.Key, *sessions.Snapshot) {
	if wb == nil {
		return nil
	}
	return wb.hub.Changed
}

// webLinks is the chat handler's Config.Web: the links, or none (an
// untyped nil: /web then says the bot serves no board).
func (wb *webBoard) webLinks() chat.WebLinks {
	if wb == nil {
		return nil
	}
	return wb.links
}

// start listens on web.listen and serves the board in the background
// until ctx is done; stop waits for it. A nil board starts nothing. The
// board is a platform of /readyz (connected while it serves), and serves
// the operator's endpoints too when metrics.listen is web.listen.
func (wb *webBoard) start(ctx context.Context, svc *sessions.Service, h *chat.Handler, r *render.Renderer, log *slog.Logger, o *operations) (stop func(), err error) {
	if wb == nil {
		return func() {}, nil
	}
	c := wb.c
	proxies, err := trustedProxies(&c)
	if err != nil {
		return nil, err
	}
	srv, err := web.New(web.Config{Sessions: svc, Chat: h, Hub: wb.hub, Links: wb.links, Signer: wb.signer, Renderer: r,
		Picture: render.Options{Theme: render.Theme(c.Render.Theme)}, TelegramToken: c.Telegram.Token,
		InitMaxAge: time.Duration(c.Web.InitMaxAge), Log: log.With("adapter", "web"),
		TrustedProxies: proxies, RequestRate: float64(c.Web.RequestRate), RequestBurst: c.Web.RequestBurst})
	if err != nil {
		return nil, err
	}
	// On the board's listener the operator's endpoints answer the
	// operator only: loopback and private addresses, or metrics.token.
	mounted := o.mount(ops.Guarded{Mux: srv, Token: c.Metrics.Token})
	ln, err := net.Listen("tcp", c.Web.Listen)
	if err != nil {
		return nil, fmt.Errorf("web.listen %s: %w", c.Web.Listen, err)
	}
	state := o.platform("web")
	state.Set(ops.Connected)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer state.Set(ops.Stopped)
		if err := srv.Serve(ctx, ln, c.Web.CertFile, c.Web.KeyFile); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("the web board stopped", "err", err)
		}
	}()
	followed := make(chan struct{})
	go func() {
		// One watch of the store's sessions for every page of this
		// process (etcd): the moves other processes make reach them.
		defer close(followed)
		if wb.heads == nil {
			return
		}
		if err := wb.hub.Follow(ctx, wb.heads); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("following the sessions' changes stopped", "err", err)
		}
	}()
	log.Info("web board served", "address", ln.Addr().String(), "url", c.Web.URL, "tls", c.Web.CertFile != "")
	if mounted {
		log.Info("metrics and health served", "address", ln.Addr().String(), "with", "the web board")
	}
	return func() {
		cancel()
		<-done
		<-followed
	}, nil
}
