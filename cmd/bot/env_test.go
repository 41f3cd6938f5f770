package main

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// envNames are the environment variables the bot has always read, in the
// order config declares their settings: the derived table must keep them.
var envNames = []string{
	"BOT_LANG",
	"BOT_STORAGE_PATH", "BOT_STORAGE_OPEN_TIMEOUT", "BOT_STORAGE_COMMIT_WATCHDOG",
	"BOT_STORAGE_ETCD_ENDPOINTS", "BOT_STORAGE_ETCD_PREFIX", "BOT_STORAGE_ETCD_USERNAME", "BOT_STORAGE_ETCD_PASSWORD",
	"BOT_STORAGE_ETCD_CA_FILE", "BOT_STORAGE_ETCD_CERT_FILE", "BOT_STORAGE_ETCD_KEY_FILE", "BOT_STORAGE_ETCD_DIAL_TIMEOUT",
	"BOT_LOG_LEVEL", "BOT_LOG_FORMAT",
	"BOT_METRICS_LISTEN", "BOT_METRICS_TOKEN",
	"BOT_CONSOLE_AS", "BOT_CONSOLE_CHANNEL", "BOT_CONSOLE_PICTURES",
	"BOT_RENDER_THEME",
	"BOT_DISCORD_TOKEN", "BOT_DISCORD_GUILD_ID", "BOT_DISCORD_SHARD_ID", "BOT_DISCORD_SHARD_COUNT",
	"BOT_TELEGRAM_TOKEN", "BOT_TELEGRAM_API_ENDPOINT", "BOT_TELEGRAM_GROUP_LIMIT", "BOT_TELEGRAM_GLOBAL_LIMIT",
	"BOT_TELEGRAM_WEBHOOK_URL", "BOT_TELEGRAM_WEBHOOK_LISTEN", "BOT_TELEGRAM_WEBHOOK_SECRET_TOKEN",
	"BOT_TELEGRAM_WEBHOOK_CERT_FILE", "BOT_TELEGRAM_WEBHOOK_KEY_FILE", "BOT_TELEGRAM_APP_NAME",
	"BOT_WEB_LISTEN", "BOT_WEB_URL", "BOT_WEB_CERT_FILE", "BOT_WEB_KEY_FILE", "BOT_WEB_SECRET", "BOT_WEB_PREVIOUS_SECRET", "BOT_WEB_PREVIOUS_SECRET_UNTIL",
	"BOT_WEB_PLAY_LINKS", "BOT_WEB_WATCH_LINKS", "BOT_WEB_INIT_MAX_AGE",
	"BOT_WEB_STREAMS_PER_ADDRESS", "BOT_WEB_STREAMS_PER_GAME", "BOT_WEB_TRUSTED_PROXIES", "BOT_WEB_REQUEST_RATE", "BOT_WEB_REQUEST_BURST",
	"BOT_CLOCKS_CONSOLE", "BOT_CLOCKS_TELEGRAM", "BOT_CLOCKS_DISCORD", "BOT_CLOCKS_CHALLENGE_EXPIRY", "BOT_CLOCKS_TICK",
	"BOT_COMPUTER_AUTO_LEVEL", "BOT_COMPUTER_MAX_TIME", "BOT_COMPUTER_TABLE_MB", "BOT_COMPUTER_SEARCHES",
	"BOT_SESSIONS_RESIDENT",
	"BOT_LIMITS_PER_CHAT", "BOT_LIMITS_PER_CHAT_WINDOW", "BOT_LIMITS_OVERALL", "BOT_LIMITS_OVERALL_WINDOW",
	"BOT_LIMITS_OPEN_CHALLENGES", "BOT_LIMITS_COMPUTER_GAMES", "BOT_LIMITS_OPEN_TOURNAMENTS",
	"BOT_REVIEW_BUDGET", "BOT_REVIEW_AUTO",
}

// TestEnvNames: the settings' variables are exactly the names of old.
func TestEnvNames(t *testing.T) {
	var got []string
	for _, s := range settings {
		got = append(got, s.env)
	}
	if len(envNames) != 68 || !slices.Equal(got, envNames) {
		t.Fatalf("environment variables:\ngot  %q\nwant %q", got, envNames)
	}
}

// TestEnvExample: every setting of config.example.yaml has its variable.
func TestEnvExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "config.example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	n := 0
	walkYAML(&root, nil, func(path []string, k, v *yaml.Node) {
		if v.Kind == yaml.MappingNode {
			return
		}
		n++
		name := "BOT_" + strings.ToUpper(strings.Join(append(slices.Clone(path), k.Value), "_"))
		if !slices.ContainsFunc(settings, func(s setting) bool { return s.env == name }) {
			t.Errorf("%s in config.example.yaml has no variable %s", strings.Join(append(path, k.Value), "."), name)
		}
	})
	if n != len(settings) {
		t.Errorf("config.example.yaml has %d settings, the environment %d", n, len(settings))
	}
}

// TestEnvReachesYAMLField: a value set through each variable lands in the
// field its YAML key fills, and only there.
func TestEnvReachesYAMLField(t *testing.T) {
	for _, s := range settings {
		t.Run(s.env, func(t *testing.T) {
			var value string
			switch reflect.ValueOf(&config{}).Elem().FieldByIndex(s.index).Interface().(type) {
			case string:
				value = "some text"
			case int:
				value = "4321"
			case duration:
				value = "7s"
			case bool:
				value = "true"
			default:
				t.Fatalf("no test value for the type of %s", s.key)
			}
			fromEnv := defaultConfig()
			if err := s.set(&fromEnv, value); err != nil {
				t.Fatal(err)
			}
			// the YAML key, nested as the file writes it
			keys := strings.Split(s.key, ".")
			doc := ""
			for i, k := range keys {
				doc += strings.Repeat("  ", i) + k + ":"
				if i < len(keys)-1 {
					doc += "\n"
				}
			}
			doc += " " + value + "\n"
			fromYAML := defaultConfig()
			if err := yaml.Unmarshal([]byte(doc), &fromYAML); err != nil {
				t.Fatalf("%s: %v", doc, err)
			}
			if fromYAML == defaultConfig() {
				t.Fatalf("%q changed nothing", doc)
			}
			if fromEnv != fromYAML {
				t.Fatalf("%s=%s and the YAML %q differ:\n%+v\n%+v", s.env, value, doc, fromEnv, fromYAML)
			}
		})
	}
}
