package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/adapters/discord/discordtest"
	"github.com/boardgamebot/bot/adapters/telegram/telegramtest"
	"github.com/boardgamebot/bot/storage/bolt"
	"github.com/bwmarrin/discordgo"
)

// playedDB returns a bot database with a finished game and a live one.
func playedDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "bot.db")
	var out, log bytes.Buffer
	in := "/play spanish @bob color=white\n/as bob\n/accept\n/resign\n/as alice\n/play spanish @bob\n/as bob\n/accept\n"
	if err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(in), &out, &log, false); err != nil {
		t.Fatal(err)
	}
	return db
}

// doctorCase is a set-up of TestDoctor.
type doctorCase struct {
	name string
	// file is the config file's text, env the environment (on top
	// of the good set-up's), guild the bot's permissions in its
	// server, webhook and hookError what getWebhookInfo says.
	file               string
	env                map[string]string
	guild              int64
	noScope            bool
	webhook, hookError string
	// want matches the one failed check; "" for none.
	want string
}

// doctorCases are TestDoctor's set-ups: the good one, then one wrong thing
// each; damaged is a damaged database, nobody an address nobody listens on.
func doctorCases(damaged, nobody string) []doctorCase {
	noFiles := discordtest.Everyone &^ discordgo.PermissionAttachFiles
	return []doctorCase{
		{name: "good set-up"},
		{name: "refused Telegram token", env: map[string]string{"BOT_TELEGRAM_TOKEN": "42:not-the-token"},
			want: `^✗ telegram: the token is refused: getMe: 401 Unauthorized → get it again from @BotFather`},
		{name: "refused Discord token", env: map[string]string{"BOT_DISCORD_TOKEN": "not.the.token"},
			want: `^✗ discord: the token is refused: GET /users/@me: 401 Unauthorized → copy it again from the Developer Portal`},
		{name: "missing Discord permission", guild: noFiles,
			want: `^✗ discord: server "Games" \(800\): the bot lacks Attach Files → give the bot's role these permissions`},
		{name: "no commands scope", noScope: true,
			want: `^✗ discord: server "Games" \(800\): the slash commands are not allowed there \(no applications.commands scope\) → invite the bot again`},
		{name: "webhook on http", env: map[string]string{"BOT_TELEGRAM_WEBHOOK_URL": "http://games.example/tg", "BOT_TELEGRAM_WEBHOOK_LISTEN": ":8443"},
			webhook: "http://games.example/tg",
			want:    `^✗ telegram: webhook url "http://games.example/tg" is not an https URL → Telegram posts only to https`},
		{name: "webhook not delivered", env: map[string]string{"BOT_TELEGRAM_WEBHOOK_URL": "https://games.example/tg", "BOT_TELEGRAM_WEBHOOK_LISTEN": ":8443"},
			webhook: "https://games.example/tg", hookError: "Connection timed out",
			want: `^✗ telegram: Telegram's last delivery to https://games.example/tg failed at 2026-01-01T00:00:00Z: Connection timed out → check that the URL reaches this bot`},
		{name: "webhook left set while polling", webhook: "https://old.example/tg",
			want: `^✗ telegram: a webhook is set \(https://old.example/tg\): long polling gets no updates while it is → bot run removes it`},
		{name: "damaged database", env: map[string]string{"BOT_STORAGE_PATH": damaged},
			want: `^✗ database: ` + regexp.QuoteMeta(damaged) + ` is damaged: it is cut short.* → .*restore the copy that bot backup made, or move the file aside`},
		{name: "unreachable etcd", env: map[string]string{"BOT_STORAGE_ETCD_ENDPOINTS": nobody, "BOT_STORAGE_ETCD_DIAL_TIMEOUT": "300ms"},
			want: `^✗ (etcd ` + nobody + `: no answer within 300ms .* → is etcd running there\?|storage.etcd.endpoints is set, but this bot was built without etcd)`},
		{name: "unknown config key", file: "telegram:\n  tokn: x\n",
			want: `^✗ config .*: line 2: unknown setting "tokn" in telegram: did you mean "token"\? .* → fix it`},
		{name: "web board on http", env: map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_URL": "http://board.example.org"},
			want: `^✗ web: web.url http://board.example.org is not https: .* → serve https`},
		{name: "web board on https", env: map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_URL": "https://board.example.org"}},
		{name: "web board on this machine", env: map[string]string{"BOT_WEB_LISTEN": "127.0.0.1:8080"}},
		{name: "weak web secret", env: map[string]string{"BOT_WEB_LISTEN": "127.0.0.1:8080", "BOT_WEB_SECRET": "sixteen chars at least"},
			want: "^✗ environment BOT_WEB_SECRET: web.secret is weak: it must carry at least 32 random bytes; make one with `openssl rand -base64 32`"},
		{name: "web secret rotated", env: map[string]string{"BOT_WEB_LISTEN": "127.0.0.1:8080", "BOT_WEB_SECRET": "a8ZTV0Pj9Fa58bn4V3gcN4OR8soesb+32hbPNZgRGKU=",
			"BOT_WEB_PREVIOUS_SECRET": "H3yNzX5IJ1TAF2nJK1vvnGLIu1BWPrEn0NtN9vyaEnw=", "BOT_WEB_PREVIOUS_SECRET_UNTIL": "2999-01-01"}},
		{name: "previous web secret past its grace", env: map[string]string{"BOT_WEB_LISTEN": "127.0.0.1:8080", "BOT_WEB_SECRET": "a8ZTV0Pj9Fa58bn4V3gcN4OR8soesb+32hbPNZgRGKU=",
			"BOT_WEB_PREVIOUS_SECRET": "H3yNzX5IJ1TAF2nJK1vvnGLIu1BWPrEn0NtN9vyaEnw=", "BOT_WEB_PREVIOUS_SECRET_UNTIL": "2020-01-01"},
			want: `^✗ web: web.previous_secret's grace ended at 2020-01-01T00:00:00Z → remove web.previous_secret`},
		{name: "unknown environment variable", env: map[string]string{"BOT_TELEGRAM_TOKN": "x"},
			want: `^✗ environment: BOT_TELEGRAM_TOKN is not a setting → did you mean BOT_TELEGRAM_TOKEN\?$`},
	}
}

// TestDoctor runs bot doctor on a good set-up (a played database, a
// Telegram token on the fake Bot API, a Discord token on the fake
// Discord), then on that set-up with one thing wrong: each time exactly
// one check fails, named in one line with what to do, and the exit is
// non-zero; a good set-up passes every check. No token is ever printed.
func TestDoctor(t *testing.T) {
	db := playedDB(t)
	good, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(t.TempDir(), "damaged.db")
	if err := os.WriteFile(damaged, good[:12<<10], 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nobody := ln.Addr().String() // nobody listens there once closed
	ln.Close()
	for _, tc := range doctorCases(damaged, nobody) {
		t.Run(tc.name, func(t *testing.T) {
			tg := telegramtest.New(t)
			tg.SetWebhook(tc.webhook, tc.hookError)
			perms := discordtest.Everyone
			if tc.guild != 0 {
				perms = tc.guild
			}
			dc := discordtest.New(t, discordtest.Guild{ID: "800", Name: "Games", Permissions: perms, NoCommands: tc.noScope})
			env := map[string]string{"BOT_STORAGE_PATH": db, "BOT_TELEGRAM_TOKEN": telegramtest.Token,
				"BOT_TELEGRAM_API_ENDPOINT": tg.URL, "BOT_DISCORD_TOKEN": discordtest.Token}
			for k, v := range tc.env {
				env[k] = v
			}
			var environ []string
			for k, v := range env {
				environ = append(environ, k+"="+v)
			}
			path := ""
			if tc.file != "" {
				path = writeConfig(t, tc.file)
			}
			var out bytes.Buffer
			d := &doctor{out: &out, getenv: func(k string) string { return env[k] }, environ: environ, discordHTTP: dc.Client()}
			err := d.run(context.Background(), path)
			text := out.String()
			var failed []string
			for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
				if !strings.HasPrefix(l, "✓ ") && !strings.HasPrefix(l, "✗ ") && !strings.HasPrefix(l, "! ") && !strings.HasPrefix(l, "– ") {
					t.Errorf("line %q is not a check", l)
				}
				if strings.HasPrefix(l, "✗") {
					failed = append(failed, l)
				}
			}
			for _, secret := range []string{telegramtest.Token, discordtest.Token, "not-the-token", "not.the.token"} {
				if strings.Contains(text, secret) {
					t.Errorf("a token is printed:\n%s", text)
				}
			}
			if tc.want == "" {
				if err != nil || len(failed) > 0 || !strings.Contains(text, "✓ database "+db+": healthy") ||
					!strings.Contains(text, "✓ telegram: token accepted: @"+telegramtest.Username) ||
					!strings.Contains(text, "✓ discord: 1 server with every permission the bot needs (slash commands allowed in the 1 asked)") {
					t.Fatalf("good set-up: %v\n%s", err, text)
				}
				if env["BOT_WEB_LISTEN"] != "" && !strings.Contains(text, "✓ web: the board's links go to ") {
					t.Fatalf("no check of the web board:\n%s", text)
				}
				return
			}
			if err == nil || err.Error() != "1 check failed" || len(failed) != 1 || !regexp.MustCompile(tc.want).MatchString(failed[0]) {
				t.Fatalf("%v; want one failed check matching %s, got:\n%s", err, tc.want, text)
			}
			for _, c := range tg.Calls() {
				if c != "getMe" && c != "getWebhookInfo" {
					t.Errorf("doctor called Telegram's %s", c)
				}
			}
			for _, c := range dc.Calls() {
				if !strings.HasPrefix(c, "GET ") {
					t.Errorf("doctor called Discord's %s", c)
				}
			}
		})
	}
}

// TestDoctorCommand: bot doctor exits 0 on a good set-up and 1 when a
// check fails (a damaged database, a database a running bot holds),
// which it names in one line; the database is never changed.
func TestDoctorCommand(t *testing.T) {
	db := playedDB(t)
	for _, env := range os.Environ() {
		if name, _, _ := strings.Cut(env, "="); strings.HasPrefix(name, "BOT_") {
			t.Setenv(name, "") // the test's environment is not the case's
			os.Unsetenv(name)
		}
	}
	t.Setenv("BOT_STORAGE_PATH", db)
	t.Setenv("BOT_STORAGE_OPEN_TIMEOUT", "200ms")
	doctor := func() (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := runMain(context.Background(), []string{"doctor"}, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	before, _ := os.ReadFile(db)
	if code, out, errs := doctor(); code != 0 || !strings.Contains(out, "✓ database "+db+": healthy (every page read, bbolt's check passed; 1 live game)") || errs != "" {
		t.Fatalf("good: exit %d\n%s%s", code, out, errs)
	}
	s, err := bolt.Open(db, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := doctor()
	s.Close()
	if code != 1 || !strings.Contains(out, "✗ database "+db+" is open in another process (a bot running?) → stop it") || errs != "bot doctor: 1 check failed\n" {
		t.Fatalf("held: exit %d\n%s%s", code, out, errs)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Fatal("doctor changed the database")
	}
}
