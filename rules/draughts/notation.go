package draughts

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// MoveText is the canonical text of m: every landing in algebraic notation,
// "c3-d4" for a plain move, "c3xe5xg7" for a series.
func (v Variant) MoveText(m Move) string {
	sep := "-"
	if m.Captured != 0 {
		sep = "x"
	}
	var b strings.Builder
	b.WriteString(v.Rules(m.From).String())
	for _, f := range m.Path[:m.N] {
		b.WriteString(sep)
		b.WriteString(v.Rules(f).String())
	}
	return b.String()
}

// NumericText writes m with square numbers as PDN does: "11-15", "22x15";
// a series is written from x to ("9x27") unless another legal move of p
// has the same ends, then with every landing ("9x18x27").
func (v Variant) NumericText(p Position, m Move) string {
	sep := "-"
	if m.Captured != 0 {
		sep = "x"
	}
	full := false
	for _, o := range v.Moves(p) {
		if o.From == m.From && o.To == m.To && o.Captured != m.Captured {
			full = true
		}
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(v.Number(m.From)))
	if full {
		for _, f := range m.Path[:m.N] {
			b.WriteString(sep)
			b.WriteString(strconv.Itoa(v.Number(f)))
		}
	} else {
		b.WriteString(sep + strconv.Itoa(v.Number(m.To)))
	}
	return b.String()
}

// ParseMove finds the legal move of p that text names. Text may use
// algebraic squares or numbers, "-" or "x" between them, any case and
// spaces: "c3-d4", "C3 x E5 x G7", "11-15", "22x15". With only the two
// ends ("c3xg7") it names the move when one legal move has those ends; a
// full path must be one of the move's routes. The errors are *rules.Error
// values of kind ErrSyntax, ErrIllegal or ErrAmbiguous with a code (what
// is wrong) and its arguments.
func (v Variant) ParseMove(p Position, text string) (Move, error) {
	s, fs, err := v.moveSquares(text)
	if err != nil {
		return Move{}, err
	}
	legal := v.Moves(p)
	found := v.named(p, s, fs)
	// The errors echo the move as typed, spaces removed and lower-cased:
	// it has passed the syntax check, so it is squares and separators only
	// and always one line.
	name := s
	switch {
	case len(found) == 1:
		for _, m := range legal {
			if Same(m, found[0]) {
				return m, nil
			}
		}
		return found[0], nil
	case len(found) > 1:
		var texts []string
		for _, m := range found {
			texts = append(texts, v.MoveText(m))
		}
		sort.Strings(texts)
		return Move{}, rules.Errorc(rules.ErrAmbiguous, rules.CodeAmbiguous, []string{"Move", name, "Moves", strings.Join(texts, ", ")}, "%s is ambiguous: give the full path (%s)", name, strings.Join(texts, " or "))
	}
	return Move{}, v.whyNot(p, legal, name, fs)
}

// moveSquares checks the syntax of a move's text and reads its squares;
// s is the text lower-cased with its spaces removed.
func (v Variant) moveSquares(text string) (s string, fs []Square, err error) {
	s = strings.ToLower(strings.Join(strings.Fields(text), ""))
	toks := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == 'x' || r == ':' })
	if len(toks) < 2 || len(s) > 80 || strings.Count(s, "-")+strings.Count(s, "x")+strings.Count(s, ":") != len(toks)-1 ||
		strings.ContainsAny(s[:1]+s[len(s)-1:], "-x:") {
		return "", nil, rules.Errorc(rules.ErrSyntax, rules.CodeNotMove, []string{"Text", clip(text), "Examples", "c3-d4, c3xe5xg7, 11-15"}, "%q is not a move (write it like c3-d4, c3xe5xg7 or 11-15)", clip(text))
	}
	fs = make([]Square, len(toks))
	for i, t := range toks {
		f, err := v.parseSquare(t)
		if err != nil {
			return "", nil, err
		}
		fs[i] = f
	}
	return s, fs, nil
}

// named returns the series of p that the squares fs name, written as s:
// those with fs's ends and, when fs has more squares, their path; of
// several, those whose separator ("-" or "x") or full path fits, when
// that leaves one.
func (v Variant) named(p Position, s string, fs []Square) []Move {
	from, to := fs[0], fs[len(fs)-1]
	var found []Move
	for _, s := range v.series(p) {
		if s.From != from || s.To != to || (len(fs) > 2 && !samePath(s, fs[1:])) {
			continue
		}
		dup := false
		for _, f := range found {
			dup = dup || Same(f, s)
		}
		if !dup {
			found = append(found, s)
		}
	}
	if len(found) > 1 {
		// With huffing a plain move and a series may share their ends:
		// the separator tells them apart.
		wantCapture := strings.ContainsRune(s, 'x')
		var kept []Move
		for _, m := range found {
			if (m.Captured != 0) == wantCapture {
				kept = append(kept, m)
			}
		}
		if len(kept) == 1 {
			found = kept
		}
	}
	if len(found) > 1 {
		// "d2xh6" is also the full path of a single capture.
		var exact []Move
		for _, m := range found {
			if samePath(m, fs[1:]) {
				exact = append(exact, m)
			}
		}
		if len(exact) == 1 {
			found = exact
		}
	}
	return found
}

// whyNot explains why the move named (with squares fs) is not one of
// legal, the legal moves of p: the error ParseMove returns.
func (v Variant) whyNot(p Position, legal []Move, name string, fs []Square) error {
	from, to := fs[0], fs[len(fs)-1]
	landings := fs[1:]
	mine := p.Pieces(p.ToMove)
	if mine&(1<<from) == 0 {
		if p.Pieces(p.ToMove.Other())&(1<<from) != 0 {
			return rules.Errorc(rules.ErrIllegal, rules.CodeNotYourPiece, []string{"Move", name, "Square", v.Rules(from).String()}, "%s: the piece on %s is not yours (%s to move)", name, v.Rules(from), p.ToMove)
		}
		return rules.Errorc(rules.ErrIllegal, rules.CodeNoPiece, []string{"Move", name, "Square", v.Rules(from).String()}, "%s: there is no piece on %s", name, v.Rules(from))
	}
	if len(legal) == 0 {
		return rules.Errorc(rules.ErrIllegal, rules.CodeNoLegalMove, []string{"Move", name}, "%s: %s has no legal move", name, p.ToMove)
	}
	if early := goesOn(v.series(p), from, landings); len(early) > 0 {
		return rules.Errorc(rules.ErrIllegal, rules.CodeStopsTooEarly, []string{"Move", name, "Moves", v.movesArg(early, 4)}, "%s stops too early: the series must go on (%s)", name, v.movesList(early, 4))
	}
	if legal[0].Captured != 0 && !v.Huff {
		for _, s := range v.allCaptures(p) {
			if s.From == from && (s.To == to && (len(fs) <= 2 || samePath(s, landings)) || len(goesOn([]Move{s}, from, landings)) > 0) {
				what, code := "pieces", rules.CodeMostPieces
				if s.Count() == legal[0].Count() {
					what, code = "kings", rules.CodeMostKings
				}
				return rules.Errorc(rules.ErrIllegal, code, []string{"Move", name, "Moves", v.movesArg(legal, 4)}, "%s: the most %s must be taken (%s)", name, what, v.movesList(legal, 4))
			}
		}
		var capturers []string
		for _, f := range v.sortedSquares(fromSet(legal)) {
			capturers = append(capturers, v.Rules(f).String())
		}
		return rules.Errorc(rules.ErrIllegal, rules.CodeMustCapture, []string{"Move", name, "Squares", strings.Join(capturers, ", ")}, "%s: a capture is obligatory: %s can capture", name, strings.Join(capturers, ", "))
	}
	var own []Move
	for _, m := range legal {
		if m.From == from {
			own = append(own, m)
		}
	}
	if len(own) == 0 {
		return rules.Errorc(rules.ErrIllegal, rules.CodePieceCannotMove, []string{"Move", name, "Square", v.Rules(from).String()}, "%s is not legal: the piece on %s cannot move", name, v.Rules(from))
	}
	return rules.Errorc(rules.ErrIllegal, rules.CodeNotLegalFrom, []string{"Move", name, "Square", v.Rules(from).String(), "Moves", v.movesArg(own, 6)}, "%s is not legal (legal from %s: %s)", name, v.Rules(from), v.movesList(own, 6))
}

// goesOn returns the series of ms that start on from and pass through the
// given landings, in order, before going on: the series that a player who
// typed from and those landings stopped too early.
func goesOn(ms []Move, from Square, landings []Square) []Move {
	var out []Move
	for _, m := range ms {
		if m.From == from && m.Captured != 0 && int(m.N) > len(landings) && samePath(Move{N: uint8(len(landings)), Path: m.Path}, landings) {
			out = append(out, m)
		}
	}
	return out
}

func samePath(m Move, landings []Square) bool {
	if int(m.N) != len(landings) {
		return false
	}
	for i, f := range landings {
		if m.Path[i] != f {
			return false
		}
	}
	return true
}

func fromSet(ms []Move) uint32 {
	var b uint32
	for _, m := range ms {
		b |= 1 << m.From
	}
	return b
}

// movesList writes up to max moves' texts, sorted, with "..." when cut.
// movesArg lists moves for an error's arguments: notation only, "…" for
// the ones left out.
func (v Variant) movesArg(ms []Move, max int) string {
	var texts []string
	for _, m := range ms {
		texts = append(texts, v.MoveText(m))
	}
	sort.Strings(texts)
	if len(texts) > max {
		texts = append(texts[:max], "…")
	}
	return strings.Join(texts, ", ")
}

func (v Variant) movesList(ms []Move, max int) string {
	var texts []string
	for _, m := range ms {
		texts = append(texts, v.MoveText(m))
	}
	sort.Strings(texts)
	if len(texts) > max {
		texts = append(texts[:max], fmt.Sprintf("... %d in all", len(ms)))
	}
	return strings.Join(texts, ", ")
}
