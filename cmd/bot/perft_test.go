package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
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
