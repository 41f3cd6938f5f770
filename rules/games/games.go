// Package games is the registry of the bot's games: a game id and its
// options give a rules.Game. It is the one place that knows every rules
// package; sessions, render and the command line go through it.
package games

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// Option is one option of a game, as /games shows it and /play takes it.
type Option struct {
	Key     string   // "flying"
	Default string   // "yes"
	Values  []string // the allowed values, "yes", "no"
	Help    string   // one line: "kings move any distance"
}

// Info describes a game for /games and /help.
type Info struct {
	ID      string // "spanish"
	Name    string // "Spanish draughts"
	Players []int  // how many can play it: {2}, {2, 4}
	Summary string // one line
	Options []Option
}

type entry struct {
	info Info
	// make builds the game from a complete option map (defaults filled in,
	// every value checked against Option.Values).
	make func(opts map[string]string) (rules.Game, error)
}

func entries() []entry {
	var all []entry
	all = append(all, draughtsEntries()...)
	all = append(all, ultradamasEntries()...)
	all = append(all, halmaEntries()...)
	return all
}

// List returns every game, in the order /games shows them.
func List() []Info {
	var out []Info
	for _, e := range entries() {
		out = append(out, e.info)
	}
	return out
}

// Lookup returns the description of the game with the given id.
func Lookup(id string) (Info, bool) {
	for _, e := range entries() {
		if e.info.ID == strings.ToLower(id) {
			return e.info, true
		}
	}
	return Info{}, false
}

// New returns the game id with the given options; missing options take
// their defaults. Unknown games, unknown options and bad values are
// rules.ErrBadOption errors that name what is allowed.
func New(id string, opts map[string]string) (rules.Game, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	for _, e := range entries() {
		if e.info.ID != id {
			continue
		}
		full := map[string]string{}
		for _, o := range e.info.Options {
			full[o.Key] = o.Default
		}
		for k, v := range opts {
			k, v = strings.ToLower(k), strings.ToLower(v)
			o, ok := findOption(e.info.Options, k)
			if !ok {
				return nil, rules.Errorc(rules.ErrBadOption, rules.CodeNoOption, []string{"Game", id, "Key", echo(k), "Keys", optionKeys(e.info.Options)}, "%s has no option %q (options: %s)", id, k, optionKeys(e.info.Options))
			}
			if !slices.Contains(o.Values, v) {
				return nil, rules.Errorc(rules.ErrBadOption, rules.CodeBadValue, []string{"Key", k, "Value", echo(v), "Choices", strings.Join(o.Values, ", ")}, "%s=%s is not allowed (choose %s)", k, echo(v), strings.Join(o.Values, ", "))
			}
			full[k] = v
		}
		return e.make(full)
	}
	var ids []string
	for _, e := range entries() {
		ids = append(ids, e.info.ID)
	}
	return nil, rules.Errorc(rules.ErrBadOption, rules.CodeUnknownGame, []string{"Game", echo(id), "Games", strings.Join(ids, ", ")}, "unknown game %q (games: %s)", id, strings.Join(ids, ", "))
}

// echo shows a value a user typed in a one-line message: as typed when it
// is short plain text, quoted (and cut) otherwise.
func echo(v string) string {
	plain := len(v) <= 20
	for _, c := range v {
		if c <= ' ' || c > '~' || c == '"' {
			plain = false
		}
	}
	if plain {
		return v
	}
	if len(v) > 20 {
		v = v[:20] + "..."
	}
	return strconv.Quote(v)
}

func findOption(opts []Option, key string) (Option, bool) {
	for _, o := range opts {
		if o.Key == key {
			return o, true
		}
	}
	return Option{}, false
}

func optionKeys(opts []Option) string {
	if len(opts) == 0 {
		return "none"
	}
	var keys []string
	for _, o := range opts {
		keys = append(keys, o.Key)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}
