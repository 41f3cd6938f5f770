package sessions

import (
	"encoding/json"
	"regexp"
	"strconv"

	"github.com/boardgamebot/bot/rules"
)

// UnmarshalJSON reads a Result. A version 1 record stored the reason as an
// English phrase ("reason": "draw agreed", "White resigned"); it is mapped
// to its code once, here, by oldReasons, so that finished games already
// stored still show right in every language. A phrase not in the table
// (a bad record) reads as no reason.
func (r *Result) UnmarshalJSON(b []byte) error {
	type plain Result
	v := struct {
		plain
		Old string `json:"reason"`
	}{plain: plain{By: -1}}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Result(v.plain)
	if r.Reason == "" && v.Old != "" {
		r.Reason, r.N, r.By = oldReason(v.Old, r.Winner)
	}
	return nil
}

// oldReasons maps the phrases of version 1 records to their codes.
func oldReasons() map[string]rules.Reason {
	return map[string]rules.Reason{
		"no pieces left":                        rules.NoPieces,
		"no legal move":                         rules.NoMove,
		"threefold repetition":                  rules.Repetition,
		"40 moves with kings only":              rules.KingMoves,
		"three kings against one for 13 moves":  rules.ThreeKings,
		"kings only, equal and few":             rules.FewKings,
		"80 plies without capture or promotion": rules.QuietPlies,
		"camp filled":                           rules.CampFilled,
		"the others left":                       rules.OthersLeft,
		"draw agreed":                           rules.DrawAgreed,
		"target reached":                        rules.TargetReached,
	}
}

var (
	oldNumber    = regexp.MustCompile(`\d+`)
	oldLeftHome  = regexp.MustCompile(`^a piece still at home after move (\d+)$`)
	oldResigned  = regexp.MustCompile(`^(.+) resigned$`)
	oldAbandoned = regexp.MustCompile(`^(.+) abandoned \((\d+) moves in a row played by the clock\)$`)
	oldPlayer    = regexp.MustCompile(`^Player (\d+)$`)
)

// oldReason maps the phrase of a version 1 record to its code, number and
// acting seat.
func oldReason(phrase string, winner int) (rules.Reason, int, int) {
	if c, ok := oldReasons()[phrase]; ok {
		n := 0
		if c == rules.KingMoves || c == rules.ThreeKings || c == rules.QuietPlies {
			n, _ = strconv.Atoi(oldNumber.FindString(phrase))
		}
		return c, n, -1
	}
	if m := oldLeftHome.FindStringSubmatch(phrase); m != nil {
		n, _ := strconv.Atoi(m[1])
		return rules.LeftHome, n, -1
	}
	if m := oldAbandoned.FindStringSubmatch(phrase); m != nil {
		n, _ := strconv.Atoi(m[2])
		return rules.Abandoned, n, oldSeat(m[1], winner)
	}
	if m := oldResigned.FindStringSubmatch(phrase); m != nil {
		return rules.Resigned, 0, oldSeat(m[1], winner)
	}
	return "", 0, -1
}

// oldSeat finds the seat a version 1 phrase named: the loser of a game of
// two, or "Player N" of a bigger one.
func oldSeat(name string, winner int) int {
	if m := oldPlayer.FindStringSubmatch(name); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n - 1
	}
	if winner == 0 || winner == 1 {
		return 1 - winner
	}
	return -1
}
