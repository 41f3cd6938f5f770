package chat

import (
	"context"
	"fmt"
	"math"

	"github.com/boardgamebot/bot/render"
	"github.com/boardgamebot/bot/rules/ai"
	"github.com/boardgamebot/bot/sessions"
)

// ReviewMistakeLines is the most mistakes a review's reply lists; the
// game's web page shows them all.
const ReviewMistakeLines = 12

// markSigns are the marks' signs, after the move as in PDN.
var markSigns = [...]string{ai.MarkNone: "", ai.MarkInaccuracy: "?!", ai.MarkMistake: "?", ai.MarkBlunder: "??"}

// review answers /review [id]: the stored review of a finished game
// (default: the chat's last, else the speaker's), or that it is being
// computed and will be posted here.
func (h *Handler) review(ctx context.Context, m Message, args []string) Reply {
	id := ""
	if len(args) == 1 {
		if !idRe.MatchString(args[0]) {
			return fail(m.sp.T("NotGameID", "Text", clip(args[0], 30), "Name", "review"))
		}
		id = args[0]
	}
	res, err := h.svc.Review(ctx, sessions.ReviewRequest{Key: m.Key, User: m.User, Game: id})
	if err != nil {
		return h.errorReply("review", m, err)
	}
	switch res.State {
	case sessions.ReviewQueued:
		return Reply{Lines: []string{m.sp.T("ReviewQueued", "ID", res.Game.Record.ID)}}
	case sessions.ReviewWaiting:
		return Reply{Lines: []string{m.sp.T("ReviewWaiting", "ID", res.Pending)}}
	}
	r := m.sp.reviewReply(res.Game, res.Record.Review)
	if h.links != nil {
		r.Web = &WebBoard{Watch: h.links.Board(res.Game, sessions.User{}).Watch}
	}
	return r
}

// reviewReply words a review: the header, a line per player (the
// summary), then the marked moves with the better ones; and the graph.
func (p Speaker) reviewReply(s *sessions.Snapshot, rv ai.Review) Reply {
	rec := s.Record
	r := Reply{Lines: []string{p.T("ReviewHeader", "ID", rec.ID, "Game", p.gameTitle(s), "Players", p.players(s))}}
	for seat, sr := range rv.Seats {
		if seat >= len(rec.Seats) {
			break
		}
		acc := fmt.Sprintf("%.0f", sr.Accuracy)
		if sr.Worst < 0 || sr.Worst >= len(rv.Plies) {
			r.Lines = append(r.Lines, p.T("ReviewSeatClean", "Player", p.player(s, seat), "Accuracy", acc))
			continue
		}
		w := rv.Plies[sr.Worst]
		r.Lines = append(r.Lines, p.T("ReviewSeat", "Player", p.player(s, seat), "Accuracy", acc,
			"Inaccuracies", sr.Inaccuracies, "Mistakes", sr.Mistakes, "Blunders", sr.Blunders,
			"Worst", moveNumber(p, s, w)+" "+w.Played+markSigns[markOf(w.Mark)]))
	}
	summary := len(r.Lines)
	var marked []ai.PlyReview
	for _, pr := range rv.Plies {
		if pr.Mark != ai.MarkNone {
			marked = append(marked, pr)
		}
	}
	if len(marked) == 0 {
		r.Lines = append(r.Lines, p.T("ReviewNoMistakes"))
	} else {
		r.Lines = append(r.Lines, p.T("ReviewMistakes"))
		for i, pr := range marked {
			if i == ReviewMistakeLines {
				r.Lines = append(r.Lines, p.T("ReviewMore", "Count", len(marked)-i))
				break
			}
			r.Lines = append(r.Lines, p.mistakeLine(s, pr))
		}
	}
	r.Figure = &Figure{Review: p.reviewGraph(s, rv), Summary: summary, Name: fileSafe("review-" + rec.ID + ".png")}
	return r
}

// mistakeLine is one marked move: "12... 22-18?? (better 23-19): loses
// 2 men (47% → 10%)".
func (p Speaker) mistakeLine(s *sessions.Snapshot, pr ai.PlyReview) string {
	before, after := percent(pr.Before), percent(pr.After)
	change := p.T("ReviewChances", "Before", before, "After", after)
	if pr.Material > 0 {
		change = p.T("ReviewLoses", "Count", pr.Material, "Before", before, "After", after)
	}
	return p.T("ReviewMistake", "Number", moveNumber(p, s, pr), "Played", pr.Played+markSigns[markOf(pr.Mark)], "Best", pr.Best, "Change", change)
}

// moveNumber numbers a ply as the game's record does: "12." for the
// first player's move of round 12, "12..." for the second's; with more
// players, "12." and the player's name.
func moveNumber(p Speaker, s *sessions.Snapshot, pr ai.PlyReview) string {
	n := max(len(s.Record.Seats), 1)
	round := pr.Ply/n + 1
	switch {
	case n == 2 && pr.Ply%2 == 1:
		return fmt.Sprintf("%d...", round)
	case n == 2:
		return fmt.Sprintf("%d.", round)
	}
	return fmt.Sprintf("%d. %s", round, s.Player(pr.Seat).Name)
}

func markOf(m ai.Mark) int {
	return min(max(int(m), 0), len(markSigns)-1)
}

func percent(x float64) int { return int(math.Round(100 * math.Min(1, math.Max(0, x)))) }

// reviewGraph is the review's graph: the first seat's winning chances
// after every ply with two players, each seat's with more.
func (p Speaker) reviewGraph(s *sessions.Snapshot, rv ai.Review) *render.ReviewGraph {
	rec := s.Record
	n := len(rec.Seats)
	g := &render.ReviewGraph{
		Title:  p.T("ReviewGraphTitle", "ID", rec.ID, "Game", p.gameTitle(s)),
		Plies:  p.T("ReviewGraphPly"),
		Result: p.outcome(rec),
	}
	if s.State != nil {
		g.View = s.State.View()
	}
	chance := func(pr ai.PlyReview, seat int) float64 {
		if seat < len(pr.Chances) {
			return pr.Chances[seat]
		}
		if pr.Seat == seat {
			return pr.After
		}
		return (1 - pr.After) / float64(max(n-1, 1))
	}
	if n == 2 {
		g.Scale = p.T("ReviewGraphChances", "Player", p.player(s, 0))
		start := 0.5
		if len(rv.Plies) > 0 {
			start = rv.Plies[0].Before
			if rv.Plies[0].Seat != 0 {
				start = 1 - start
			}
		}
		l := render.ReviewLine{Seat: 0, Points: []float64{start}}
		for _, pr := range rv.Plies {
			l.Points = append(l.Points, chance(pr, 0))
		}
		g.Lines = []render.ReviewLine{l}
	} else {
		g.Scale = p.T("ReviewGraphAll")
		for seat := range min(n, render.MaxReviewLines) {
			l := render.ReviewLine{Seat: seat, Points: []float64{1 / float64(n)}}
			for _, pr := range rv.Plies {
				l.Points = append(l.Points, chance(pr, seat))
			}
			g.Lines = append(g.Lines, l)
		}
	}
	for i, pr := range rv.Plies {
		if pr.Mark == ai.MarkNone {
			continue
		}
		line := 0
		if n > 2 {
			line = pr.Seat
		}
		g.Marks = append(g.Marks, render.ReviewMark{Ply: i, Seat: pr.Seat, Line: line, Mark: markOf(pr.Mark)})
	}
	return g
}
