package chat

import (
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/rules/draughts"
)

// annotatePDN adds a game's review to its PDN (as draughts.Game.PDN
// writes it: the tags, a blank line, the movetext): each move gets its
// mark (?!, ?, ??) and a comment with the evaluation after it from the
// first seat's side, in men, {[%eval 0.35]}, as other PDN tools read
// them. The review's plies are the game's moves in order (a huff is a
// comment, not a move). A PDN whose moves do not match the review's
// count is returned as it is.
func annotatePDN(pdn string, r ai.Review) string {
	head, body, ok := strings.Cut(pdn, "\n\n")
	if !ok {
		return pdn
	}
	toks := pdnTokens(body)
	moves := 0
	for _, t := range toks {
		if pdnMove(t) {
			moves++
		}
	}
	if moves != len(r.Plies) {
		return pdn
	}
	out := make([]string, 0, len(toks)+len(r.Plies))
	ply := 0
	for _, t := range toks {
		if !pdnMove(t) {
			out = append(out, t)
			continue
		}
		p := r.Plies[ply]
		ply++
		out = append(out, t+p.Mark.String(), "{[%eval "+strconv.FormatFloat(float64(p.Eval)/100, 'f', 2, 64)+"]}")
	}
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("\n\n")
	draughts.WriteMovetext(&b, out)
	return b.String()
}

// pdnTokens splits a PDN movetext into its tokens, a comment ({...}) one
// token.
func pdnTokens(body string) []string {
	var toks []string
	for body = strings.TrimSpace(body); body != ""; body = strings.TrimSpace(body) {
		end := strings.IndexAny(body, " \t\r\n")
		if body[0] == '{' {
			if end = strings.Index(body, "}") + 1; end == 0 {
				end = len(body)
			}
		}
		if end < 0 {
			end = len(body)
		}
		toks = append(toks, body[:end])
		body = body[end:]
	}
	return toks
}

// pdnMove reports whether a movetext token is a move (not a move number,
// a comment or the result).
func pdnMove(t string) bool {
	switch {
	case t == "" || t[0] == '{' || strings.HasSuffix(t, "."):
		return false
	}
	switch t {
	case "1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1":
		return false
	}
	return true
}
