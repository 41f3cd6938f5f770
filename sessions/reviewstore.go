package sessions

import (
	"context"
	"time"

	"github.com/boardgamebot/bot/rules/ai"
)

// ReviewRecord is the review of a finished game as it is stored: computed
// once (Service.Review) and kept with the game, keyed by its id.
type ReviewRecord struct {
	V int `json:"v"`
	// Game is the finished game's id (Record.ID).
	Game string `json:"game"`
	// Nodes is the budget per ply it was computed with (positions searched
	// at most for each ply).
	Nodes int64 `json:"nodes"`
	// Made is when it was computed.
	Made   time.Time `json:"made"`
	Review ai.Review `json:"review"`
}

// ReviewStore is a Store that keeps reviews. Every store of the bot
// implements it; with a store that does not, the Service keeps the
// reviews it computed in memory.
type ReviewStore interface {
	// Review returns the review of the finished game with this id, or an
	// error wrapping ErrNotFound.
	Review(ctx context.Context, game string) (*ReviewRecord, error)
	// PutReview writes r (keyed by r.Game), replacing any review of the
	// game.
	PutReview(ctx context.Context, r *ReviewRecord) error
}

// ReviewClaimer is a ReviewStore shared by several processes (etcd): one
// process computes a review, the others wait for it.
type ReviewClaimer interface {
	ReviewStore
	// ClaimReview claims the computing of game's review for this process:
	// ok is false when another process holds the claim. The claim holds
	// until release is called, or until this process stops renewing it
	// (it dies): then it lapses and another process may claim it.
	ClaimReview(ctx context.Context, game string) (release func(), ok bool, err error)
	// WaitReview waits until game's review is stored (it returns it), or
	// until nobody holds its claim any more without having stored it
	// (nil, nil: claim it again), or until ctx ends.
	WaitReview(ctx context.Context, game string) (*ReviewRecord, error)
}
