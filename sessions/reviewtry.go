package sessions

import (
	"context"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
)

// ReviewPositions replays a finished game as its review sees it:
// positions[i] is the state in which played[i] was played (the review's
// Plies[i]).
func (s *Service) ReviewPositions(rec *Record) (positions []rules.State, played []rules.Move, err error) {
	positions, played, err = s.reviewInput(rec)
	if err != nil {
		return nil, nil, errf(ErrBroken, err, "game %q", rec.ID)
	}
	return positions, played, nil
}

// TryReviewMove reviews move, tried by u in the position before the ply
// of the reviewed game r, as the review reviewed the ply (the same
// budget, the searches u's among the computer's): its Mark is
// ai.MarkNone when the move is within the inaccuracy threshold of the
// engine's best (the web board's "find the better move"). It stores
// nothing. An error of kind rules.ErrIllegal: the move is not legal
// there.
func (s *Service) TryReviewMove(ctx context.Context, u User, platform string, r *ReviewRecord, before rules.State, ply int, move string) (ai.PlyReview, error) {
	_, m, err := before.Play(move)
	if err != nil {
		return ai.PlyReview{}, err
	}
	owner := "user\x00" + u.Key(platform)
	if u.IsZero() {
		owner = "web\x00" + r.Game
	}
	nodes := r.Nodes
	if nodes <= 0 {
		nodes = s.reviews.nodes
	}
	rv, err := s.reviews.review(ai.WithOwner(ctx, owner), []rules.State{before}, []rules.Move{m}, ai.ReviewOptions{Nodes: nodes})
	if err != nil {
		return ai.PlyReview{}, err
	}
	if len(rv.Plies) != 1 {
		return ai.PlyReview{}, errf(ErrBroken, nil, "review of one move: %d plies", len(rv.Plies))
	}
	p := rv.Plies[0]
	p.Ply = ply
	return p, nil
}
