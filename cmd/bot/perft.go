package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
)

// optList collects repeated --opt key=value flags.
type optList map[string]string

// String is part of flag.Value.
func (o optList) String() string { return "" }

// Set adds one key=value option.
func (o optList) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" || v == "" {
		return fmt.Errorf("option %q is not key=value", s)
	}
	o[strings.ToLower(k)] = v
	return nil
}

// positionFlags are the flags perft and moves share: which game, with
// which options, from which position.
type positionFlags struct {
	game string
	opts optList
	fen  string
}

func (pf *positionFlags) register(fs *flag.FlagSet) {
	pf.opts = optList{}
	fs.StringVar(&pf.game, "game", "", "game id (see /games)")
	fs.Var(pf.opts, "opt", "game option key=value (repeatable)")
	fs.StringVar(&pf.fen, "fen", "", "start position in the game's FEN (default: the initial position)")
}

// state builds the game and its position.
func (pf *positionFlags) state() (rules.State, error) {
	if pf.game == "" {
		return nil, errors.New("--game is required")
	}
	g, err := games.New(pf.game, pf.opts)
	if err != nil {
		return nil, err
	}
	if pf.fen == "" {
		return g.Start(0), nil
	}
	return g.Load(pf.fen)
}

// parseFlags parses args quietly: a bad flag is an error for main to print on one line.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// cmdPerft prints "depth nodes" for every depth from 1 to --depth.
func cmdPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	var pf positionFlags
	pf.register(fs)
	depth := fs.Int("depth", 0, "deepest depth to count (1 or more)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *depth < 1 {
		return errors.New("--depth must be 1 or more")
	}
	st, err := pf.state()
	if err != nil {
		return err
	}
	p, ok := st.(rules.Perfter)
	if !ok {
		return fmt.Errorf("game %s cannot count perft", st.Game().ID())
	}
	for d := 1; d <= *depth; d++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d %d\n", d, p.Perft(d))
	}
	return nil
}

// cmdMoves prints the legal moves, sorted, one a line.
func cmdMoves(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("moves", flag.ContinueOnError)
	var pf positionFlags
	pf.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	st, err := pf.state()
	if err != nil {
		return err
	}
	var texts []string
	for _, m := range st.Moves() {
		texts = append(texts, m.Text)
	}
	sort.Strings(texts)
	for _, t := range texts {
		fmt.Fprintln(stdout, t)
	}
	return nil
}
