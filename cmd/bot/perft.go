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

// positionFlags are the flags perft, moves and render share: which game,
// with which options, from which position.
type positionFlags struct {
	game  string
	opts  optList
	fen   string
	setup string
}

func (pf *positionFlags) register(fs *flag.FlagSet) {
	pf.opts = optList{}
	fs.StringVar(&pf.game, "game", "", "game id (see /games)")
	fs.Var(pf.opts, "opt", "game option key=value (repeatable)")
	fs.StringVar(&pf.fen, "fen", "", "start position in the game's FEN (default: the initial position)")
	fs.StringVar(&pf.setup, "setup", "", `for a game that starts with formations (ultradamas): each seat's squares, `+
		`seats in order separated by "|", such as "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2|default"; `+
		`a seat left out or empty takes "default"`)
}

// state builds the game and its position: the --fen position, or the
// start with the --setup formations. Without --setup a game with a
// formation phase is still in it (render draws it so); perft and moves
// then call started.
func (pf *positionFlags) state() (rules.State, error) {
	if pf.game == "" {
		return nil, errors.New("--game is required")
	}
	g, err := games.New(pf.game, pf.opts)
	if err != nil {
		return nil, err
	}
	start := g.Start(0)
	_, forms := start.(rules.Former)
	switch {
	case pf.setup != "" && pf.fen != "":
		return nil, errors.New("--setup and --fen cannot be used together")
	case pf.setup != "" && !forms:
		return nil, fmt.Errorf("game %s has no formations: --setup is for games that start with one", g.ID())
	case pf.setup != "":
		return formAll(start, strings.Split(pf.setup, "|"))
	case pf.fen == "":
		return start, nil
	}
	st, err := g.Load(pf.fen)
	if err != nil && forms {
		return nil, fmt.Errorf("%w (a formation goes in --setup)", err)
	}
	return st, err
}

// started is state with every formation still pending set to "default",
// so that perft and moves count from the position the game starts in.
func (pf *positionFlags) started() (rules.State, error) {
	st, err := pf.state()
	if err != nil {
		return nil, err
	}
	return formAll(st, nil)
}

// formAll confirms the formation of every pending seat of st: seat i
// takes forms[i], or "default" when forms has no text for it. A state
// without a formation phase is returned as it is.
func formAll(st rules.State, forms []string) (rules.State, error) {
	seats := st.Game().Seats()
	if len(forms) > len(seats) {
		return nil, fmt.Errorf("--setup has %d formations; %s has %d seats", len(forms), st.Game().ID(), len(seats))
	}
	for range seats {
		f, ok := st.(rules.Former)
		if !ok || len(f.Pending()) == 0 {
			break
		}
		seat := f.Pending()[0]
		text := "default"
		if seat < len(forms) && strings.TrimSpace(forms[seat]) != "" {
			text = forms[seat]
		}
		next, err := f.Form(seat, text)
		if err != nil {
			return nil, fmt.Errorf("--setup: %s: %w", seats[seat], err)
		}
		st = next
	}
	return st, nil
}

// parseFlagsOnly parses flags and refuses arguments after them.
func parseFlagsOnly(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// startNote says where perft and moves start in a game with formations.
const startNote = "A game that starts with formations (ultradamas) is counted from the default\n" +
	"formations unless --setup or --fen gives another start.\n"

// cmdPerft prints "depth nodes" for every depth from 1 to --depth. A game
// with a formation phase is counted from its default formations, or from
// those --setup gives.
func cmdPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	var pf positionFlags
	pf.register(fs)
	depth := fs.Int("depth", 0, "deepest depth to count (1 or more)")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if *depth < 1 {
		return errors.New("--depth must be 1 or more")
	}
	st, err := pf.started()
	if err != nil {
		return err
	}
	p, ok := st.(rules.Perfter)
	if !ok {
		return fmt.Errorf("game %s cannot count perft", st.Game().ID())
	}
	if c, ok := p.(perftCounter); ok {
		// One traversal counts every depth.
		counts, err := c.PerftCounts(ctx, *depth)
		if err != nil {
			return err
		}
		for d, n := range counts[1:] {
			fmt.Fprintf(stdout, "%d %d\n", d+1, n)
		}
		return nil
	}
	for d := 1; d <= *depth; d++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d %d\n", d, p.Perft(d))
	}
	return nil
}

// perftCounter is a state that counts every depth's perft in one traversal.
type perftCounter interface {
	PerftCounts(ctx context.Context, depth int) ([]uint64, error)
}

// cmdMoves prints the legal moves, sorted, one a line. A game with a
// formation phase lists the first moves after its default formations, or
// after those --setup gives.
func cmdMoves(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("moves", flag.ContinueOnError)
	var pf positionFlags
	pf.register(fs)
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	st, err := pf.started()
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
