package main

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
	"go.yaml.in/yaml/v3"
)

// config is every setting of the bot; config.example.yaml documents each.
type config struct {
	// Lang is the bot's default language: en, es, de or tl (a catalogue
	// of chat/locales).
	Lang    string `yaml:"lang"`
	Storage struct {
		Path        string   `yaml:"path"`
		OpenTimeout duration `yaml:"open_timeout"`
		// CommitWatchdog is how long one commit may run before the bot
		// logs it, with the stack of the stuck goroutine, and reports it
		// stuck (sessions.Watchdog).
		CommitWatchdog duration `yaml:"commit_watchdog"`
		// Etcd, with endpoints, keeps everything in etcd instead of
		// the bbolt file, shared by every bot process on it.
		Etcd struct {
			// Endpoints: host:port of the members, comma-separated.
			Endpoints   string   `yaml:"endpoints"`
			Prefix      string   `yaml:"prefix"`
			Username    string   `yaml:"username"`
			Password    string   `yaml:"password"`
			CAFile      string   `yaml:"ca_file"`
			CertFile    string   `yaml:"cert_file"`
			KeyFile     string   `yaml:"key_file"`
			DialTimeout duration `yaml:"dial_timeout"`
		} `yaml:"etcd"`
	} `yaml:"storage"`
	Log struct {
		Level  string `yaml:"level"`
		Format string `yaml:"format"`
	} `yaml:"log"`
	Metrics struct {
		// Listen is the address of /metrics, /healthz and /readyz
		// ("127.0.0.1:9077"); empty serves none and counts nothing.
		Listen string `yaml:"listen"`
		// Token lets a request with it as a bearer token read the
		// endpoints on a shared listener (metrics.listen is
		// web.listen) from any address; without it, loopback and
		// private addresses only.
		Token string `yaml:"token"`
	} `yaml:"metrics"`
	Console struct {
		As       string `yaml:"as"`
		Channel  string `yaml:"channel"`
		Pictures string `yaml:"pictures"`
	} `yaml:"console"`
	Render struct {
		// Theme of the board pictures: light or dark.
		Theme string `yaml:"theme"`
	} `yaml:"render"`
	Discord struct {
		Token      string `yaml:"token"`
		GuildID    string `yaml:"guild_id"`
		ShardID    int    `yaml:"shard_id"`
		ShardCount int    `yaml:"shard_count"`
	} `yaml:"discord"`
	Telegram struct {
		Token       string `yaml:"token"`
		APIEndpoint string `yaml:"api_endpoint"`
		GroupLimit  int    `yaml:"group_limit"`
		GlobalLimit int    `yaml:"global_limit"`
		Webhook     struct {
			URL         string `yaml:"url"`
			Listen      string `yaml:"listen"`
			SecretToken string `yaml:"secret_token"`
			CertFile    string `yaml:"cert_file"`
			KeyFile     string `yaml:"key_file"`
		} `yaml:"webhook"`
		// AppName is the short name of the bot's Mini App (BotFather's
		// /newapp): /web in groups links it.
		AppName string `yaml:"app_name"`
	} `yaml:"telegram"`
	// Web is the web board: off when Listen is empty.
	Web struct {
		Listen string `yaml:"listen"`
		// URL is the public base URL of the board's links; empty:
		// http://<listen>.
		URL      string `yaml:"url"`
		CertFile string `yaml:"cert_file"`
		KeyFile  string `yaml:"key_file"`
		// Secret seals the links (32 random bytes at least: openssl
		// rand -base64 32); empty: one made on first start and kept in
		// the store (shared by every process on etcd).
		Secret string `yaml:"secret"`
		// PreviousSecret, after a rotation, still opens the links it
		// sealed until PreviousSecretUntil (a date or RFC 3339 time).
		PreviousSecret      string `yaml:"previous_secret"`
		PreviousSecretUntil string `yaml:"previous_secret_until"`
		// How long links work: play links, watch links.
		PlayLinks  duration `yaml:"play_links"`
		WatchLinks duration `yaml:"watch_links"`
		// InitMaxAge is how old a Telegram Mini App's signed launch data
		// may be.
		InitMaxAge duration `yaml:"init_max_age"`
		// The caps on live streams: per client address, per game.
		StreamsPerAddress int `yaml:"streams_per_address"`
		StreamsPerGame    int `yaml:"streams_per_game"`
		// TrustedProxies are the proxies in front of the board whose
		// X-Forwarded-For is believed: addresses and networks, with
		// commas between them.
		TrustedProxies string `yaml:"trusted_proxies"`
		// The requests of watchers (no player's link) per client address:
		// a second, and at once.
		RequestRate  int `yaml:"request_rate"`
		RequestBurst int `yaml:"request_burst"`
	} `yaml:"web"`
	Clocks struct {
		// The time per move of a /play without time=, per platform.
		Console  duration `yaml:"console"`
		Telegram duration `yaml:"telegram"`
		Discord  duration `yaml:"discord"`
		// ChallengeExpiry is how long a challenge waits for its answer.
		ChallengeExpiry duration `yaml:"challenge_expiry"`
		// Tick is how often the clocks are looked at.
		Tick duration `yaml:"tick"`
	} `yaml:"clocks"`
	Computer struct {
		AutoLevel int      `yaml:"auto_level"`
		MaxTime   duration `yaml:"max_time"`
		TableMB   int      `yaml:"table_mb"`
		Searches  int      `yaml:"searches"`
	} `yaml:"computer"`
	Sessions struct {
		// Resident is how many sessions stay in memory at most (the
		// others load from the database when used).
		Resident int `yaml:"resident"`
	} `yaml:"sessions"`
	// Limits are the per-user rate limits of commands (chat.Rate) and
	// caps (sessions.Caps); 0 turns one off.
	Limits struct {
		PerChat         int      `yaml:"per_chat"`
		PerChatWindow   duration `yaml:"per_chat_window"`
		Overall         int      `yaml:"overall"`
		OverallWindow   duration `yaml:"overall_window"`
		OpenChallenges  int      `yaml:"open_challenges"`
		ComputerGames   int      `yaml:"computer_games"`
		OpenTournaments int      `yaml:"open_tournaments"`
	} `yaml:"limits"`
	// Review is the engine's review of finished games (/review).
	Review struct {
		// Budget is the positions searched at most for each ply.
		Budget int `yaml:"budget"`
		// Auto reviews every rated game when it ends.
		Auto bool `yaml:"auto"`
	} `yaml:"review"`
}

// rate is the per-user rate limit of the configuration.
func (c config) rate() chat.Rate {
	l := c.Limits
	return chat.Rate{PerChat: l.PerChat, PerChatWindow: time.Duration(l.PerChatWindow), Overall: l.Overall, OverallWindow: time.Duration(l.OverallWindow)}
}

// caps are the per-user caps of the configuration.
func (c config) caps() sessions.Caps {
	l := c.Limits
	return sessions.Caps{Challenges: l.OpenChallenges, ComputerGames: l.ComputerGames, Tournaments: l.OpenTournaments}
}

// defaultTime is the time per move of a /play without time= on a platform.
func (c config) defaultTime(platform string) sessions.Duration {
	switch platform {
	case "telegram":
		return sessions.Duration(c.Clocks.Telegram)
	case "discord":
		return sessions.Duration(c.Clocks.Discord)
	case "console":
		return sessions.Duration(c.Clocks.Console)
	}
	return 0
}

// duration is a time span in YAML: "500ms", "5s", "1h", "3d".
type duration time.Duration

func (d *duration) set(s string) error {
	v, err := sessions.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = duration(v)
	return nil
}

// UnmarshalYAML reads a duration and names the line of a bad one; the
// error is a *yaml.TypeError, so the decoder goes on to the next setting
// and reports every bad one.
func (d *duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: a duration is a single value like 5s or 1h", n.Line)}}
	}
	if err := d.set(n.Value); err != nil {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %v", n.Line, err)}}
	}
	return nil
}

func defaultConfig() config {
	var c config
	c.Storage.Path = "./data/bot.db"
	c.Storage.OpenTimeout = duration(2 * time.Second)
	c.Storage.CommitWatchdog = duration(sessions.DefaultCommitWatchdog)
	c.Storage.Etcd.Prefix = "/boardgamebot/"
	c.Storage.Etcd.DialTimeout = duration(5 * time.Second)
	c.Log.Level = "info"
	c.Log.Format = "text"
	c.Console.As = "you"
	c.Console.Channel = "terminal"
	c.Console.Pictures = "./data/pictures"
	c.Render.Theme = "light"
	c.Lang = chat.DefaultLang
	c.Telegram.GroupLimit = 20
	c.Web.PlayLinks = duration(24 * time.Hour)
	c.Web.WatchLinks = duration(30 * 24 * time.Hour)
	c.Web.InitMaxAge = duration(time.Hour)
	c.Web.StreamsPerAddress = 20
	c.Web.StreamsPerGame = 2000
	c.Web.RequestRate = 10
	c.Web.RequestBurst = 100
	c.Telegram.GlobalLimit = 30
	c.Clocks.Console = 0
	c.Clocks.Telegram = duration(24 * time.Hour)
	c.Clocks.Discord = duration(10 * time.Minute)
	c.Clocks.ChallengeExpiry = duration(24 * time.Hour)
	c.Clocks.Tick = duration(5 * time.Second)
	c.Computer.AutoLevel = 3
	c.Computer.MaxTime = duration(time.Second)
	c.Computer.TableMB = 16
	c.Computer.Searches = 2
	c.Sessions.Resident = sessions.DefaultResident
	r, caps := chat.DefaultRate(), sessions.DefaultCaps()
	c.Limits.PerChat, c.Limits.PerChatWindow = r.PerChat, duration(r.PerChatWindow)
	c.Limits.Overall, c.Limits.OverallWindow = r.Overall, duration(r.OverallWindow)
	c.Limits.OpenChallenges, c.Limits.ComputerGames, c.Limits.OpenTournaments = caps.Challenges, caps.ComputerGames, caps.Tournaments
	c.Review.Budget = ai.DefaultReviewNodes
	return c
}

// setting is one leaf of config with its environment variable: BOT_ and
// the setting's YAML path joined by _, upper-cased (storage.etcd.dial_timeout
// is BOT_STORAGE_ETCD_DIAL_TIMEOUT).
type setting struct {
	env   string
	key   string // the YAML path, dotted: storage.etcd.dial_timeout
	index []int  // the field in config (reflect.Value.FieldByIndex)
}

// set parses v as the setting's type and stores it in c.
func (s setting) set(c *config, v string) error {
	switch p := reflect.ValueOf(c).Elem().FieldByIndex(s.index).Addr().Interface().(type) {
	case *string:
		*p = v
	case *int:
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", v)
		}
		*p = n
	case *duration:
		return p.set(v)
	case *bool:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("%q is not true or false", v)
		}
		*p = b
	}
	return nil
}

// settings lists every setting's environment override, in the order config
// declares them.
var settings = leafSettings(reflect.TypeOf(config{}), nil, nil)

// leafSettings lists the settings under the struct type t, found at the
// YAML path keys and the field index index.
func leafSettings(t reflect.Type, keys []string, index []int) []setting {
	var out []setting
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if tag == "" {
			panic(fmt.Sprintf("config: %s has no yaml tag to name its setting and variable", f.Name))
		}
		k, x := append(slices.Clone(keys), tag), append(slices.Clone(index), i)
		switch f.Type {
		case reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[duration](), reflect.TypeFor[bool]():
			out = append(out, setting{env: "BOT_" + strings.ToUpper(strings.Join(k, "_")), key: strings.Join(k, "."), index: x})
		default:
			if f.Type.Kind() != reflect.Struct {
				panic(fmt.Sprintf("config: %s is a %s, which no environment variable can set", strings.Join(k, "."), f.Type))
			}
			out = append(out, leafSettings(f.Type, k, x)...)
		}
	}
	return out
}

var (
	yamlUnknown = regexp.MustCompile(`^line (\d+): field (.+) not found in type .*$`)
	yamlLine    = regexp.MustCompile(`^line (\d+): (.*)$`)
	yamlType    = regexp.MustCompile("^line (\\d+): cannot unmarshal !!(\\w+)(?: `(.*)`)? into (.+)$")
)

// yamlMessage turns one line of the YAML decoder's errors into words for
// people: an unknown setting with the settings of its section, a value of
// the wrong kind with the setting's name. Go's type names never show.
func yamlMessage(line string, root *yaml.Node) string {
	if m := yamlUnknown.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[1])
		section := keyAt(root, n, m[2])
		names := settingNames(section)
		known := strings.Join(names, ", ")
		mean := ""
		if c := closest(m[2], names); c != "" {
			mean = fmt.Sprintf(": did you mean %q?", c)
		}
		if len(section) == 0 {
			return fmt.Sprintf("line %d: unknown section %q%s (the sections: %s)", n, m[2], mean, known)
		}
		return fmt.Sprintf("line %d: unknown setting %q in %s%s (its settings: %s)", n, m[2], strings.Join(section, "."), mean, known)
	}
	if m := yamlType.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[1])
		want := "a single value"
		switch {
		case m[4] == "int":
			want = "a whole number"
		case m[4] == "string":
			want = "text"
		case strings.HasPrefix(m[4], "struct") || m[4] == "main.config":
			want = "a section of settings (name: value lines)"
		}
		got := map[string]string{"seq": "a list", "map": "a section"}[m[2]]
		kind := map[string]yaml.Kind{"seq": yaml.SequenceNode, "map": yaml.MappingNode}[m[2]]
		if kind == 0 {
			kind = yaml.ScalarNode
		}
		path, value := valueAt(root, n, kind, m[3])
		if got == "" {
			got = strconv.Quote(value)
		}
		if path == "" {
			return fmt.Sprintf("line %d: the file should hold sections of settings (name: value lines), not %s", n, got)
		}
		return fmt.Sprintf("line %d: %s should be %s, not %s", n, path, want, got)
	}
	if m := yamlLine.FindStringSubmatch(line); m != nil {
		// a bad value that a setting's own UnmarshalYAML refused
		n, _ := strconv.Atoi(m[1])
		if path, _ := valueAt(root, n, 0, ""); path != "" {
			return fmt.Sprintf("line %d: %s: %s", n, path, m[2])
		}
	}
	return line
}

// keyAt returns the section path of the mapping key named key on line n of
// the document root; nil for a key at the top.
func keyAt(root *yaml.Node, n int, key string) []string {
	var found []string
	walkYAML(root, nil, func(path []string, k, v *yaml.Node) {
		if found == nil && k.Line == n && k.Value == key {
			found = append([]string{}, path...)
		}
	})
	return found
}

// valueAt returns the dotted name and the text of the deepest value of
// the given kind (0: any) that starts on line n of the document root (""
// for the document itself); text is the value as the decoder quotes it
// (cut to "1234567..." when long), or "" for any.
func valueAt(root *yaml.Node, n int, kind yaml.Kind, text string) (string, string) {
	name, value := "", ""
	cut, long := strings.CutSuffix(text, "...")
	walkYAML(root, nil, func(path []string, k, v *yaml.Node) {
		if v.Line == n && (kind == 0 || v.Kind == kind) && (text == "" || v.Value == text || long && strings.HasPrefix(v.Value, cut)) {
			name, value = strings.Join(append(append([]string{}, path...), k.Value), "."), v.Value
		}
	})
	return name, value
}

// walkYAML calls f for every key and value of the mappings under n, with
// the path of keys that leads to them.
func walkYAML(n *yaml.Node, path []string, f func(path []string, k, v *yaml.Node)) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			walkYAML(c, path, f)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			f(path, k, v)
			walkYAML(v, append(path, k.Value), f)
		}
	}
}

// settingNames lists the settings of a section of config (the sections,
// for none), in the order config declares them.
func settingNames(section []string) []string {
	t := reflect.TypeOf(config{})
	for _, name := range section {
		next := reflect.Type(nil)
		for i := range t.NumField() {
			if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); tag == name && t.Field(i).Type.Kind() == reflect.Struct {
				next = t.Field(i).Type
			}
		}
		if next == nil {
			return nil
		}
		t = next
	}
	var out []string
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		out = append(out, tag)
	}
	return out
}

// loadConfig reads the defaults, then the YAML file (when path is not
// empty), then the environment (getenv). The error (a *configError)
// names every bad setting, each with its file and line or its variable.
func loadConfig(path string, getenv func(string) string) (config, error) {
	c, probs := readSettings(path, getenv, nil)
	return c, probs.err()
}

// readConfigFile decodes the YAML file at path over c; its problems name
// each line and setting in words; root is the document (nil when the file
// cannot be read), to find the line of a setting.
func readConfigFile(path string, c *config) (problems, *yaml.Node) {
	where := "config " + path
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return problems{{where: where, what: "no such file (config.example.yaml shows every setting)"}}, nil
	}
	if err != nil {
		return problems{{where: where, what: err.Error()}}, nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		return problems{{where: where, what: strings.TrimPrefix(err.Error(), "yaml: ")}}, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var out problems
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
		for _, l := range strings.Split(msg, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, problem{where: where, what: yamlMessage(l, &root)})
			}
		}
	}
	return out, &root
}

// checkConfig checks the values of every setting, and completes those
// made from others (lang's catalogue name, render.theme in lower case,
// web.url); its problems name the setting, not the source.
func checkConfig(c *config) problems {
	var out problems
	bad := func(key, format string, args ...any) {
		out = append(out, problem{key: key, what: fmt.Sprintf(format, args...)})
	}
	switch strings.ToLower(c.Log.Level) {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", "log.level %q is not one of debug, info, warn, error", c.Log.Level)
	}
	switch strings.ToLower(c.Log.Format) {
	case "text", "json":
	default:
		bad("log.format", "log.format %q is not text or json", c.Log.Format)
	}
	if l := c.Metrics.Listen; l != "" {
		if _, port, err := net.SplitHostPort(l); err != nil || port == "" {
			bad("metrics.listen", "metrics.listen %q is not an address to listen on (host:port or :port, like %s)", l, metricsExample)
		}
	}
	if c.Storage.Path == "" {
		bad("storage.path", "storage.path is empty")
	}
	if c.Storage.CommitWatchdog < duration(time.Second) {
		bad("storage.commit_watchdog", "storage.commit_watchdog %s is too short (at least 1s: how long one commit may run before the bot reports it stuck)", time.Duration(c.Storage.CommitWatchdog))
	}
	if err := checkEtcd(*c); err != nil {
		bad(keyOf(err.Error(), "storage.etcd"), "%v", err)
	}
	if w, _ := chat.NewCatalogues(""); !w.Has(cmp.Or(c.Lang, chat.DefaultLang)) {
		bad("lang", "lang %q has no catalogue (the languages: %s)", c.Lang, strings.Join(w.Langs(), ", "))
	} else {
		c.Lang = cmp.Or(c.Lang, chat.DefaultLang)
	}
	switch strings.ToLower(c.Render.Theme) {
	case "light", "dark":
		c.Render.Theme = strings.ToLower(c.Render.Theme)
	default:
		bad("render.theme", "render.theme %q is not light or dark", c.Render.Theme)
	}
	if c.Discord.ShardCount > 1 && (c.Discord.ShardID < 0 || c.Discord.ShardID >= c.Discord.ShardCount) {
		bad("discord.shard_id", "discord.shard_id %d is not between 0 and shard_count-1 (%d)", c.Discord.ShardID, c.Discord.ShardCount-1)
	}
	if w := c.Telegram.Webhook; w.URL != "" && w.Listen == "" {
		bad("telegram.webhook.url", "telegram.webhook.url is set but telegram.webhook.listen is empty (e.g. :8443)")
	}
	if err := checkWeb(c); err != nil {
		bad(keyOf(err.Error(), "web"), "%v", err)
	}
	if err := checkWebLimits(c); err != nil {
		bad(keyOf(err.Error(), "web"), "%v", err)
	}
	if c.Computer.AutoLevel < 1 || c.Computer.AutoLevel > 5 {
		bad("computer.auto_level", "computer.auto_level %d is not a level from 1 to 5", c.Computer.AutoLevel)
	}
	if c.Computer.MaxTime <= 0 {
		bad("computer.max_time", "computer.max_time must be above 0")
	}
	if c.Computer.TableMB < 1 || c.Computer.TableMB > 4096 {
		bad("computer.table_mb", "computer.table_mb %d is not from 1 to 4096", c.Computer.TableMB)
	}
	if c.Computer.Searches < 1 || c.Computer.Searches > 64 {
		bad("computer.searches", "computer.searches %d is not from 1 to 64", c.Computer.Searches)
	}
	l := c.Limits
	for _, n := range []struct {
		key string
		n   int
	}{{"per_chat", l.PerChat}, {"overall", l.Overall}, {"open_challenges", l.OpenChallenges}, {"computer_games", l.ComputerGames}, {"open_tournaments", l.OpenTournaments}} {
		if n.n < 0 {
			bad("limits."+n.key, "limits.%s %d is below 0 (a count; 0 turns it off)", n.key, n.n)
		}
	}
	if c.Review.Budget < 1000 {
		bad("review.budget", "review.budget %d is too small: at least 1000 positions per ply (%d by default)", c.Review.Budget, ai.DefaultReviewNodes)
	}
	if c.Sessions.Resident < 1 {
		bad("sessions.resident", "sessions.resident %d should be at least 1 (the most sessions kept in memory)", c.Sessions.Resident)
	}
	for _, clock := range []struct {
		name string
		d    duration
	}{{"console", c.Clocks.Console}, {"telegram", c.Clocks.Telegram}, {"discord", c.Clocks.Discord}} {
		if d := sessions.Duration(clock.d); !sessions.IsMoveTime(d) {
			var choices []string
			for _, t := range sessions.MoveTimes() {
				choices = append(choices, t.String())
			}
			bad("clocks."+clock.name, "clocks.%s %s is not a time per move /play offers (%s)", clock.name, d, strings.Join(choices, ", "))
		}
	}
	if c.Clocks.Tick < duration(100*time.Millisecond) {
		bad("clocks.tick", "clocks.tick %s is too short (at least 100ms)", time.Duration(c.Clocks.Tick))
	}
	return out
}

// etcdEndpoints returns storage.etcd.endpoints as a list (none: bbolt).
func (c config) etcdEndpoints() []string {
	var out []string
	for _, e := range strings.Split(c.Storage.Etcd.Endpoints, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// storeKind names the store the configuration chooses: etcd or bbolt.
func (c config) storeKind() string {
	if len(c.etcdEndpoints()) > 0 {
		return "etcd"
	}
	return "bbolt"
}

// checkEtcd checks the etcd settings when endpoints are set.
func checkEtcd(c config) error {
	e := c.Storage.Etcd
	eps := c.etcdEndpoints()
	if len(eps) == 0 {
		if strings.TrimSpace(e.Endpoints) != "" {
			return fmt.Errorf("storage.etcd.endpoints %q names no endpoint (host:port, comma-separated)", e.Endpoints)
		}
		return nil
	}
	for _, ep := range eps {
		hp := ep
		if scheme, rest, ok := strings.Cut(ep, "://"); ok {
			if scheme != "http" && scheme != "https" {
				return fmt.Errorf("storage.etcd.endpoints: %q is not host:port (or http:// or https://host:port)", ep)
			}
			hp = rest
		}
		if _, port, err := net.SplitHostPort(hp); err != nil || port == "" {
			return fmt.Errorf("storage.etcd.endpoints: %q is not host:port (or http:// or https://host:port)", ep)
		}
	}
	if !strings.HasPrefix(e.Prefix, "/") || !strings.HasSuffix(e.Prefix, "/") {
		return fmt.Errorf("storage.etcd.prefix %q should start and end with / (like /boardgamebot/)", e.Prefix)
	}
	if e.Password != "" && e.Username == "" {
		return fmt.Errorf("storage.etcd.password is set but storage.etcd.username is empty")
	}
	if (e.CertFile == "") != (e.KeyFile == "") {
		return fmt.Errorf("storage.etcd.cert_file and storage.etcd.key_file go together (the client's certificate and its key)")
	}
	if e.DialTimeout <= 0 {
		return fmt.Errorf("storage.etcd.dial_timeout should be above 0")
	}
	return nil
}

// configFlags starts the flags of a subcommand that reads the
// configuration: its --config flag (the YAML file; empty means defaults and
// environment only). Parse the flags, then loadConfig(*path, os.Getenv).
func configFlags(name string) (*flag.FlagSet, *string) {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	return fl, fl.String("config", "", "YAML configuration `file` (see config.example.yaml)")
}

// checkWeb checks the web board's settings, and makes web.url from
// web.listen when it is empty.
func checkWeb(c *config) error {
	w := &c.Web
	if w.Listen == "" {
		if w.URL != "" {
			return fmt.Errorf("web.url is set but web.listen is empty (the address the board is served on, e.g. :8080)")
		}
		return nil
	}
	host, port, err := net.SplitHostPort(w.Listen)
	if err != nil || port == "" {
		return fmt.Errorf("web.listen %q is not host:port (e.g. :8080 or 127.0.0.1:8080)", w.Listen)
	}
	if (w.CertFile == "") != (w.KeyFile == "") {
		return fmt.Errorf("web.cert_file and web.key_file go together (serve HTTPS here, or leave both empty behind a TLS proxy)")
	}
	if w.URL == "" {
		scheme := "http"
		if w.CertFile != "" {
			scheme = "https"
		}
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = "localhost"
		}
		w.URL = scheme + "://" + net.JoinHostPort(host, port)
	}
	if u, err := url.Parse(w.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("web.url %q is not an http(s) URL (the public address of the board, e.g. https://board.example.org)", w.URL)
	}
	w.URL = strings.TrimRight(w.URL, "/")
	if err := checkSecrets(w.Secret, w.PreviousSecret, w.PreviousSecretUntil); err != nil {
		return err
	}
	if w.PlayLinks <= 0 || w.WatchLinks <= 0 || w.InitMaxAge <= 0 {
		return fmt.Errorf("web.play_links, web.watch_links and web.init_max_age must be above 0")
	}
	return nil
}
