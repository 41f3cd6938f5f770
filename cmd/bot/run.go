package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/boardgamebot/bot/adapters/console"
	"github.com/boardgamebot/bot/adapters/discord"
	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/internal/backoff"
	"github.com/boardgamebot/bot/ops"
	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

// cmdRun serves the platforms whose tokens are set; with none, it starts
// the console.
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl, path := configFlags("run")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (usage: bot run [--config FILE])", fl.Arg(0))
	}
	c, err := loadEnvConfig(*path)
	if err != nil {
		return err
	}
	if c.Discord.Token == "" && c.Telegram.Token == "" {
		return runConsole(ctx, c, os.Stdin, stdout, stderr, isTerminal(os.Stdin))
	}
	return runPlatforms(ctx, c, stderr, restartPause{first: time.Second, most: 5 * time.Minute})
}

// platform is a running chat platform adapter.
type platform struct {
	name string
	run  func(ctx context.Context) error
	// state is the platform's in /readyz (nil: none): keepRunning sets it
	// retrying while it waits to start the adapter again, stopped at the
	// end; the adapter sets it connected.
	state *ops.Platform
}

// runPlatforms serves Telegram and/or Discord (whichever tokens are set) on
// one sessions service until ctx is done. Each adapter runs on its own: one
// that fails (network down, gateway refused) is started again after a
// pause (restartPause), and the others keep serving meanwhile.
func runPlatforms(ctx context.Context, c config, stderr io.Writer, pause restartPause) error {
	log := newLogger(c, stderr)
	store, where, err := openBotStore(ctx, c, log)
	if err != nil {
		return err
	}
	defer func() {
		if err := store.Close(); err != nil {
			log.Error("closing the database", "err", err)
		}
	}()
	wb, err := newWebBoard(ctx, c, store)
	if err != nil {
		return err
	}
	o, err := newOperations(c, store, c.storeKind())
	if err != nil {
		return err
	}
	defer o.serve(ctx, log)()
	var notifiers sessions.Notifiers
	places := sessions.PlaceSet{}
	svc, watchdog := newService(c, store, &notifiers, places, wb.changed(), log, o)
	defer svc.Close()
	o.watch(svc, watchdog)
	h := chat.New(chat.Config{Sessions: svc, Log: log, Lang: c.Lang, Langs: store, Rate: c.rate(), Web: wb.webLinks(), Observer: o.observer()})
	r := render.New()
	a := adapters{c: c, store: store, svc: svc, h: h, r: r, log: log, o: o, wb: wb,
		picture: render.Options{Theme: render.Theme(c.Render.Theme)}, notifiers: &notifiers, places: places}
	var running []platform
	if c.Telegram.Token != "" {
		p, err := a.telegram()
		if err != nil {
			return err // it says "telegram: ..."
		}
		running = append(running, p)
	}
	if c.Discord.Token != "" {
		p, err := a.discord()
		if err != nil {
			return err // it says "discord: ..."
		}
		running = append(running, p)
	}
	// The notifiers are complete: now the games may resume and the clocks run.
	n, err := svc.Resume(ctx)
	if err != nil {
		return fmt.Errorf("resuming the games in %s: %w", where, err)
	}
	stop := startBackground(ctx, c, svc, watchdog, store, log, o)
	defer stop()
	stopWeb, err := wb.start(ctx, svc, h, r, log, o)
	if err != nil {
		return err
	}
	defer stopWeb()
	var names []string
	for _, p := range running {
		names = append(names, p.name)
	}
	log.Info("serving", "platforms", strings.Join(names, ","), "database", where, "live_sessions", n)

	var wg sync.WaitGroup
	for _, p := range running {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keepRunning(ctx, p, pause, log)
		}()
	}
	wg.Wait()
	log.Info("stopped")
	return nil
}

// restartPause paces the restarts of an adapter: the first pause is first,
// each next one twice the last, up to most. An adapter that ran for most
// or longer before it stopped starts again from first.
type restartPause struct {
	first, most time.Duration
	// sleep waits d, or until ctx is done (then it reports false); nil
	// means a timer. Tests put their own.
	sleep func(ctx context.Context, d time.Duration) bool
}

func (r restartPause) wait(ctx context.Context, d time.Duration) bool {
	if r.sleep != nil {
		return r.sleep(ctx, d)
	}
	return backoff.Wait(ctx, d) == nil
}

// keepRunning runs p until ctx is done, starting it again each time it
// stops before (an error, a return or a panic), after a pause that grows
// with the failures in a row; it logs one line per restart.
func keepRunning(ctx context.Context, p platform, pause restartPause, log *slog.Logger) {
	bo := backoff.Backoff{First: pause.first, Max: pause.most}
	defer p.state.Set(ops.Stopped)
	for {
		began := time.Now()
		err := runOnce(ctx, p)
		if ctx.Err() != nil {
			if err != nil {
				log.Warn("platform stopped with an error", "platform", p.name, "err", err)
			}
			return
		}
		if time.Since(began) >= pause.most {
			bo.Reset()
		}
		if err == nil {
			err = errors.New("stopped by itself")
		}
		p.state.Set(ops.Retrying)
		d := bo.Next()
		log.Error("platform down; starting it again", "platform", p.name, "attempt", bo.Attempt(), "in", d, "err", err)
		if !pause.wait(ctx, d) {
			return
		}
	}
}

// runOnce runs p once; a panic is an error.
func runOnce(ctx context.Context, p platform) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	return p.run(ctx)
}

// cmdConsole plays in this terminal whatever tokens are set.
func cmdConsole(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl, path := configFlags("console")
	as := fl.String("as", "", "the first speaker's `name` (default: console.as, \"you\")")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (usage: bot console [--config FILE] [--as NAME])", fl.Arg(0))
	}
	c, err := loadEnvConfig(*path)
	if err != nil {
		return err
	}
	if *as != "" {
		c.Console.As = *as
	}
	return runConsole(ctx, c, os.Stdin, stdout, stderr, isTerminal(os.Stdin))
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// newLogger builds the logger of the configuration, writing to w.
func newLogger(c config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.Log.Level))
	o := &slog.HandlerOptions{Level: level}
	if strings.EqualFold(c.Log.Format, "json") {
		return slog.New(slog.NewJSONHandler(w, o))
	}
	return slog.New(slog.NewTextHandler(w, o))
}

// botStore is what the bot keeps: the sessions and games, the users'
// languages and pings, the Discord channels' routes, the web board's
// signing key.
type botStore interface {
	sessions.Store
	chat.LangStore
	telegram.Prefs
	discord.Routes
	secrets
	Close() error
}

// openBotStore opens the etcd store when storage.etcd.endpoints is set,
// the bbolt file of storage.path otherwise; where names it for logs.
func openBotStore(ctx context.Context, c config, log *slog.Logger) (store botStore, where string, err error) {
	if eps := c.etcdEndpoints(); len(eps) > 0 {
		return openEtcd(ctx, c, eps, log)
	}
	s, err := openStore(c.Storage.Path, bolt.Options{Timeout: time.Duration(c.Storage.OpenTimeout), Log: log})
	if err != nil {
		return nil, "", err
	}
	return s, c.Storage.Path, nil
}

// clockLeader is a store shared by several processes, of which one at a
// time runs the clocks: leadClocks runs run while this process leads.
type clockLeader interface {
	leadClocks(ctx context.Context, run func(context.Context))
}

// pollLeader is a store shared by several processes, of which one at a
// time polls Telegram: leadPolling runs poll while this process leads.
type pollLeader interface {
	leadPolling(ctx context.Context, poll func(context.Context))
}

// openStore opens the database; to a file that bolt.Open refuses (its
// one line names the file and says what is wrong) it adds what to do.
func openStore(path string, o bolt.Options) (*bolt.Store, error) {
	if o.Community == nil {
		o.Community = legacyCommunity
	}
	s, err := bolt.Open(path, o)
	switch {
	case errors.Is(err, sessions.ErrDamaged):
		return nil, fmt.Errorf("%w; restore the copy that bot backup made, or move the file aside to start an empty database", err)
	case errors.Is(err, bolt.ErrNotBotDB):
		return nil, fmt.Errorf("%w; set storage.path to the bot's database (or restore the copy that bot backup made), or move the file aside to start an empty one", err)
	}
	return s, err
}

// legacyCommunity names the community of a finished game of an older bot
// (bolt.Options.Community): a Telegram group's, which its key says;
// an older Discord game's server is not known.
func legacyCommunity(k sessions.Key) string { return telegram.Community(k) }

// runConsole opens the database, resumes its games and runs the console
// until the end of input or until ctx is done.
func runConsole(ctx context.Context, c config, in io.Reader, stdout, stderr io.Writer, interactive bool) error {
	log := newLogger(c, stderr)
	store, where, err := openBotStore(ctx, c, log)
	if err != nil {
		return err
	}
	defer func() {
		if err := store.Close(); err != nil {
			log.Error("closing the database", "err", err)
		}
	}()
	wb, err := newWebBoard(ctx, c, store)
	if err != nil {
		return err
	}
	o, err := newOperations(c, store, c.storeKind())
	if err != nil {
		return err
	}
	defer o.serve(ctx, log)()
	notices := console.NewNotifier()
	svc, watchdog := newService(c, store, notices, sessions.PlaceSet{console.Platform: console.Places{}}, wb.changed(), log, o)
	defer svc.Close()
	o.watch(svc, watchdog)
	n, err := svc.Resume(ctx)
	if err != nil {
		return fmt.Errorf("resuming the games in %s: %w", where, err)
	}
	stop := startBackground(ctx, c, svc, watchdog, store, log, o)
	defer stop()
	log.Info("console started", "database", where, "live_sessions", n)
	// The console is one terminal, typed at or fed by a script of its
	// owner's: it has no other users to protect, so its commands pass no
	// rate limit (the caps still hold).
	h := chat.New(chat.Config{Sessions: svc, Log: log, Lang: c.Lang, Langs: store, Web: wb.webLinks(), Observer: o.observer()})
	cc := console.Config{Handler: h, In: in, Out: stdout, As: c.Console.As, Channel: c.Console.Channel,
		Prompt: interactive, Log: log, Notices: notices}
	r := render.New()
	stopWeb, err := wb.start(ctx, svc, h, r, log, o)
	if err != nil {
		return err
	}
	defer stopWeb()
	if c.Console.Pictures != "" && c.Console.Pictures != "off" {
		cc.PictureDir = filepath.Clean(c.Console.Pictures)
		cc.Draw = func(p *chat.Picture) ([]byte, error) {
			return r.PNG(p.View, p.Last, p.Viewer, render.Options{Theme: render.Theme(c.Render.Theme), Numbers: p.View.Numbers != nil})
		}
		cc.Animate = func(rp *chat.Replay) ([]byte, error) {
			return r.Replay(rp.Frames, rp.Moves, render.Options{Theme: render.Theme(c.Render.Theme)})
		}
		cc.DrawStandings = func(p *chat.StandingsPicture) ([]byte, error) {
			return r.Standings(p.Table, render.Options{Theme: render.Theme(c.Render.Theme)})
		}
		cc.DrawFigure = func(f *chat.Figure) ([]byte, error) {
			return f.PNG(r, render.Options{Theme: render.Theme(c.Render.Theme)})
		}
	}
	if interactive {
		fmt.Fprintf(stdout, "Board-game bot on %s. You are %s; /as NAME changes who speaks, /help lists the commands, Ctrl-D ends.\n",
			where, c.Console.As)
	}
	if err := console.Run(ctx, cc); err != nil {
		return err
	}
	log.Info("console stopped")
	return nil
}

// newService builds the sessions service of the configuration: the
// platforms' default clocks, the challenge expiry, the computer opponent,
// counted by o's metrics (nil: none).
// Close it (it stops the computer's searches) before the store.
// changed, when set, takes every committed change (the web board's hub).
// The service commits through the returned watchdog (storage.commit_watchdog).
func newService(c config, store sessions.Store, notify sessions.Notifier, places sessions.PlaceSet,
	changed func(sessions.Key, *sessions.Snapshot), log *slog.Logger, o *operations) (*sessions.Service, *sessions.Watchdog) {
	comp := ai.New(ai.Config{TableMB: c.Computer.TableMB, MaxTime: time.Duration(c.Computer.MaxTime), Searches: c.Computer.Searches})
	o.computer(comp)
	ttl := time.Duration(c.Clocks.ChallengeExpiry)
	if ttl == 0 {
		ttl = -1 // "off": challenges wait for ever
	}
	w := sessions.NewWatchdog(sessions.WatchdogConfig{Bound: time.Duration(c.Storage.CommitWatchdog), Log: log})
	return sessions.New(sessions.Config{Store: w.Wrap(store), Notifier: notify, Log: log, DefaultTime: c.defaultTime,
		ChallengeTTL: ttl, Computer: comp, AutoLevel: c.Computer.AutoLevel, Resident: c.Sessions.Resident, Places: places, Caps: c.caps(),
		Changed: changed, Metrics: o.sessionsMetrics(), ReviewNodes: int64(c.Review.Budget), ReviewAuto: c.Review.Auto}), w
}

// startBackground runs the clocks (sessions.Service.Run; on etcd, only
// while this process leads them) and the watchdog over the store's
// commits, and answers `bot backup` through the backup socket, until the
// returned stop is called or ctx is done; stop waits for them all.
func startBackground(ctx context.Context, c config, svc *sessions.Service, watchdog *sessions.Watchdog, store botStore, log *slog.Logger, o *operations) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { watchdog.Run(ctx) })
	wg.Add(1)
	go func() {
		defer wg.Done()
		clocks := o.clocksLoop()
		run := func(ctx context.Context) {
			clocks.Start()
			defer clocks.Stop()
			svc.Run(ctx, time.Duration(c.Clocks.Tick))
		}
		if l, ok := store.(clockLeader); ok {
			// Processes on one etcd: only the elected one runs the clocks.
			l.leadClocks(ctx, o.whileLeading("clocks", run))
			return
		}
		run(ctx)
	}()
	var closeBackups func()
	if db, ok := store.(*bolt.Store); ok { // etcd keeps its own copies (etcdctl snapshot save)
		var err error
		if closeBackups, err = serveBackups(ctx, db, backupSocket(c.Storage.Path), log); err != nil {
			log.Warn("bot backup will not reach this process", "err", err)
		}
	}
	return func() {
		cancel()
		if closeBackups != nil {
			closeBackups()
		}
		wg.Wait()
	}
}
