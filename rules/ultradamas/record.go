package ultradamas

import (
	"fmt"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// DrawPlies is the number of plies without capture or promotion that
// draws the game.
const DrawPlies = 80

// Record is a whole game: where it started (the two formations, or a
// position) and the moves played since.
type Record struct {
	// Formation holds each side's formation squares when the game started
	// from formations; both are zero when it started from a FEN position.
	Formation [2]uint64
	// Start is the position before the first move.
	Start Position
	// Moves are the moves played, in order.
	Moves []Move
}

// NewRecord starts a record from two formations (sets of squares).
func NewRecord(red, black uint64) Record {
	return Record{Formation: [2]uint64{red, black}, Start: FromFormations(red, black)}
}

// Positions returns the position before each move and the final one.
func (r Record) Positions() []Position {
	ps := make([]Position, 0, len(r.Moves)+1)
	p := r.Start
	ps = append(ps, p)
	for _, m := range r.Moves {
		p = p.Apply(m)
		ps = append(ps, p)
	}
	return ps
}

// Outcome reports how the game of the record stands after its last move:
// a side with no piece or no legal move on its turn loses; the third
// occurrence of a position and 80 plies without capture or promotion draw.
func (r Record) Outcome() rules.Outcome {
	ps := r.Positions()
	last := ps[len(ps)-1]
	reps := 0
	for _, q := range ps {
		if q.Key() == last.Key() {
			reps++
		}
	}
	return outcome(last, reps)
}

// outcome judges position p that occurred reps times in the game.
func outcome(p Position, reps int) rules.Outcome {
	winner := int(p.turn ^ 1)
	switch {
	case p.occ[p.turn] == 0:
		return rules.Outcome{Over: true, Winner: winner, Reason: rules.NoPieces}
	case len(p.Moves(nil)) == 0:
		return rules.Outcome{Over: true, Winner: winner, Reason: rules.NoMove}
	case reps >= 3:
		return rules.Outcome{Over: true, Winner: -1, Reason: rules.Repetition}
	case p.ply >= DrawPlies:
		return rules.Outcome{Over: true, Winner: -1, Reason: rules.QuietPlies, N: DrawPlies}
	}
	return rules.Outcome{Winner: -1}
}

// Text writes the record as text: tags (meta, the formations or the start
// position), then the numbered moves in the page's notation and the result.
func (r Record) Text(meta rules.Meta) string {
	var sb strings.Builder
	tag := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&sb, "[%s %q]\n", k, v)
		}
	}
	tag("Game", "Ultradamas")
	tag("Event", meta.Event)
	tag("Date", meta.Date)
	for i, side := range []string{"Red", "Black"} {
		if i < len(meta.Names) {
			tag(side, meta.Names[i])
		}
	}
	result := meta.Result
	if result == "" {
		result = "*"
	}
	tag("Result", result)
	if r.Formation != [2]uint64{} {
		tag("RedFormation", FormatFormation(r.Formation[Red]))
		tag("BlackFormation", FormatFormation(r.Formation[Black]))
	} else {
		tag("FEN", r.Start.FEN())
	}
	sb.WriteByte('\n')
	p := r.Start
	line := 0
	for i, m := range r.Moves {
		var tok string
		if p.turn == Red || i == 0 {
			n := i/2 + 1
			if r.Start.turn == Black {
				n = (i+1)/2 + 1
			}
			if p.turn == Red {
				tok = fmt.Sprintf("%d. ", n)
			} else {
				tok = fmt.Sprintf("%d... ", n)
			}
		}
		tok += p.Text(m)
		if line > 0 && line+len(tok) > 78 {
			sb.WriteByte('\n')
			line = 0
		} else if line > 0 {
			sb.WriteByte(' ')
			line++
		}
		sb.WriteString(tok)
		line += len(tok)
		p = p.Apply(m)
	}
	if line > 0 {
		sb.WriteByte(' ')
	}
	sb.WriteString(result)
	sb.WriteByte('\n')
	return sb.String()
}

// ParseRecord reads a record written by Text: the formations or the FEN
// tag, then the moves, each checked against the legal moves.
func ParseRecord(text string) (Record, rules.Meta, error) {
	var r Record
	var meta rules.Meta
	tags := map[string]string{}
	var body []string
	for _, ln := range strings.Split(text, "\n") {
		ln = strings.TrimSpace(ln)
		if strings.HasPrefix(ln, "[") {
			k, v, err := parseTag(ln)
			if err != nil {
				return r, meta, err
			}
			tags[k] = v
			continue
		}
		body = append(body, ln)
	}
	meta.Event, meta.Date, meta.Result = tags["Event"], tags["Date"], tags["Result"]
	if tags["Red"] != "" || tags["Black"] != "" {
		meta.Names = []string{tags["Red"], tags["Black"]}
	}
	if fen, ok := tags["FEN"]; ok {
		p, err := ParseFEN(fen)
		if err != nil {
			return r, meta, err
		}
		r.Start = p
	} else {
		red, err := ParseFormation(Red, tags["RedFormation"])
		if err != nil {
			return r, meta, err
		}
		black, err := ParseFormation(Black, tags["BlackFormation"])
		if err != nil {
			return r, meta, err
		}
		r = NewRecord(red, black)
	}
	p := r.Start
	for _, tok := range strings.Fields(strings.Join(body, " ")) {
		switch {
		case tok == "*" || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2":
			continue
		case strings.HasSuffix(tok, "."):
			continue
		}
		m, err := p.ParseMove(tok)
		if err != nil {
			return r, meta, fmt.Errorf("move %d: %w", len(r.Moves)+1, err)
		}
		r.Moves = append(r.Moves, m)
		p = p.Apply(m)
	}
	return r, meta, nil
}

func parseTag(ln string) (key, value string, err error) {
	bad := rules.Errorf(rules.ErrSyntax, "%q is not a tag like [Red \"name\"]", clip(ln))
	if !strings.HasSuffix(ln, "]") {
		return "", "", bad
	}
	k, v, ok := strings.Cut(ln[1:len(ln)-1], " ")
	if !ok {
		return "", "", bad
	}
	var s string
	if _, err := fmt.Sscanf(strings.TrimSpace(v), "%q", &s); err != nil {
		return "", "", bad
	}
	return k, s, nil
}
