package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/boardgamebot/bot/rules/games"
)

func runTool(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runMain(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestPerftTool(t *testing.T) {
	// Spanish counts from the rules page (DCTL tables); dame with flying
	// kings has the same.
	want := "1 7\n2 49\n3 302\n4 1469\n5 7361\n"
	for _, args := range [][]string{
		{"perft", "--game", "spanish", "--depth", "5"},
		{"perft", "--game", "dame", "--opt", "flying=yes", "--depth", "5"},
		{"perft", "--game=spanish", "--fen", "W:W1-12:B21-32", "--depth=5"},
	} {
		code, out, errs := runTool(args...)
		if code != 0 || out != want {
			t.Errorf("%v: exit %d, output %q, errors %q", args, code, out, errs)
		}
	}
	code, out, _ := runTool("perft", "--game", "dame", "--fen", "W:WKa1:Bd4,g5", "--opt", "flying=no", "--depth", "1")
	if code != 0 || out != "1 1\n" {
		t.Errorf("short king: %d %q", code, out)
	}
}

func TestMovesTool(t *testing.T) {
	code, out, errs := runTool("moves", "--game", "dame", "--fen", "W:Wc3:Bd4,b4,d6,b6")
	if code != 0 || out != "c3xa5xc7\nc3xe5xc7\n" {
		t.Errorf("exit %d, output %q, errors %q", code, out, errs)
	}
	code, out, _ = runTool("moves", "--game", "damas", "--opt", "huff=yes", "--fen", "W:Wa3,c3:Bd4,h8")
	if code != 0 || out != "a3-b4\nc3-b4\nc3xe5\n" {
		t.Errorf("huff: exit %d, output %q", code, out)
	}
	code, out, _ = runTool("moves", "--game", "spanish")
	if code != 0 || len(strings.Split(strings.TrimSpace(out), "\n")) != 7 {
		t.Errorf("spanish start: %d %q", code, out)
	}
}

func TestToolErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"perft", "--game", "chess", "--depth", "1"}, `unknown game "chess"`},
		{[]string{"perft", "--game", "dame", "--opt", "flying=maybe", "--depth", "1"}, "not allowed"},
		{[]string{"perft", "--game", "dame", "--opt", "colour=red", "--depth", "1"}, "no option"},
		{[]string{"perft", "--game", "dame", "--opt", "flying", "--depth", "1"}, "not key=value"},
		{[]string{"perft", "--game", "spanish", "--fen", "W:Wa1:B", "--depth", "1"}, "not a playing square"},
		{[]string{"perft", "--game", "spanish", "--depth", "0"}, "--depth"},
		{[]string{"perft", "--game", "spanish"}, "--depth"},
		{[]string{"perft", "--depth", "2"}, "--game"},
		{[]string{"perft", "--game", "spanish", "--depth", "x"}, "invalid value"},
		{[]string{"moves", "--game", "spanish", "--color", "red"}, "not defined"},
		{[]string{"moves", "--game", "spanish", "extra"}, "unexpected argument"},
		{[]string{"moves", "--game", "spanish", "--fen", "W:W1-13:B"}, "13 pieces"},
	} {
		code, out, errs := runTool(c.args...)
		if code == 0 || out != "" || !strings.Contains(errs, c.msg) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, output %q, errors %q, want %q", c.args, code, out, errs, c.msg)
		}
	}
}

// TestMovesAgreeWithPerft: for every game of the registry, from its start,
// moves lists as many moves as perft counts at depth 1. Ultradamas used to
// list none (its formation phase has no moves) while perft counted 19.
func TestMovesAgreeWithPerft(t *testing.T) {
	for _, info := range games.List() {
		_, moves, errs := runTool("moves", "--game", info.ID)
		_, perft, errs2 := runTool("perft", "--game", info.ID, "--depth", "1")
		n := strings.Count(moves, "\n")
		if n == 0 || perft != fmt.Sprintf("1 %d\n", n) {
			t.Errorf("%s: moves lists %d (%q), perft says %q (%q)", info.ID, n, errs, perft, errs2)
		}
	}
}

// TestPerftHalma: bot perft counts Halma in one traversal, every depth
// equal to rules/halma's TestPerft.
func TestPerftHalma(t *testing.T) {
	if _, out, errs := runTool("perft", "--game", "halma", "--opt", "size=8", "--depth", "3"); out != "1 24\n2 576\n3 20050\n" {
		t.Errorf("perft halma 8x8: %q %q", out, errs)
	}
	if _, out, errs := runTool("perft", "--game", "halma", "--opt", "players=4", "--depth", "3"); out != "1 32\n2 1024\n3 32768\n" {
		t.Errorf("perft halma 16x16 four players: %q %q", out, errs)
	}
}

// TestFormations: a game with a formation phase starts from the default
// formations, or from those --setup gives.
func TestFormations(t *testing.T) {
	// The default formations: 19 moves by hand (rules/ultradamas/perft_test.go),
	// and Black's 19 after each at depth 2.
	if _, out, errs := runTool("perft", "--game", "ultradamas", "--depth", "2"); out != "1 19\n2 361\n" {
		t.Errorf("perft from the default formations: %q %q", out, errs)
	}
	// Red on all of rank 1 and a2-d2:
	//
	//	3 . . . . . . . .    a2 -> a3, b3; b2, c2, d2 -> three each  = 11
	//	2 r r r r . . . .    d1 -> e2; e1 -> e2, f2; f1, g1 -> three
	//	1 r r r r r r r r    each; h1 -> g2, h2; a1, b1, c1 blocked  = 11
	//	  a b c d e f g h                                       total  22
	red := "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2"
	for _, setup := range []string{red, red + "|default", red + "|", red + "|a8 b8 c8 d8 e8 f8 g8 h8 a7 b7 c7 d7"} {
		if _, out, errs := runTool("perft", "--game", "ultradamas", "--setup", setup, "--depth", "1"); out != "1 22\n" {
			t.Errorf("--setup %q: %q %q", setup, out, errs)
		}
	}
	// The same start given as a FEN lists the same moves.
	_, bySetup, _ := runTool("moves", "--game", "ultradamas", "--setup", "|a8 b8 c8 d8 e8 f8 g8 h8 a7 b7 c7 d7")
	_, byFEN, _ := runTool("moves", "--game", "ultradamas", "--fen",
		"R:Ra1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Ba7,b7,c7,d7,a8,b8,c8,d8,e8,f8,g8,h8")
	if bySetup == "" || bySetup != byFEN {
		t.Errorf("Black's formation by --setup lists\n%s\nby --fen\n%s", bySetup, byFEN)
	}
	// render takes --setup too.
	dir := t.TempDir()
	if code, _, errs := runTool("render", "--game", "ultradamas", "--setup", red, "--out", dir+"/f.png"); code != 0 {
		t.Errorf("render --setup: %s", errs)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"moves", "--game", "ultradamas", "--setup", red, "--fen", "R:Ra1:Bh8"}, "cannot be used together"},
		{[]string{"moves", "--game", "spanish", "--setup", red}, "game spanish has no formations"},
		{[]string{"moves", "--game", "ultradamas", "--setup", red + "|default|default"}, "3 formations; ultradamas has 2 seats"},
		{[]string{"moves", "--game", "ultradamas", "--setup", "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 z9"}, `--setup: Red: rules: "z9" is not a square`},
		{[]string{"moves", "--game", "ultradamas", "--setup", "|a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2"}, "--setup: Black: rules: a1 is not on Black's first three ranks"},
		{[]string{"perft", "--game", "ultradamas", "--fen", red, "--depth", "1"}, "(a formation goes in --setup)"},
	} {
		code, out, errs := runTool(c.args...)
		if code == 0 || out != "" || !strings.Contains(errs, c.msg) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, output %q, errors %q, want %q", c.args, code, out, errs, c.msg)
		}
	}
}

// TestToolHelp: -h prints the usage, the flags and where a game with
// formations starts.
func TestToolHelp(t *testing.T) {
	for _, cmd := range []string{"perft", "moves"} {
		code, out, errs := runTool(cmd, "-h")
		if code != 0 || !strings.HasPrefix(out, "usage: bot "+cmd) || !strings.Contains(out, "-setup") || !strings.Contains(out, "default\nformations") {
			t.Errorf("%s -h: exit %d, output %q, errors %q", cmd, code, out, errs)
		}
	}
}

// An interrupted perft prints nothing and fails: the deep count stops.
func TestPerftToolCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := runMain(ctx, []string{"perft", "--game", "spanish", "--depth", "14"}, &out, &errb)
	if code == 0 || out.Len() != 0 || !strings.Contains(errb.String(), "canceled") {
		t.Errorf("exit %d, output %q, errors %q", code, out.String(), errb.String())
	}
}
