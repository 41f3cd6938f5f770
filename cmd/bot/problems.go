package main

import (
	"fmt"
	"net"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// metricsExample is the address the docs and messages give for
// metrics.listen: this machine only, on a port that no well-known
// exporter or Prometheus itself uses by default.
const metricsExample = "127.0.0.1:9077"

// problem is one bad setting: where it was set, what is wrong with it and,
// when there is more to say than "change it there", what to do.
type problem struct {
	// key is the setting (storage.path) or section (storage.etcd) that is
	// bad; "" for a name that is no setting, or the file itself.
	key string
	// where is the source: "config FILE" (what then starts with the
	// line), "environment BOT_NAME", or "environment" for a variable that
	// is no setting.
	where string
	what  string
	fix   string
}

// String is the problem on one line: where, what, and → what to do.
func (p problem) String() string {
	s := p.where + ": " + p.what
	if p.fix != "" {
		s += " → " + p.fix
	}
	return s
}

// problems are every bad setting of a configuration, in the order found:
// the file's, the environment's, then the values'.
type problems []problem

// err is nil for none, else a *configError.
func (ps problems) err() error {
	if len(ps) == 0 {
		return nil
	}
	return &configError{ps}
}

// touches reports whether a problem concerns a setting of section (a
// dotted prefix: "storage", "telegram").
func (ps problems) touches(section string) bool {
	return slices.ContainsFunc(ps, func(p problem) bool {
		return p.key == section || strings.HasPrefix(p.key, section+".")
	})
}

// configError is a configuration that cannot be used: every one of its
// problems, one per line.
type configError struct{ problems problems }

func (e *configError) Error() string {
	if len(e.problems) == 1 {
		return e.problems[0].String()
	}
	lines := []string{fmt.Sprintf("%d problems in the configuration (config.example.yaml shows every setting with its variable):", len(e.problems))}
	for _, p := range e.problems {
		lines = append(lines, "  "+p.String())
	}
	return strings.Join(lines, "\n")
}

// notSettings are the BOT_ variables that the project's own tests read
// (.ci/run sets BOT_REQUIRE_BROWSER for every test): no setting, and no
// mistake either.
var notSettings = []string{"BOT_REQUIRE_BROWSER", "BOT_INTERRUPT_CHILD", "BOT_MIGRATE_GAMES"}

// readSettings reads the defaults, then the YAML file (when path is not
// empty), then the environment (getenv), and checks every value; it goes
// on past each problem to report them all. environ, when not nil, is the
// whole environment (os.Environ): a BOT_ variable in it that is no
// setting is a problem, with the closest variable that is.
func readSettings(path string, getenv func(string) string, environ []string) (config, problems) {
	c := defaultConfig()
	var out problems
	var root *yaml.Node
	if path != "" {
		var ps problems
		ps, root = readConfigFile(path, &c)
		out = append(out, ps...)
	}
	set := map[string]string{} // setting's key → its variable, when the environment sets it
	for _, s := range settings {
		v := getenv(s.env)
		if v == "" {
			continue
		}
		if err := s.set(&c, v); err != nil {
			out = append(out, problem{key: s.key, where: "environment " + s.env, what: err.Error()})
			continue
		}
		set[s.key] = s.env
	}
	out = append(out, unknownVariables(environ)...)
	for _, p := range checkConfig(&c) {
		p.where, p.what = source(p.key, path, root, set, p.what)
		out = append(out, p)
	}
	return c, out
}

// unknownVariables are the BOT_ variables of environ that are no setting.
func unknownVariables(environ []string) problems {
	var envs []string
	for _, s := range settings {
		envs = append(envs, s.env)
	}
	var out problems
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "BOT_") || slices.Contains(envs, name) || slices.Contains(notSettings, name) {
			continue
		}
		fix := "remove it (config.example.yaml names each setting's variable)"
		if m := closest(name, envs); m != "" {
			fix = fmt.Sprintf("did you mean %s?", m)
		}
		out = append(out, problem{where: "environment", what: fmt.Sprintf("%s is not a setting", clipArg(name)), fix: fix})
	}
	return out
}

// source says where the setting key got its bad value: its variable when
// the environment set it, else the file and the line that sets it (what
// then starts with the line), else the file (a default, or a value
// checked with another).
func source(key, path string, root *yaml.Node, set map[string]string, what string) (string, string) {
	if env, ok := set[key]; ok {
		return "environment " + env, what
	}
	where := "config"
	if path != "" {
		where += " " + path
	}
	if root != nil {
		if n := lineOf(root, strings.Split(key, ".")); n > 0 {
			return where, fmt.Sprintf("line %d: %s", n, what)
		}
	}
	return where, what
}

// lineOf is the line of the key at path in the document root; 0 when the
// document does not set it.
func lineOf(root *yaml.Node, path []string) int {
	line := 0
	walkYAML(root, nil, func(p []string, k, v *yaml.Node) {
		if line == 0 && len(p) == len(path)-1 && slices.Equal(p, path[:len(p)]) && k.Value == path[len(p)] {
			line = k.Line
		}
	})
	return line
}

// keyOf is the setting that a check's message starts with (storage.etcd.prefix
// in "storage.etcd.prefix "bot" should ..."), else section.
func keyOf(msg, section string) string {
	first, _, _ := strings.Cut(msg, " ")
	first = strings.TrimRight(first, ",:")
	if slices.ContainsFunc(settings, func(s setting) bool { return s.key == first }) {
		return first
	}
	return section
}

// everyInterface reports whether the address listen (host:port) listens
// on every interface of the machine: no host, 0.0.0.0 or ::.
func everyInterface(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if host == "" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// loadEnvConfig is loadConfig on the process's environment, which it also
// holds to the settings' variables: a BOT_ variable that is no setting is
// a problem (a misspelt token must not start the bot without it).
func loadEnvConfig(path string) (config, error) {
	c, ps := readSettings(path, os.Getenv, os.Environ())
	return c, ps.err()
}
