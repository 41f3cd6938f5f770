package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func noEnv(string) string { return "" }

// TestConfigErrors checks whole messages: each names the file (FILE
// below) and the line, or the environment variable, and the setting, in
// words (no Go type ever shows), on one line; two problems are two lines.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		env        map[string]string
		want       string
	}{
		{"malformed", "storage:\n  path: x\n   bad: y\n", nil, "config FILE: line 3: mapping values are not allowed in this context"},
		{"tab", "storage:\n\tpath: x\n", nil, "config FILE: line 2: found character that cannot start any token"},
		{"not a map", "- a\n- b\n", nil, "config FILE: line 1: the file should hold sections of settings (name: value lines), not a list"},
		{"unknown key", "storage:\n  path: x.db\n  paht: y.db\n", nil,
			`config FILE: line 3: unknown setting "paht" in storage: did you mean "path"? (its settings: path, open_timeout, commit_watchdog, etcd)`},
		{"unknown nested key", "telegram:\n  webhook:\n    urll: x\n", nil,
			`config FILE: line 3: unknown setting "urll" in telegram.webhook: did you mean "url"? (its settings: url, listen, secret_token, cert_file, key_file)`},
		{"unknown section", "log:\n  level: info\ndiscrod:\n  token: x\n", nil,
			`config FILE: line 3: unknown section "discrod": did you mean "discord"? (the sections: lang, storage, log, metrics, console, render, discord, telegram, web, clocks, computer, sessions, limits, review)`},
		{"unknown key, nothing near", "storage:\n  database: x.db\n", nil,
			`config FILE: line 2: unknown setting "database" in storage (its settings: path, open_timeout, commit_watchdog, etcd)`},
		{"two unknown keys", "storage:\n  paht: 1\n  pth: 2\n", nil,
			"2 problems in the configuration (config.example.yaml shows every setting with its variable):\n" +
				`  config FILE: line 2: unknown setting "paht" in storage: did you mean "path"? (its settings: path, open_timeout, commit_watchdog, etcd)` + "\n" +
				`  config FILE: line 3: unknown setting "pth" in storage: did you mean "path"? (its settings: path, open_timeout, commit_watchdog, etcd)`},
		{"text for a number", "discord:\n  shard_id: abcdefghijklmnop\n", nil, `config FILE: line 2: discord.shard_id should be a whole number, not "abcdefghijklmnop"`},
		{"two on one line", "discord: {shard_id: x, shard_count: y}\n", nil,
			"2 problems in the configuration (config.example.yaml shows every setting with its variable):\n" +
				`  config FILE: line 1: discord.shard_id should be a whole number, not "x"` + "\n" +
				`  config FILE: line 1: discord.shard_count should be a whole number, not "y"`},
		{"list for text", "storage:\n  path: [a]\n", nil, "config FILE: line 2: storage.path should be text, not a list"},
		{"section for text", "storage:\n  path: {a: 1}\n", nil, "config FILE: line 2: storage.path should be text, not a section"},
		{"value for a section", "storage: x\n", nil, `config FILE: line 1: storage should be a section of settings (name: value lines), not "x"`},
		{"bad duration", "storage:\n  open_timeout: soon\n", nil, `config FILE: line 2: storage.open_timeout: "soon" is not a duration (examples: 5m, 1h, 3d, off)`},
		{"duration as a list", "storage:\n  open_timeout: [1s]\n", nil, "config FILE: line 2: storage.open_timeout: a duration is a single value like 5s or 1h"},
		{"short commit watchdog", "storage:\n  commit_watchdog: 10ms\n", nil,
			"config FILE: line 2: storage.commit_watchdog 10ms is too short (at least 1s: how long one commit may run before the bot reports it stuck)"},
		{"commit watchdog off", "", map[string]string{"BOT_STORAGE_COMMIT_WATCHDOG": "off"},
			"environment BOT_STORAGE_COMMIT_WATCHDOG: storage.commit_watchdog 0s is too short (at least 1s: how long one commit may run before the bot reports it stuck)"},
		{"bad level", "log:\n  level: loud\n", nil, `config FILE: line 2: log.level "loud" is not one of debug, info, warn, error`},
		{"bad format", "log:\n  format: xml\n", nil, `config FILE: line 2: log.format "xml" is not text or json`},
		{"bad metrics address", "metrics:\n  listen: 9090\n", nil, `config FILE: line 2: metrics.listen "9090" is not an address to listen on (host:port or :port, like 127.0.0.1:9077)`},
		{"empty path", "storage:\n  path: \"\"\n", nil, "config FILE: line 2: storage.path is empty"},
		{"bad env duration", "", map[string]string{"BOT_STORAGE_OPEN_TIMEOUT": "forever"}, `environment BOT_STORAGE_OPEN_TIMEOUT: "forever" is not a duration (examples: 5m, 1h, 3d, off)`},
		{"bad clock", "clocks:\n  telegram: daily\n", nil, `config FILE: line 2: clocks.telegram: "daily" is not a duration (examples: 5m, 1h, 3d, off)`},
		{"clock not offered", "clocks:\n  discord: 1s\n", nil, "config FILE: line 2: clocks.discord 1s is not a time per move /play offers (5m, 10m, 1h, 1d, 3d, off)"},
		{"env clock not offered", "", map[string]string{"BOT_CLOCKS_TELEGRAM": "2d"}, "environment BOT_CLOCKS_TELEGRAM: clocks.telegram 2d is not a time per move /play offers (5m, 10m, 1h, 1d, 3d, off)"},
		{"bad auto level", "computer:\n  auto_level: 9\n", nil, "config FILE: line 2: computer.auto_level 9 is not a level from 1 to 5"},
		{"bad searches", "computer:\n  searches: 0\n", nil, "config FILE: line 2: computer.searches 0 is not from 1 to 64"},
		{"bad tick", "clocks:\n  tick: 1ms\n", nil, "config FILE: line 2: clocks.tick 1ms is too short (at least 100ms)"},
		{"negative limit", "limits:\n  computer_games: -1\n", nil, "config FILE: line 2: limits.computer_games -1 is below 0 (a count; 0 turns it off)"},
		{"no resident sessions", "sessions:\n  resident: 0\n", nil, "config FILE: line 2: sessions.resident 0 should be at least 1 (the most sessions kept in memory)"},
		{"bad env resident", "", map[string]string{"BOT_SESSIONS_RESIDENT": "many"}, `environment BOT_SESSIONS_RESIDENT: "many" is not a whole number`},
		{"bad env number", "", map[string]string{"BOT_COMPUTER_TABLE_MB": "lots"}, `environment BOT_COMPUTER_TABLE_MB: "lots" is not a whole number`},
		{"etcd endpoint without port", "", map[string]string{"BOT_STORAGE_ETCD_ENDPOINTS": "10.0.0.1:2379, etcd2"},
			`environment BOT_STORAGE_ETCD_ENDPOINTS: storage.etcd.endpoints: "etcd2" is not host:port (or http:// or https://host:port)`},
		{"etcd endpoint scheme", "storage:\n  etcd:\n    endpoints: unix://x:1\n", nil,
			`config FILE: line 3: storage.etcd.endpoints: "unix://x:1" is not host:port (or http:// or https://host:port)`},
		{"etcd no endpoint", "storage:\n  etcd:\n    endpoints: ' , '\n", nil,
			`config FILE: line 3: storage.etcd.endpoints " , " names no endpoint (host:port, comma-separated)`},
		{"etcd bad prefix", "storage:\n  etcd:\n    endpoints: 127.0.0.1:2379\n    prefix: bot\n", nil,
			`config FILE: line 4: storage.etcd.prefix "bot" should start and end with / (like /boardgamebot/)`},
		{"etcd password alone", "", map[string]string{"BOT_STORAGE_ETCD_ENDPOINTS": "127.0.0.1:2379", "BOT_STORAGE_ETCD_PASSWORD": "p"},
			"environment BOT_STORAGE_ETCD_PASSWORD: storage.etcd.password is set but storage.etcd.username is empty"},
		{"etcd cert without key", "storage:\n  etcd:\n    endpoints: https://e:2379\n    cert_file: c.pem\n", nil,
			"config FILE: line 4: storage.etcd.cert_file and storage.etcd.key_file go together (the client's certificate and its key)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.text)
			_, err := loadConfig(path, func(k string) string { return tc.env[k] })
			want := strings.ReplaceAll(tc.want, "FILE", path)
			if err == nil || err.Error() != want {
				t.Fatalf("got  %v\nwant %s", err, want)
			}
		})
	}
}

func TestConfigMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.yaml")
	_, err := loadConfig(path, noEnv)
	if err == nil || err.Error() != "config "+path+": no such file (config.example.yaml shows every setting)" {
		t.Fatalf("got %v", err)
	}
}

// TestConfigLang: lang (BOT_LANG) is the default language; one without a
// catalogue is refused in one line.
func TestConfigLang(t *testing.T) {
	if c, err := loadConfig("", noEnv); err != nil || c.Lang != "en" {
		t.Fatalf("default lang: %q %v", c.Lang, err)
	}
	env := func(k string) string {
		if k == "BOT_LANG" {
			return "xx"
		}
		return ""
	}
	if _, err := loadConfig("", env); err == nil || !strings.Contains(err.Error(), `lang "xx" has no catalogue`) {
		t.Fatalf("BOT_LANG=xx: %v, want a refusal", err)
	}
}

func TestConfigDefaultsFileAndEnv(t *testing.T) {
	c, err := loadConfig("", noEnv)
	if err != nil || c.Storage.Path != "./data/bot.db" || c.Console.As != "you" || c.Storage.OpenTimeout != duration(2*time.Second) ||
		c.Sessions.Resident != 10000 {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	// An empty file is the defaults.
	if c, err := loadConfig(writeConfig(t, ""), noEnv); err != nil || c.Storage.Path != "./data/bot.db" {
		t.Fatalf("empty file: %+v %v", c, err)
	}
	path := writeConfig(t, "storage:\n  path: /srv/bot.db\n  open_timeout: 1d\nconsole:\n  as: carol\ntelegram:\n  token: file-token\n")
	c, err = loadConfig(path, noEnv)
	if err != nil || c.Storage.Path != "/srv/bot.db" || c.Console.As != "carol" || c.Telegram.Token != "file-token" ||
		c.Storage.OpenTimeout != duration(24*time.Hour) {
		t.Fatalf("file: %+v %v", c, err)
	}
	env := map[string]string{}
	for _, s := range settings {
		env[s.env] = "x"
	}
	env["BOT_STORAGE_OPEN_TIMEOUT"] = "3s"
	env["BOT_STORAGE_COMMIT_WATCHDOG"] = "1m"
	env["BOT_LOG_LEVEL"] = "debug"
	env["BOT_LOG_FORMAT"] = "json"
	for _, k := range []string{"CHALLENGE_EXPIRY", "TICK"} {
		env["BOT_CLOCKS_"+k] = "2h"
	}
	for _, k := range []string{"CONSOLE", "TELEGRAM", "DISCORD"} {
		env["BOT_CLOCKS_"+k] = "3d" // a time per move /play offers
	}
	for _, k := range []string{"AUTO_LEVEL", "TABLE_MB", "SEARCHES"} {
		env["BOT_COMPUTER_"+k] = "4"
	}
	env["BOT_COMPUTER_MAX_TIME"] = "3s"
	env["BOT_RENDER_THEME"] = "dark"
	env["BOT_LANG"] = "en"
	env["BOT_DISCORD_SHARD_ID"], env["BOT_DISCORD_SHARD_COUNT"] = "1", "2"
	env["BOT_TELEGRAM_GROUP_LIMIT"] = "7"
	env["BOT_TELEGRAM_GLOBAL_LIMIT"] = "12"
	env["BOT_SESSIONS_RESIDENT"] = "500"
	env["BOT_REVIEW_BUDGET"], env["BOT_REVIEW_AUTO"] = "50000", "true"
	for _, k := range []string{"PER_CHAT", "OVERALL", "OPEN_CHALLENGES", "COMPUTER_GAMES", "OPEN_TOURNAMENTS"} {
		env["BOT_LIMITS_"+k] = "5"
	}
	env["BOT_LIMITS_PER_CHAT_WINDOW"], env["BOT_LIMITS_OVERALL_WINDOW"] = "2h", "off"
	env["BOT_STORAGE_ETCD_ENDPOINTS"] = "10.0.0.1:2379, https://etcd2:2379"
	env["BOT_STORAGE_ETCD_PREFIX"] = "/x/"
	env["BOT_STORAGE_ETCD_DIAL_TIMEOUT"] = "4s"
	env["BOT_METRICS_LISTEN"] = "127.0.0.1:9090"
	env["BOT_WEB_LISTEN"], env["BOT_WEB_URL"], env["BOT_WEB_SECRET"] = "127.0.0.1:8080", "https://board.example.org/", "a8ZTV0Pj9Fa58bn4V3gcN4OR8soesb+32hbPNZgRGKU="
	env["BOT_WEB_PLAY_LINKS"], env["BOT_WEB_WATCH_LINKS"], env["BOT_WEB_INIT_MAX_AGE"] = "2h", "3d", "2h"
	env["BOT_WEB_PREVIOUS_SECRET"], env["BOT_WEB_PREVIOUS_SECRET_UNTIL"] = "L9oQOJAkCplz6meRgg6l5cl1Yemy1GQpU4xHEQwqUjE=", "2026-07-01"
	env["BOT_WEB_STREAMS_PER_ADDRESS"], env["BOT_WEB_STREAMS_PER_GAME"], env["BOT_WEB_REQUEST_RATE"], env["BOT_WEB_REQUEST_BURST"] = "6", "7", "8", "9"
	env["BOT_WEB_TRUSTED_PROXIES"] = "10.0.0.1, 10.1.0.0/16"
	c, err = loadConfig(path, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	want := config{}
	want.Storage.Path, want.Storage.OpenTimeout, want.Storage.CommitWatchdog = "x", duration(3*time.Second), duration(time.Minute)
	want.Log.Level, want.Log.Format = "debug", "json"
	want.Metrics.Listen = "127.0.0.1:9090"
	want.Metrics.Token = "x"
	want.Console.As, want.Console.Channel, want.Console.Pictures = "x", "x", "x"
	want.Render.Theme = "dark"
	want.Lang = "en"
	want.Discord.Token, want.Discord.GuildID, want.Discord.ShardID, want.Discord.ShardCount = "x", "x", 1, 2
	want.Telegram.Token, want.Telegram.APIEndpoint, want.Telegram.GroupLimit, want.Telegram.GlobalLimit = "x", "x", 7, 12
	w := &want.Telegram.Webhook
	w.URL, w.Listen, w.SecretToken, w.CertFile, w.KeyFile = "x", "x", "x", "x", "x"
	want.Telegram.AppName = "x"
	wb := &want.Web
	wb.Listen, wb.URL, wb.CertFile, wb.KeyFile, wb.Secret = "127.0.0.1:8080", "https://board.example.org", "x", "x", "a8ZTV0Pj9Fa58bn4V3gcN4OR8soesb+32hbPNZgRGKU="
	wb.PreviousSecret, wb.PreviousSecretUntil = "L9oQOJAkCplz6meRgg6l5cl1Yemy1GQpU4xHEQwqUjE=", "2026-07-01"
	wb.PlayLinks, wb.WatchLinks, wb.InitMaxAge = duration(2*time.Hour), duration(72*time.Hour), duration(2*time.Hour)
	wb.StreamsPerAddress, wb.StreamsPerGame, wb.RequestRate, wb.RequestBurst, wb.TrustedProxies = 6, 7, 8, 9, "10.0.0.1, 10.1.0.0/16"
	h2 := duration(2 * time.Hour)
	d3 := duration(72 * time.Hour)
	want.Clocks.Console, want.Clocks.Telegram, want.Clocks.Discord, want.Clocks.ChallengeExpiry, want.Clocks.Tick = d3, d3, d3, h2, h2
	want.Computer.AutoLevel, want.Computer.TableMB, want.Computer.Searches, want.Computer.MaxTime = 4, 4, 4, duration(3*time.Second)
	want.Sessions.Resident = 500
	want.Review.Budget, want.Review.Auto = 50000, true
	l := &want.Limits
	l.PerChat, l.Overall, l.OpenChallenges, l.ComputerGames, l.OpenTournaments = 5, 5, 5, 5, 5
	l.PerChatWindow, l.OverallWindow = h2, 0
	e := &want.Storage.Etcd
	e.Endpoints, e.Prefix, e.Username, e.Password = "10.0.0.1:2379, https://etcd2:2379", "/x/", "x", "x"
	e.CAFile, e.CertFile, e.KeyFile, e.DialTimeout = "x", "x", "x", duration(4*time.Second)
	if eps := c.etcdEndpoints(); !slices.Equal(eps, []string{"10.0.0.1:2379", "https://etcd2:2379"}) {
		t.Fatalf("etcd endpoints %q", eps)
	}
	if c != want {
		t.Fatalf("every setting from the environment:\ngot  %+v\nwant %+v", c, want)
	}
}

// TestWebConfig: web.url defaults to the address served (https with TLS
// files, localhost for a wildcard address); bad web settings are refused
// with the setting named.
func TestWebConfig(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		url  string
		fail string
	}{
		{map[string]string{"BOT_WEB_LISTEN": "127.0.0.1:8080"}, "http://127.0.0.1:8080", ""},
		{map[string]string{"BOT_WEB_LISTEN": ":8080"}, "http://localhost:8080", ""},
		{map[string]string{"BOT_WEB_LISTEN": ":8443", "BOT_WEB_CERT_FILE": "c", "BOT_WEB_KEY_FILE": "k"}, "https://localhost:8443", ""},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_URL": "https://board.example.org/bot/"}, "https://board.example.org/bot", ""},
		{map[string]string{}, "", ""},
		{map[string]string{"BOT_WEB_URL": "https://board.example.org"}, "", "web.listen is empty"},
		{map[string]string{"BOT_WEB_LISTEN": "8080"}, "", "web.listen \"8080\" is not host:port"},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_URL": "ftp://x"}, "", "web.url \"ftp://x\" is not an http(s) URL"},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_CERT_FILE": "c"}, "", "web.cert_file and web.key_file go together"},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_SECRET": "short"}, "", "web.secret is weak: it must carry at least 32 random bytes; make one with `openssl rand -base64 32`"},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_SECRET": "sixteen chars at least"}, "", "web.secret is weak"},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_SECRET": "a8ZTV0Pj9Fa58bn4V3gcN4OR8soesb+32hbPNZgRGKU="}, "http://localhost:8080", ""},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_SECRET": "a8ZTV0Pj9Fa58bn4V3gcN4OR8soesb+32hbPNZgRGKU=", "BOT_WEB_PREVIOUS_SECRET": "H3yNzX5IJ1TAF2nJK1vvnGLIu1BWPrEn0NtN9vyaEnw="}, "", "web.previous_secret and web.previous_secret_until go together"},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_SECRET": "a8ZTV0Pj9Fa58bn4V3gcN4OR8soesb+32hbPNZgRGKU=", "BOT_WEB_PREVIOUS_SECRET": "H3yNzX5IJ1TAF2nJK1vvnGLIu1BWPrEn0NtN9vyaEnw=", "BOT_WEB_PREVIOUS_SECRET_UNTIL": "soon"}, "", "web.previous_secret_until \"soon\" is not a date"},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_TRUSTED_PROXIES": "10.0.0.1, proxy.example"}, "", `web.trusted_proxies: "proxy.example" is not`},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_STREAMS_PER_ADDRESS": "0"}, "", "web.streams_per_address, web.streams_per_game"},
		{map[string]string{"BOT_WEB_LISTEN": ":8080", "BOT_WEB_PLAY_LINKS": "0"}, "", "must be above 0"},
	} {
		got, err := loadConfig("", func(k string) string { return c.env[k] })
		switch {
		case c.fail == "" && (err != nil || got.Web.URL != c.url):
			t.Errorf("%v: url %q, %v; want %q", c.env, got.Web.URL, err, c.url)
		case c.fail != "" && (err == nil || !strings.Contains(err.Error(), c.fail)):
			t.Errorf("%v: %v, want an error with %q", c.env, err, c.fail)
		}
	}
}

// TestExampleConfig checks that config.example.yaml loads, holds the
// defaults, and names the environment variable of every setting.
func TestExampleConfig(t *testing.T) {
	path := filepath.Join("..", "..", "config.example.yaml")
	c, err := loadConfig(path, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c != defaultConfig() {
		t.Fatalf("config.example.yaml differs from the defaults:\n%+v\n%+v", c, defaultConfig())
	}
	b, _ := os.ReadFile(path)
	for _, s := range settings {
		if !strings.Contains(string(b), s.env) {
			t.Errorf("config.example.yaml does not mention %s", s.env)
		}
	}
}
