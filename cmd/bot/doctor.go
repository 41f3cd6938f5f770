package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/boardgamebot/bot/adapters/discord"
	"github.com/boardgamebot/bot/adapters/telegram"
	"github.com/boardgamebot/bot/sessions"
	"github.com/boardgamebot/bot/storage/bolt"
)

const doctorNote = `Checks a set-up, one line per check (✓ or ✗ with what to do; ! a risk, – a check
not made), and exits 0 only when every check passes: the configuration (every
key and value of the file and the environment, every fault at once; a check
whose own settings are bad is not made, the others are), the database
(opened read-only, the checks of start-up; never written) or etcd (each
endpoint, its version, the keys under the prefix), and each platform whose
token is set (Telegram: getMe, the webhook or long polling; Discord: the token,
the permissions in each server, the slash commands' scope), and the web board's
address (https, or http on this machine only), and the metrics' (on every
interface, /metrics is public). Tokens are never printed.
`

// cmdDoctor checks the set-up of the configuration.
func cmdDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl, path := configFlags("doctor")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (usage: bot doctor [--config FILE])", fl.Arg(0))
	}
	d := &doctor{out: stdout, getenv: os.Getenv, environ: os.Environ()}
	return d.run(ctx, *path)
}

// doctor runs the checks of bot doctor and writes one line per check.
type doctor struct {
	out     io.Writer
	getenv  func(string) string
	environ []string
	// telegramHTTP and discordHTTP make the platforms' calls; nil: Go's
	// standard client (which honours HTTPS_PROXY and SSL_CERT_FILE). Tests
	// point discordHTTP at a fake Discord.
	telegramHTTP, discordHTTP *http.Client

	failed int
}

// ok writes a passed check.
func (d *doctor) ok(format string, args ...any) {
	fmt.Fprintf(d.out, "✓ %s\n", fmt.Sprintf(format, args...))
}

// bad writes a failed check: what is wrong, then what to do.
func (d *doctor) bad(what, fix string) {
	d.failed++
	fmt.Fprintf(d.out, "✗ %s → %s\n", what, fix)
}

// run runs every check of the configuration file path ("" for none); the
// error says how many failed. A bad setting does not stop the checks:
// each check whose own settings are good still runs.
func (d *doctor) run(ctx context.Context, path string) error {
	c, probs := d.config(path)
	switch {
	case probs.touches("storage"):
		d.skip("database: not checked until the storage settings above are fixed")
	case len(c.etcdEndpoints()) > 0:
		doctorEtcd(ctx, d, c)
	default:
		d.database(ctx, c)
	}
	for _, p := range []struct {
		name  string
		check func()
	}{
		{"telegram", func() { d.telegram(ctx, c) }},
		{"discord", func() { d.discord(ctx, c) }},
		{"web", func() { d.web(c) }},
		{"metrics", func() { d.metrics(c) }},
	} {
		if probs.touches(p.name) {
			d.skip(fmt.Sprintf("%s: not checked until its settings above are fixed", p.name))
			continue
		}
		p.check()
	}
	if c.Telegram.Token == "" && c.Discord.Token == "" && !probs.touches("telegram") && !probs.touches("discord") {
		d.ok("platforms: no token set: bot run starts the console (set BOT_TELEGRAM_TOKEN or BOT_DISCORD_TOKEN to serve them)")
	}
	if d.failed > 0 {
		return fmt.Errorf("%d %s failed", d.failed, plural(d.failed, "check", "checks"))
	}
	return nil
}

func plural(n int, one, more string) string {
	if n == 1 {
		return one
	}
	return more
}

// skip writes a check not made (its settings are bad: their lines say
// what to do).
func (d *doctor) skip(what string) {
	fmt.Fprintf(d.out, "– %s\n", what)
}

// warn writes a check that passes with a risk: what it is, then what to
// do about it.
func (d *doctor) warn(what, fix string) {
	fmt.Fprintf(d.out, "! %s → %s\n", what, fix)
}

// config writes every problem of the configuration, the file's and the
// environment's (a BOT_ variable that is no setting included), each with
// what to do; it returns the configuration read past them.
func (d *doctor) config(path string) (config, problems) {
	c, probs := readSettings(path, d.getenv, d.environ)
	for _, p := range probs {
		fix := p.fix
		switch {
		case fix != "":
		case strings.HasPrefix(p.where, "environment "):
			fix = fmt.Sprintf("change %s, or unset it (config.example.yaml shows every setting with its variable)", strings.TrimPrefix(p.where, "environment "))
		default:
			fix = "fix it in the file (config.example.yaml shows every setting with its variable)"
		}
		d.bad(p.where+": "+p.what, fix)
	}
	switch {
	case len(probs) > 0:
	case path != "":
		d.ok("config %s: every setting known, every value good", path)
	default:
		d.ok("config: no file (--config): the defaults and the environment, every value good")
	}
	return c, probs
}

// metrics warns when /metrics, /healthz and /readyz are served on every
// interface of the machine.
func (d *doctor) metrics(c config) {
	l := c.Metrics.Listen
	switch {
	case l == "":
	case everyInterface(l) && l == c.Web.Listen:
		d.warn(fmt.Sprintf("metrics: metrics.listen %s is the web board's address: /metrics, /healthz and /readyz are public with it", l),
			fmt.Sprintf("give metrics.listen an address of its own on this machine (like %s), or keep those paths off your proxy", metricsExample))
	case everyInterface(l):
		d.warn(fmt.Sprintf("metrics: metrics.listen %s listens on every interface: /metrics, /healthz and /readyz are public", l),
			fmt.Sprintf("listen on this machine (like %s) or a private address, unless a firewall keeps the port in", metricsExample))
	default:
		d.ok("metrics: /metrics, /healthz and /readyz served on %s", l)
	}
}

// database checks the bbolt file as start-up does, opened read-only.
func (d *doctor) database(ctx context.Context, c config) {
	path := c.Storage.Path
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := creatable(filepath.Dir(path)); err != nil {
			d.bad(fmt.Sprintf("database %s does not exist and cannot be created: %v", path, err),
				"give the bot's user a directory it may write (storage.path)")
			return
		}
		d.ok("database %s: not created yet (bot run creates it)", path)
		return
	case err != nil:
		d.bad(fmt.Sprintf("database %s: %v", path, err), "give the bot's user access to it (storage.path)")
		return
	case fi.Size() == 0:
		d.ok("database %s: empty (bot run sets it up)", path)
		return
	}
	s, err := openStore(path, bolt.Options{ReadOnly: true, Timeout: time.Duration(c.Storage.OpenTimeout)})
	if errors.Is(err, bolt.ErrLocked) {
		d.bad(fmt.Sprintf("database %s is open in another process (a bot running?)", path),
			"stop it to check the file, or check a copy: bot backup copy.db, then BOT_STORAGE_PATH=copy.db bot doctor")
		return
	}
	if err != nil {
		what, fix, _ := strings.Cut(err.Error(), "; ")
		if fix == "" {
			fix = "start the bot on it once, or restore the copy that bot backup made"
		}
		d.bad("database: "+strings.TrimPrefix(what, "storage: "), fix)
		return
	}
	defer s.Close()
	live, err := s.LiveIndex(ctx)
	if errors.Is(err, sessions.ErrDamaged) {
		d.bad(fmt.Sprintf("database %s: some live games' records are damaged (%v)", path, err),
			"the bot runs without them (they answer that their record is damaged); restore the copy that bot backup made to get them back")
		return
	}
	if err != nil {
		d.bad(fmt.Sprintf("database %s: %v", path, err), "restore the copy that bot backup made")
		return
	}
	d.ok("database %s: healthy (every page read, bbolt's check passed; %d live %s)", path, len(live), plural(len(live), "game", "games"))
}

// creatable checks, without writing, that the bot may create dir (or
// write in it): the nearest directory that exists must be writable.
func creatable(dir string) error {
	for {
		fi, err := os.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a directory", dir)
			}
			if err := syscall.Access(dir, 2 /* W_OK */); err != nil {
				return fmt.Errorf("%s is not writable", dir)
			}
			return nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return err
		}
		dir = parent
	}
}

// telegram checks the token and the webhook (or long polling).
func (d *doctor) telegram(ctx context.Context, c config) {
	if c.Telegram.Token == "" {
		return
	}
	hook := c.Telegram.Webhook.URL
	if hook != "" {
		if u, err := url.Parse(hook); err != nil || u.Scheme != "https" || u.Host == "" {
			d.bad(fmt.Sprintf("telegram: webhook url %q is not an https URL", hook),
				"Telegram posts only to https: put a TLS proxy in front of telegram.webhook.listen, or set cert_file and key_file, and give the https URL")
		}
	}
	s, err := telegram.Inspect(ctx, telegram.Config{Token: c.Telegram.Token, APIEndpoint: c.Telegram.APIEndpoint, HTTPClient: d.telegramHTTP})
	switch {
	case errors.Is(err, telegram.ErrTokenRefused):
		d.bad("telegram: "+err.Error(),
			"get it again from @BotFather (/mybots → your bot → API Token) into BOT_TELEGRAM_TOKEN or telegram.token")
		return
	case err != nil:
		d.bad(fmt.Sprintf("telegram: Telegram does not answer (%v)", err), "check the network (HTTPS_PROXY) and telegram.api_endpoint")
		return
	}
	d.ok("telegram: token accepted: @%s", s.Username)
	switch {
	case hook == "" && s.Webhook != "":
		d.bad(fmt.Sprintf("telegram: a webhook is set (%s): long polling gets no updates while it is", s.Webhook),
			"bot run removes it when it starts; if another bot serves it, give each bot its own token, or set telegram.webhook.url here too")
	case hook == "":
		d.ok("telegram: long polling free (no webhook set)")
	case s.Webhook == "":
		d.bad("telegram: no webhook is set at Telegram yet", "bot run sets it to telegram.webhook.url when it starts: run bot doctor again then")
	case s.Webhook != hook:
		d.bad(fmt.Sprintf("telegram: Telegram posts to %s, not to telegram.webhook.url %s", s.Webhook, hook),
			"bot run sets it when it starts; if another bot uses this token, give each its own")
	case s.LastError != "":
		d.bad(fmt.Sprintf("telegram: Telegram's last delivery to %s failed at %s: %s", hook, s.LastErrorAt.Format(time.RFC3339), s.LastError),
			"check that the URL reaches this bot: the TLS proxy, telegram.webhook.listen, the firewall")
	default:
		d.ok("telegram: webhook set to %s (%d %s waiting)", hook, s.Pending, plural(s.Pending, "update", "updates"))
	}
}

// web checks the scheme of the web board's address (web.url): https, or
// http on this machine only. Its links carry a signed token that plays as
// the player: over http on a network anyone on the way may take it, and
// Telegram opens a Mini App at https only.
func (d *doctor) web(c config) {
	if c.Web.Listen == "" {
		return
	}
	u, err := url.Parse(c.Web.URL)
	switch {
	case err != nil:
		d.bad(fmt.Sprintf("web: web.url %q is not a URL", c.Web.URL), "set it to the board's public https address")
	case u.Scheme == "https":
		d.ok("web: the board's links go to %s", c.Web.URL)
	case loopback(u.Hostname()):
		d.ok("web: the board's links go to %s (this machine only; the Telegram Mini App needs https)", c.Web.URL)
	default:
		d.bad(fmt.Sprintf("web: web.url %s is not https: the links' tokens (which play as the player) would cross the network in clear, and Telegram opens a Mini App at https only", c.Web.URL),
			"serve https (web.cert_file and web.key_file), or put a TLS proxy in front and set web.url to its https address")
	}
	d.webSecret(c, time.Now())
}

// loopback reports whether host names this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// discord checks the token, the servers' permissions and the commands'
// scope.
func (d *doctor) discord(ctx context.Context, c config) {
	if c.Discord.Token == "" {
		return
	}
	s, err := discord.Inspect(ctx, discord.Config{Token: c.Discord.Token, GuildID: c.Discord.GuildID, HTTPClient: d.discordHTTP})
	switch {
	case errors.Is(err, discord.ErrTokenRefused):
		d.bad("discord: "+err.Error(),
			"copy it again from the Developer Portal (your application → Bot → Reset Token) into BOT_DISCORD_TOKEN or discord.token")
		return
	case err != nil:
		d.bad(fmt.Sprintf("discord: Discord does not answer (%v)", err), "check the network (HTTPS_PROXY)")
		return
	}
	d.ok("discord: token accepted: %s (application %s)", s.User, s.AppID)
	invite := "invite it with OAuth2 → URL Generator: scopes bot and applications.commands, and the permissions the README lists"
	if len(s.Guilds) == 0 {
		d.bad("discord: the bot is in no server", invite)
		return
	}
	if g := c.Discord.GuildID; g != "" && !slices.ContainsFunc(s.Guilds, func(x discord.GuildSetup) bool { return x.ID == g }) {
		d.bad(fmt.Sprintf("discord: discord.guild_id %s is not a server the bot is in", g), invite+", or correct discord.guild_id")
	}
	good, scoped := 0, 0
	for _, g := range s.Guilds {
		fine := true
		if len(g.Missing) > 0 {
			fine = false
			d.bad(fmt.Sprintf("discord: server %q (%s): the bot lacks %s", g.Name, g.ID, strings.Join(g.Missing, ", ")),
				"give the bot's role these permissions (Server Settings → Roles), or invite it again with them")
		}
		switch g.Scope {
		case discord.ScopeMissing:
			fine = false
			d.bad(fmt.Sprintf("discord: server %q (%s): the slash commands are not allowed there (no applications.commands scope)", g.Name, g.ID),
				"invite the bot again with the scopes bot and applications.commands")
		case discord.ScopeGranted:
			scoped++
		}
		if fine {
			good++
		}
	}
	if good > 0 {
		d.ok("discord: %d %s with every permission the bot needs (slash commands allowed in the %d asked)", good, plural(good, "server", "servers"), scoped)
	}
}
