package console_test

import (
	"regexp"
	"strings"
	"testing"
)

// TestTournamentJoinTwice replays the report: a second /tournament join,
// a join after leaving the running tournament and a second late join are
// each refused with the reason, in one line, and change nothing.
func TestTournamentJoinTwice(t *testing.T) {
	c := newTourConsole(t)
	out := c.typeLines("/tournament new spanish rounds=2", "/tournament join", "/tournament join",
		"/as bob", "/tournament join", "/as carol", "/tournament join", "/as dave", "/tournament join",
		"/as alice", "/tournament start", "/as dave", "/tournament leave", "/tournament join",
		"/as erin", "/tournament join", "/tournament join", "/tournament standings")
	mustSee(t, "joins", out,
		"alice> /tournament join", "alice joins tournament #1: 1 player (alice).",
		"alice> /tournament join", "You have joined this tournament already: /tournament standings shows it, /tournament leave withdraws.",
		"dave> /tournament leave", "dave withdraws from tournament #1: a game under way is resigned, and each later game is won by the opponent by forfeit.",
		"dave> /tournament join", "You left this tournament while it ran, and a player who leaves cannot come back (their later games are lost by forfeit). /tournament standings shows it.",
		"erin> /tournament join", "erin joins tournament #1 late, with 0 points: paired from round 2 on.",
		"erin> /tournament join", "You have joined this tournament already: /tournament standings shows it, /tournament leave withdraws.")
	if strings.Contains(out, "went wrong") {
		t.Errorf("a command failed:\n%s", out)
	}
	if got := regexp.MustCompile(`(?m)^5 players`).FindString(out); got != "" {
		t.Errorf("a refused join entered someone:\n%s", out)
	}
}

// TestTournamentLateJoinNoRoundLeft: a Swiss takes a late player only
// while a round is left to pair them in: in a one-round Swiss the join is
// refused with the reason; in one of two, taken in round 1 and refused in
// round 2.
func TestTournamentLateJoinNoRoundLeft(t *testing.T) {
	c := newTourConsole(t)
	out := c.typeLines("/tournament new spanish rounds=1", "/as bob", "/tournament join", "/as carol", "/tournament join",
		"/as dave", "/tournament join", "/as alice", "/tournament start", "/as erin", "/tournament join", "/tournament standings")
	mustSee(t, "one round", out, "erin> /tournament join",
		"Tournament #1 plays its last round (1 of 1): no round is left to pair you in, so it takes no more players. /tournament standings shows it.")
	if strings.Contains(out, "paired from round 2 on") || strings.Contains(out, "erin (left)") || regexp.MustCompile(`(?m)^\d+\s+erin`).MatchString(out) {
		t.Errorf("erin entered a one-round Swiss under way:\n%s", out)
	}
}

// TestTournamentStandingsMidRound: while a round is under way, the
// standings are titled by the rounds they count and count exactly those:
// the finished games of the round under way are listed as its results,
// not counted and not listed as being played.
func TestTournamentStandingsMidRound(t *testing.T) {
	c := newTourConsole(t)
	lines := []string{"/tournament new spanish rounds=3"}
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		lines = append(lines, "/as "+p, "/tournament join")
	}
	out := c.typeLines(append(lines, "/as alice", "/tournament start")...)
	round := regexp.MustCompile(`(?m)^Board (\d): (\w+) \(White\) vs (\w+) \(Black\), in /go (t1-r1-[\w-]+)\.$`).FindAllStringSubmatch(out, -1)
	if len(round) != 2 {
		t.Fatalf("round 1's pairings:\n%s", out)
	}
	// Board 1 ends (White resigns); board 2 is under way.
	out = c.typeLines("/go "+round[0][4], "/as "+round[0][2], "/resign", "/go", "/tournament standings", "/tournament show 1")
	standings := out[strings.Index(out, "> /tournament standings"):strings.Index(out, "> /tournament show 1")]
	mustSee(t, "standings in round 1", standings,
		"Standings of tournament #1 (no round finished yet; 3 to play):",
		"Round 1 is being played (1 game to finish):",
		"Board 1: "+round[0][2]+" 0-1 "+round[0][3]+" (game #1).",
		"Board 2: "+round[1][2]+" - "+round[1][3]+", being played in /go "+round[1][4]+".")
	if regexp.MustCompile(`(?m)^\d+\s+\w+\s+1\s`).MatchString(standings) {
		t.Errorf("the standings before any round ended count a point:\n%s", standings)
	}
	if strings.Contains(standings, "Board 1: "+round[0][2]+" (White) vs") {
		t.Errorf("the finished game is listed as being played:\n%s", standings)
	}
	show := out[strings.Index(out, "> /tournament show 1"):]
	mustSee(t, "show in round 1", show, "Round 1:", "Board 1: "+round[0][2]+" 0-1 "+round[0][3]+" (game #1).",
		"Standings of tournament #1 (no round finished yet; 3 to play):")

	// Round 1 over, round 2 under way with one game over: after round 1.
	out = c.typeLines("/go "+round[1][4], "/as "+round[1][2], "/resign", "/go")
	round2 := regexp.MustCompile(`(?m)^Board (\d): (\w+) \(White\) vs (\w+) \(Black\), in /go (t1-r2-[\w-]+)\.$`).FindAllStringSubmatch(out, -1)
	if len(round2) != 2 {
		t.Fatalf("round 2's pairings:\n%s", out)
	}
	out = c.typeLines("/go "+round2[0][4], "/as "+round2[0][3], "/resign", "/go", "/tournament standings")
	standings = out[strings.Index(out, "> /tournament standings"):]
	mustSee(t, "standings in round 2", standings,
		"Standings of tournament #1 after round 1 of 3:",
		"Round 2 is being played (1 game to finish):",
		"Board 1: "+round2[0][2]+" 1-0 "+round2[0][3]+" (game #3).")
	total := 0
	for _, row := range regexp.MustCompile(`(?m)^\d+\s+\w+\s+(\d)`).FindAllStringSubmatch(standings, -1) {
		total += int(row[1][0] - '0')
	}
	if total != 2 {
		t.Errorf("the standings after round 1 count %d points, want the 2 of round 1:\n%s", total, standings)
	}
}

// TestTournamentBadFormat: format=knockout is refused pointing to /help
// tournament, where the formats are.
func TestTournamentBadFormat(t *testing.T) {
	c := newTourConsole(t)
	out := c.typeLines("/tournament new spanish format=knockout", "/tournament new spanish double=maybe format=roundrobin")
	mustSee(t, "format", out, "alice> /tournament new spanish format=knockout",
		"format=knockout is not allowed (choose swiss or roundrobin). /help tournament lists the options.",
		"double=maybe is not allowed (choose yes or no). /help tournament lists the options.")
}
