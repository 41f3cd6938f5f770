package draughts

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules"
)

// GameType returns the PDN GameType tag of v: "24,W,8,8,N1,1" for Spanish
// draughts (the PDN standard); the dark-square games have no standard
// number and get the six-field form "0,W,8,8,N1,0".
func (v Variant) GameType() string {
	if v.Dark {
		return "0,W,8,8,N1,0"
	}
	return "24,W,8,8,N1,1"
}

// variantTag is the Variant tag for the games without a GameType number:
// "dame flying=no", "damas huff=yes".
func (v Variant) variantTag() string {
	s := v.ID
	opts := v.Options()
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s += " " + k + "=" + opts[k]
	}
	return s
}

// PDN writes the whole game: the tags (Event, Date, White, Black, Result,
// GameType, Variant for dame and damas, FEN when the game did not start
// from the initial position), then the moves in numeric notation. A huff is
// written as a comment before the huffer's move: {huff 14}.
func (g Game) PDN(meta rules.Meta) string {
	var b strings.Builder
	tag := func(k, v string) {
		v = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(v)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", k, v)
	}
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	names := append(append([]string(nil), meta.Names...), "", "")
	result := meta.Result
	if result == "" {
		result = g.Result()
	}
	tag("Event", or(meta.Event, "?"))
	tag("Date", or(meta.Date, "????.??.??"))
	tag("White", or(names[0], "?"))
	tag("Black", or(names[1], "?"))
	tag("Result", result)
	tag("GameType", g.v.GameType())
	if g.v.Dark {
		tag("Variant", g.v.variantTag())
	}
	if g.start != Initial {
		tag("FEN", g.v.FEN(g.start))
	}
	b.WriteString("\n")
	var toks []string
	num := 1
	for i, ply := range g.plies {
		p := g.Before(i)
		if p.ToMove == White {
			toks = append(toks, strconv.Itoa(num)+".")
		} else if i == 0 {
			toks = append(toks, strconv.Itoa(num)+"...")
		}
		if ply.Huffed != NoSquare {
			toks = append(toks, fmt.Sprintf("{huff %d}", g.v.Number(ply.Huffed)))
		}
		toks = append(toks, g.v.NumericText(p, ply.Move))
		if p.ToMove == Black {
			num++
		}
	}
	if g.huffed != NoSquare { // a huff not yet followed by its move
		toks = append(toks, fmt.Sprintf("{huff %d}", g.v.Number(g.huffed)))
	}
	toks = append(toks, result)
	WriteMovetext(&b, toks)
	return b.String()
}

// WriteMovetext writes PDN movetext tokens (moves, numbers, comments, the
// result) to b, a space between them, in lines of at most 79 characters,
// and a final line break.
func WriteMovetext(b *strings.Builder, toks []string) {
	line := 0
	for i, t := range toks {
		if i > 0 {
			if line+1+len(t) > 79 {
				b.WriteString("\n")
				line = 0
			} else {
				b.WriteString(" ")
				line++
			}
		}
		b.WriteString(t)
		line += len(t)
	}
	b.WriteString("\n")
}

// Result is the PDN result of the game so far: "1-0", "0-1", "1/2-1/2" or "*".
func (g Game) Result() string {
	out := g.Outcome()
	switch {
	case !out.Over:
		return "*"
	case out.Winner == 0:
		return "1-0"
	case out.Winner == 1:
		return "0-1"
	}
	return "1/2-1/2"
}

// ParsePDN reads one game written by Game.PDN (or any PDN game of these
// variants in numeric or algebraic notation; comments and the moves'
// annotations, ?, ??, ?!, !, are skipped): the variant from the
// GameType and Variant tags, the start from FEN, the moves played through
// ParseMove and Play. A decisive result or a draw that the moves do not
// reach is recorded as a resignation or an agreed draw. Errors are
// *rules.Error values naming the move that failed.
func ParsePDN(text string) (Game, rules.Meta, error) {
	var meta rules.Meta
	tags, rest, err := pdnTags(text)
	if err != nil {
		return Game{}, meta, err
	}
	v, err := pdnVariant(tags)
	if err != nil {
		return Game{}, meta, err
	}
	start := Initial
	if f := tags["FEN"]; f != "" {
		p, err := v.ParseFEN(f)
		if err != nil {
			return Game{}, meta, err
		}
		start = p
	}
	meta.Event, meta.Date = tags["Event"], tags["Date"]
	meta.Names = []string{tags["White"], tags["Black"]}
	meta.Result = tags["Result"]
	g, result, err := pdnMoves(NewGame(v, start), rest)
	if err != nil {
		return Game{}, meta, err
	}
	if meta.Result == "" {
		meta.Result = result
	}
	if !g.Outcome().Over {
		switch normResult(meta.Result) {
		case "1-0":
			g = g.Resign(Black)
		case "0-1":
			g = g.Resign(White)
		case "1/2-1/2":
			g = g.AgreeDraw()
		}
	}
	return g, meta, nil
}

// pdnTags reads the tags at the start of a PDN game ([Key "value"]) and
// returns them with the text after them.
func pdnTags(text string) (map[string]string, string, error) {
	tags := map[string]string{}
	rest := text
	for {
		rest = strings.TrimLeft(rest, " \t\r\n")
		if !strings.HasPrefix(rest, "[") {
			return tags, rest, nil
		}
		end := strings.Index(rest, "]")
		if end < 0 {
			return nil, "", rules.Errorf(rules.ErrSyntax, "PDN: unterminated tag")
		}
		line := rest[1:end]
		rest = rest[end+1:]
		key, val, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			return nil, "", rules.Errorf(rules.ErrSyntax, "PDN: bad tag %q", clip(line))
		}
		val = strings.TrimSpace(val)
		if uq, err := strconv.Unquote(val); err == nil {
			val = uq
		} else {
			val = strings.Trim(val, `"`)
		}
		tags[key] = val
	}
}

// pdnVariant is the variant that the GameType and Variant tags name:
// Spanish draughts when they name none.
func pdnVariant(tags map[string]string) (Variant, error) {
	v := Spanish
	gt, _, _ := strings.Cut(tags["GameType"], ",")
	fs := strings.Fields(tags["Variant"])
	switch {
	case len(fs) > 0:
		opts := map[string]string{}
		for _, o := range fs[1:] {
			k, val, _ := strings.Cut(o, "=")
			opts[k] = val
		}
		return VariantFor(fs[0], opts)
	case gt != "" && gt != "24":
		return v, rules.Errorf(rules.ErrBadOption, "PDN: GameType %q is not Spanish draughts and there is no Variant tag", clip(tags["GameType"]))
	}
	return v, nil
}

// pdnMoves plays the moves (and huffs, written as comments "{huff c3}")
// of a PDN game's move text on g, up to its result, and returns the game
// and the result written ("" when none is).
func pdnMoves(g Game, rest string) (Game, string, error) {
	v := g.v
	result := ""
	for rest != "" && result == "" {
		rest = strings.TrimLeft(rest, " \t\r\n")
		if rest == "" {
			break
		}
		if rest[0] == '{' {
			end := strings.Index(rest, "}")
			if end < 0 {
				return Game{}, "", rules.Errorf(rules.ErrSyntax, "PDN: unterminated comment")
			}
			c := strings.Fields(rest[1:end])
			rest = rest[end+1:]
			if len(c) == 2 && c[0] == "huff" {
				f, err := v.parseSquare(c[1])
				if err == nil {
					g, err = g.Huff(f)
				}
				if err != nil {
					return Game{}, "", rules.Errorf(rules.ErrIllegal, "PDN: move %d: bad huff %q", len(g.plies)+1, clip(c[1]))
				}
			}
			continue
		}
		tok := rest
		if i := strings.IndexAny(rest, " \t\r\n{"); i >= 0 {
			tok, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		switch tok {
		case "1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1":
			result = tok
			continue
		}
		// Strip a move number: "12.", "12...", "12.11-15".
		i := 0
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		if i < len(tok) && tok[i] == '.' {
			tok = strings.TrimLeft(tok[i:], ".")
		}
		// A move's annotation: "11-15?", "11-15!?", "11-15??".
		tok = strings.TrimRight(tok, "?!")
		if tok == "" {
			continue
		}
		m, err := v.ParseMove(g.cur, tok)
		if err == nil {
			g, err = g.Play(m)
		}
		if err != nil {
			return Game{}, "", rules.Errorf(rules.ErrIllegal, "PDN: move %d (%q): %s", len(g.plies)+1, clip(tok), strings.TrimPrefix(err.Error(), "rules: "))
		}
	}
	return g, result, nil
}

func normResult(r string) string {
	switch r {
	case "2-0":
		return "1-0"
	case "0-2":
		return "0-1"
	case "1-1":
		return "1/2-1/2"
	}
	return r
}
