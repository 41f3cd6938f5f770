package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules"
)

// moveList collects repeated --play flags.
type moveList []string

func (m *moveList) String() string { return strings.Join(*m, " ") }

func (m *moveList) Set(s string) error {
	*m = append(*m, s)
	return nil
}

// cmdRender draws a position as a PNG:
//
//	bot render --game ID [--opt k=v ...] [--fen FEN] [--play MOVE ...]
//	  [--theme light|dark] [--size PX] [--viewer SEAT] [--numbers] --out FILE.png
//
// --play plays moves from the position first; the last one is marked.
func cmdRender(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	var pf positionFlags
	pf.register(fs)
	var plays moveList
	fs.Var(&plays, "play", "a move to play from the position before drawing (repeatable; the last is marked)")
	theme := fs.String("theme", "light", "colours: light or dark")
	size := fs.Int("size", 0, "picture width and height in pixels (default 512, 800 for 16x16)")
	viewer := fs.Int("viewer", -1, "seat at the bottom, from 0 (default: the seat to move)")
	numbers := fs.Bool("numbers", false, "draw the draughts square numbers")
	out := fs.String("out", "", "the PNG file to write")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("--out FILE.png is required")
	}
	st, err := pf.state()
	if err != nil {
		return err
	}
	var last *rules.Move
	for _, text := range plays {
		next, m, err := st.Play(text)
		if err != nil {
			return fmt.Errorf("%v (legal moves: %s)", err, someMoves(st, 8))
		}
		st, last = next, &m
	}
	seats := len(st.Game().Seats())
	if *viewer < -1 || *viewer >= seats {
		return fmt.Errorf("--viewer %d is not a seat (0 to %d, or -1 for the seat to move)", *viewer, seats-1)
	}
	data, err := render.New().PNG(st.View(), last, *viewer, render.Options{
		Theme: render.Theme(strings.ToLower(*theme)), Size: *size, Numbers: *numbers,
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", *out, len(data))
	return nil
}

// someMoves lists up to n of the legal moves of st, for error messages.
func someMoves(st rules.State, n int) string {
	moves := st.Moves()
	if len(moves) == 0 {
		return "none"
	}
	var texts []string
	for i, m := range moves {
		if i == n {
			texts = append(texts, fmt.Sprintf("... %d in all", len(moves)))
			break
		}
		texts = append(texts, m.Text)
	}
	return strings.Join(texts, ", ")
}
