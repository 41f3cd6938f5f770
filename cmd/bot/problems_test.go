package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/sessions/sessionstest"
)

// TestConfigEveryProblem: a file and an environment with many faults
// report every one, each with its line or its variable, in the order
// found (the file's, the environment's, then the values'), and a
// language without a catalogue lists the languages there are.
func TestConfigEveryProblem(t *testing.T) {
	path := writeConfig(t, "storage:\n  open_timout: 1s\n  commit_watchdog: soon\nlog:\n  level: loud\nlang: fr\ncomputer:\n  searches: 0\n")
	env := map[string]string{"BOT_SESSIONS_RESIDENT": "many", "BOT_RENDER_THEME": "pink"}
	_, err := loadConfig(path, func(k string) string { return env[k] })
	want := []string{
		"7 problems in the configuration (config.example.yaml shows every setting with its variable):",
		`  config FILE: line 2: unknown setting "open_timout" in storage: did you mean "open_timeout"? (its settings: path, open_timeout, commit_watchdog, etcd)`,
		`  config FILE: line 3: storage.commit_watchdog: "soon" is not a duration (examples: 5m, 1h, 3d, off)`,
		`  environment BOT_SESSIONS_RESIDENT: "many" is not a whole number`,
		`  config FILE: line 5: log.level "loud" is not one of debug, info, warn, error`,
		`  config FILE: line 6: lang "fr" has no catalogue (the languages: de, en, es, tl)`,
		`  environment BOT_RENDER_THEME: render.theme "pink" is not light or dark`,
		`  config FILE: line 8: computer.searches 0 is not from 1 to 64`,
	}
	if got, w := errText(err), strings.ReplaceAll(strings.Join(want, "\n"), "FILE", path); got != w {
		t.Fatalf("got\n%s\nwant\n%s", got, w)
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestDoctorEveryProblem: bot doctor on a set-up with three faults (a
// misspelt key in the file, a misspelt variable, a bad value) names all
// three, each with what to do, and still checks the database; a bad
// storage setting leaves the database unchecked, saying why.
func TestDoctorEveryProblem(t *testing.T) {
	db := playedDB(t)
	path := writeConfig(t, "telegram:\n  tokn: x\nlang: fr\n")
	env := map[string]string{"BOT_STORAGE_PATH": db, "BOT_DISCORD_TOKNE": "x"}
	out, err := runDoctor(t, path, env)
	for _, want := range []string{
		"✗ config " + path + `: line 2: unknown setting "tokn" in telegram: did you mean "token"? (its settings: token, `,
		"✗ environment: BOT_DISCORD_TOKNE is not a setting → did you mean BOT_DISCORD_TOKEN?\n",
		"✗ config " + path + `: line 3: lang "fr" has no catalogue (the languages: de, en, es, tl) → fix it in the file`,
		"✓ database " + db + ": healthy",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if errText(err) != "3 checks failed" {
		t.Errorf("doctor: %v, want 3 checks failed\n%s", err, out)
	}

	env["BOT_STORAGE_OPEN_TIMEOUT"] = "never"
	out, err = runDoctor(t, "", env)
	for _, want := range []string{
		`✗ environment BOT_STORAGE_OPEN_TIMEOUT: "never" is not a duration (examples: 5m, 1h, 3d, off) → change BOT_STORAGE_OPEN_TIMEOUT, or unset it`,
		"– database: not checked until the storage settings above are fixed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "database "+db) || errText(err) != "2 checks failed" {
		t.Errorf("doctor with a bad storage setting: %v\n%s", err, out)
	}
}

// TestDoctorMetricsAddress: metrics on every interface is a warning
// (/metrics is then public), not a failure; on this machine it passes.
func TestDoctorMetricsAddress(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	for _, tc := range []struct{ listen, want string }{
		{":9077", "! metrics: metrics.listen :9077 listens on every interface: /metrics, /healthz and /readyz are public → listen on this machine (like 127.0.0.1:9077)"},
		{"0.0.0.0:9077", "! metrics: metrics.listen 0.0.0.0:9077 listens on every interface"},
		{"[::]:9077", "! metrics: metrics.listen [::]:9077 listens on every interface"},
		{"127.0.0.1:9077", "✓ metrics: /metrics, /healthz and /readyz served on 127.0.0.1:9077"},
		{"[::1]:9077", "✓ metrics: /metrics, /healthz and /readyz served on [::1]:9077"},
	} {
		out, err := runDoctor(t, "", map[string]string{"BOT_STORAGE_PATH": db, "BOT_METRICS_LISTEN": tc.listen})
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("metrics.listen %s: %v, want %q in:\n%s", tc.listen, err, tc.want, out)
		}
	}
}

// runDoctor runs the doctor's checks on the file path and the environment
// env (no platform token: no network).
func runDoctor(t *testing.T, path string, env map[string]string) (string, error) {
	t.Helper()
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	var out bytes.Buffer
	d := &doctor{out: &out, getenv: func(k string) string { return env[k] }, environ: environ}
	err := d.run(context.Background(), path)
	return out.String(), err
}

// TestRunRefusesUnknownVariable: bot run with a misspelt BOT_ variable
// exits 1 naming the variable meant, and starts nothing (no console, no
// database); every bad value is named with it, and a language without a
// catalogue lists the languages there are.
func TestRunRefusesUnknownVariable(t *testing.T) {
	for _, env := range os.Environ() {
		if name, _, _ := strings.Cut(env, "="); strings.HasPrefix(name, "BOT_") {
			t.Setenv(name, "") // the test's environment is not the case's
			os.Unsetenv(name)
		}
	}
	db := filepath.Join(t.TempDir(), "bot.db")
	t.Setenv("BOT_STORAGE_PATH", db)
	t.Setenv("BOT_TELEGRAM_TOKNE", "42:secret")
	var stdout, stderr bytes.Buffer
	code := runMain(context.Background(), []string{"run"}, &stdout, &stderr)
	if want := "bot run: environment: BOT_TELEGRAM_TOKNE is not a setting → did you mean BOT_TELEGRAM_TOKEN?\n"; code != 1 || stderr.String() != want || stdout.Len() != 0 {
		t.Fatalf("exit %d\nstdout %q\nstderr %q\nwant   %q", code, stdout.String(), stderr.String(), want)
	}

	t.Setenv("BOT_LANG", "fr")
	t.Setenv("BOT_LOG_LEVEL", "loud")
	stderr.Reset()
	code = runMain(context.Background(), []string{"run"}, &stdout, &stderr)
	want := "bot run: 3 problems in the configuration (config.example.yaml shows every setting with its variable):\n" +
		"  environment: BOT_TELEGRAM_TOKNE is not a setting → did you mean BOT_TELEGRAM_TOKEN?\n" +
		"  environment BOT_LOG_LEVEL: log.level \"loud\" is not one of debug, info, warn, error\n" +
		"  environment BOT_LANG: lang \"fr\" has no catalogue (the languages: de, en, es, tl)\n"
	if code != 1 || stderr.String() != want {
		t.Fatalf("exit %d\ngot  %q\nwant %q", code, stderr.String(), want)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("the refused run made the database: %v", err)
	}
}

// TestMetricsPortTaken: a metrics.listen whose port another program holds
// (as Prometheus holds 9090) stops the start with what to do.
func TestMetricsPortTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c := defaultConfig()
	c.Metrics.Listen = ln.Addr().String()
	_, err = newOperations(c, sessionstest.NewMemoryStore(), "bbolt")
	if want := "(another program has that port, as Prometheus has 9090: choose a port of the bot's own, like 127.0.0.1:9077)"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("%v, want an error ending %q", err, want)
	}
}
