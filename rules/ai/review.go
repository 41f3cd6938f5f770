package ai

import (
	"context"
	"errors"

	"github.com/boardgamebot/bot/rules"
)

// Mark is the review's verdict on one move: none, or how much of the
// mover's winning chances it gave away.
type Mark int8

// The marks, from the least to the worst (their signs: ?!, ?, ??).
const (
	MarkNone Mark = iota
	MarkInaccuracy
	MarkMistake
	MarkBlunder
)

// ReviewOptions set a review's budget.
type ReviewOptions struct {
	// Nodes is the most positions searched for each ply (0: DefaultReviewNodes).
	Nodes int64
	// Depth is the deepest iteration for each ply (0: the budget decides).
	Depth int
}

// DefaultReviewNodes is the budget per ply of a review when none is set.
const DefaultReviewNodes = 200_000

// PlyReview is the review of one ply of a game.
type PlyReview struct {
	Ply    int    // the ply's index in the game, from 0
	Seat   int    // the seat that played it
	Played string // the move played, as rules.Move.Text writes it
	// Best is the engine's best move in the position before the ply, as
	// rules.Move.Text writes it (equal to Played when the move played was
	// the best one found).
	Best string
	// Chances are each seat's winning chances after the ply, from 0 to 1
	// (with two seats they add up to 1).
	Chances []float64
	// Before and After are the mover's winning chances before the ply
	// (with the best move) and after the move played.
	Before, After float64
	// Eval is the evaluation after the ply from the first seat's side, in
	// the engine's units (hundredths of a man in draughts).
	Eval int
	Mark Mark
	// Material is the material the move played loses against the best
	// move within the searched depth, in men (0 when none).
	Material int
	Nodes    int64 // positions searched for this ply
}

// SeatReview sums up one seat's moves.
type SeatReview struct {
	Accuracy                         float64 // 0 to 100
	Inaccuracies, Mistakes, Blunders int
	Worst                            int // the ply of the seat's worst move, -1 when none lost anything
}

// Review is an engine's review of a whole game.
type Review struct {
	Plies []PlyReview
	Seats []SeatReview
}

// errNotYet: the review is not written yet.
var errNotYet = errors.New("ai: review not implemented yet")

// Review reviews a game: positions[i] is the state in which played[i]
// was played (the caller replays the game, huffs and formations included),
// and each position is searched at the budget of o. It takes turns with
// the other searches like any search of ctx's owner (WithOwner).
func (pl *Player) Review(ctx context.Context, positions []rules.State, played []rules.Move, o ReviewOptions) (Review, error) {
	return Review{}, errNotYet
}
