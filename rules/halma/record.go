package halma

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// Record writes the game as tags and the move list, one round per line
// (a round starts with the first player's move):
//
//	[Event "Friday"]
//	[Date "2026.11.21"]
//	[Game "halma"]
//	[Size "8"]
//	[Players "2"]
//	[LeaveHome "30"]
//	[First "2"]
//	[Player1 "alice"]
//	[Player2 "bob"]
//	[Result "*"]
//
//	1. h8-g7 a1-b2
//	2. g7-f6 ...
//
// A game loaded from a position also has a [FEN "..."] tag with it. In the
// four-player game a player that left (Retire) has a line of its own,
// "retire 3" for Player 3, where it left; the next round counts only the
// players still in the game. ReadRecord reads it back.
func (s *State) Record(meta rules.Meta) string {
	var b strings.Builder
	tag := func(k, v string) { fmt.Fprintf(&b, "[%s %s]\n", k, strconv.Quote(v)) }
	if meta.Event != "" {
		tag("Event", meta.Event)
	}
	if meta.Date != "" {
		tag("Date", meta.Date)
	}
	opts := s.game.Options()
	tag("Game", "halma")
	tag("Size", opts["size"])
	tag("Players", opts["players"])
	tag("LeaveHome", opts["leavehome"])
	tag("First", strconv.Itoa(s.first+1))
	if s.setup != "" {
		tag("FEN", s.setup)
	}
	for i, name := range meta.Names {
		tag(fmt.Sprintf("Player%d", i+1), name)
	}
	result := meta.Result
	if result == "" {
		result = "*"
	}
	tag("Result", result)
	b.WriteByte('\n')
	steps := s.steps()
	if len(steps) == 0 {
		b.WriteByte('\n')
		return b.String()
	}
	// A round is one move of each player still in the game.
	playing := 0
	start := s.start
	for seat := 0; seat < s.game.v.Players; seat++ {
		if !start.Retired(seat) {
			playing++
		}
	}
	round, inRound := 1, 0
	for _, st := range steps {
		if st.left != 0 {
			if inRound > 0 {
				b.WriteByte('\n')
				round, inRound = round+1, 0
			}
			fmt.Fprintf(&b, "retire %d\n", st.left)
			playing--
			continue
		}
		if inRound == 0 {
			fmt.Fprintf(&b, "%d.", round)
		}
		b.WriteByte(' ')
		b.WriteString(st.last.String())
		if inRound++; inRound >= playing {
			b.WriteByte('\n')
			round, inRound = round+1, 0
		}
	}
	if inRound > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// ReadRecord reads a game written by Record: the game from its tags, its
// moves and retirements ("retire N") replayed (each checked), and the tags
// that Meta holds. Missing option tags take their defaults; move numbers
// ("12.") and result tokens (1-0, 0-1, 1/2-1/2, *) in the move list are
// skipped.
func ReadRecord(text string) (*State, rules.Meta, error) {
	var meta rules.Meta
	tags := map[string]string{}
	var moves []string // moves, and "retire N"
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			k, v, ok := parseTag(line)
			if !ok {
				return nil, meta, rules.Errorf(rules.ErrSyntax, "halma record line %d: %q is not a tag like [Key \"value\"]", n+1, short(line))
			}
			tags[k] = v
			continue
		}
		toks := strings.Fields(line)
		for i := 0; i < len(toks); i++ {
			tok := toks[i]
			switch {
			case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*":
			case strings.HasSuffix(tok, ".") && isDigits(strings.TrimSuffix(tok, ".")):
			case strings.EqualFold(tok, "retire"):
				if i+1 == len(toks) || !isDigits(toks[i+1]) {
					return nil, meta, rules.Errorf(rules.ErrSyntax, "halma record line %d: retire needs the number of the player that left, like \"retire 3\"", n+1)
				}
				i++
				moves = append(moves, "retire "+toks[i])
			default:
				moves = append(moves, tok)
			}
		}
	}
	if g, ok := tags["Game"]; ok && g != "halma" {
		return nil, meta, rules.Errorf(rules.ErrBadOption, "the record is of game %q, not halma", short(g))
	}
	opts := map[string]string{}
	for k, key := range map[string]string{"Size": "size", "Players": "players", "LeaveHome": "leavehome"} {
		if v, ok := tags[k]; ok {
			opts[key] = strings.ToLower(v)
		}
	}
	game, err := NewFromOptions(opts)
	if err != nil {
		return nil, meta, err
	}
	var s *State
	if fen, ok := tags["FEN"]; ok {
		if s, err = game.LoadState(fen); err != nil {
			return nil, meta, err
		}
	}
	if f, ok := tags["First"]; ok {
		first, ok := number(f)
		if !ok || first < 1 || first > game.v.Players {
			return nil, meta, rules.Errorf(rules.ErrSyntax, "halma record: First %q is not a player 1 to %d", short(f), game.v.Players)
		}
		if s != nil && s.first != first-1 {
			return nil, meta, rules.Errorf(rules.ErrBadPosition, "halma record: First %d does not match the FEN, where player %d moves", first, s.first+1)
		}
		if s == nil {
			s = game.StartState(first - 1)
		}
	}
	if s == nil {
		s = game.StartState(0)
	}
	for _, mv := range moves {
		if n, ok := strings.CutPrefix(mv, "retire "); ok {
			seat, ok := number(n)
			if !ok || seat < 1 || seat > game.v.Players {
				return nil, meta, rules.Errorf(rules.ErrSyntax, "halma record, after move %d: retire %q: not a player 1 to %d", len(s.History()), short(n), game.v.Players)
			}
			next, err := s.RetireSeat(seat - 1)
			if err != nil {
				return nil, meta, rules.Errorf(kindOf(err), "halma record, after move %d: retire %q: %s", len(s.History()), short(n), strings.TrimPrefix(err.Error(), "rules: "))
			}
			s = next
			continue
		}
		next, _, err := s.PlayMove(mv)
		if err != nil {
			return nil, meta, rules.Errorf(kindOf(err), "halma record, move %d: %s", len(s.History())+1, strings.TrimPrefix(err.Error(), "rules: "))
		}
		s = next
	}
	meta.Event, meta.Date, meta.Result = tags["Event"], tags["Date"], tags["Result"]
	for i := 1; i <= game.v.Players; i++ {
		if name, ok := tags[fmt.Sprintf("Player%d", i)]; ok {
			for len(meta.Names) < i-1 {
				meta.Names = append(meta.Names, "")
			}
			meta.Names = append(meta.Names, name)
		}
	}
	return s, meta, nil
}

// kindOf returns the kind of a rules error (rules.ErrSyntax for any other).
func kindOf(err error) error {
	var re *rules.Error
	if errors.As(err, &re) {
		return re.Kind
	}
	return rules.ErrSyntax
}

// parseTag reads [Key "value"].
func parseTag(line string) (key, value string, ok bool) {
	if !strings.HasSuffix(line, "]") {
		return "", "", false
	}
	body := strings.TrimSpace(line[1 : len(line)-1])
	i := strings.IndexByte(body, ' ')
	if i <= 0 {
		return "", "", false
	}
	v, err := strconv.Unquote(strings.TrimSpace(body[i+1:]))
	if err != nil {
		return "", "", false
	}
	return body[:i], v, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
