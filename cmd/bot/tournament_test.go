package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestConsoleTournamentAcrossRestarts runs a Swiss of four players and two
// rounds through the bot's console on its bbolt file, stopping the bot
// between every step: sign-up, the start and each round's results survive
// the restarts, and the next round is paired from what was stored.
func TestConsoleTournamentAcrossRestarts(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bot.db")
	run := func(in string) string {
		t.Helper()
		var out, log bytes.Buffer
		if err := runConsole(context.Background(), consoleConfig(t, db), strings.NewReader(in), &out, &log, false); err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		return out.String()
	}
	run("/tournament new spanish rounds=2\n/tournament join\n/as bob\n/tournament join\n")
	run("/as carol\n/tournament join\n/as dave\n/tournament join\n")
	out := run("/tournament start\n")
	place := regexp.MustCompile(`/go (t1-r(\d)-(\w+)-(\w+))\)?\.`)
	for round := 1; round <= 2; round++ {
		var games [][]string
		for _, m := range place.FindAllStringSubmatch(out, -1) {
			if m[2] == string(rune('0'+round)) && !containsGame(games, m[1]) {
				games = append(games, m)
			}
		}
		if len(games) != 2 {
			t.Fatalf("round %d: %d games paired:\n%s", round, len(games), out)
		}
		// White resigns on board 1, Black on board 2, each in a bot of its own.
		run("/as " + games[0][3] + "\n/go " + games[0][1] + "\n/resign\n")
		out = run("/as " + games[1][4] + "\n/go " + games[1][1] + "\n/resign\n")
		if round == 1 && !strings.Contains(out, "round 2") {
			t.Fatalf("no round 2 after the last game of round 1:\n%s", out)
		}
	}
	if !strings.Contains(out, "Final standings of tournament #1") || !strings.Contains(out, "wins the tournament, scoring 2 of 2.") {
		t.Fatalf("no final standings after the last game:\n%s", out)
	}
	out = run("/tournament show 1\n")
	for _, want := range []string{"#1", "#2", "#3", "#4"} {
		if !strings.Contains(out, want) {
			t.Fatalf("/tournament show 1 lacks game %s:\n%s", want, out)
		}
	}
	if strings.Count(run("/history\n/as bob\n/history\n/as carol\n/history\n/as dave\n/history\n"), "spanish:") != 8 {
		t.Fatalf("every player's history should hold their two games")
	}
}

func containsGame(games [][]string, place string) bool {
	for _, g := range games {
		if g[1] == place {
			return true
		}
	}
	return false
}
