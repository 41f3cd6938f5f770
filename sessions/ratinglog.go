package sessions

import (
	"cmp"
	"slices"
	"strconv"
	"time"
)

// RatedGame is one entry of a player's rating history: what one finished
// game did to their all-time rating in its game. A store writes one per
// player whose rating the game changed (RatedGamesOf), in the game's
// ending transaction, and reads them back per player in time order
// (Store.RatingHistory).
type RatedGame struct {
	Platform string `json:"platform"`
	User     User   `json:"user"`
	// Game is the game's id ("spanish"); GameID the finished game's id.
	Game   string    `json:"game"`
	GameID string    `json:"id"`
	At     time.Time `json:"at"` // when the game ended
	// Community is where it was played (Record.Community).
	Community string `json:"community,omitempty"`
	// Opponent and OpponentRating: the other player and their all-time
	// rating before the game.
	Opponent       User `json:"opponent"`
	OpponentRating int  `json:"opponent_rating"`
	// Score is the player's result: 1 won, 0.5 drawn, 0 lost.
	Score float64 `json:"score"`
	// Rated is false when the game did not count and only a penalty
	// moved the rating (abandoning a game that ended too soon).
	Rated bool `json:"rated"`
	// Before and After are the all-time rating around the game; Month,
	// MonthBefore and MonthAfter the monthly one.
	Before      int    `json:"before"`
	After       int    `json:"after"`
	Month       string `json:"month"`
	MonthBefore int    `json:"month_before"`
	MonthAfter  int    `json:"month_after"`
}

// RatedGamesOf returns the rating history entries of a finished game
// whose store wrote its rating changes (Record.Ratings) and gave it its
// ID: one per player whose rating moved or who played it rated, in seat
// order; none for a game that changed no rating.
func RatedGamesOf(rec *Record) []RatedGame {
	if rec.Result == nil || len(rec.Ratings) != 2 || len(rec.Seats) != 2 {
		return nil
	}
	var out []RatedGame
	for i, c := range rec.Ratings {
		if !c.Rated && c.Before == c.After {
			continue // the winner of a game too short to count
		}
		o := rec.Ratings[1-i]
		score := 0.5
		switch rec.Result.Winner {
		case c.Seat:
			score = 1
		case o.Seat:
			score = 0
		}
		out = append(out, RatedGame{Platform: rec.Key.Platform, User: c.User, Game: rec.Game, GameID: rec.ID,
			At: rec.Result.Ended.UTC(), Community: rec.Community, Opponent: o.User, OpponentRating: o.Before,
			Score: score, Rated: c.Rated, Before: c.Before, After: c.After,
			Month: c.Month, MonthBefore: c.MonthBefore, MonthAfter: c.MonthAfter})
	}
	return out
}

// SortRatedGames orders entries as RatingHistory returns them: by the
// time their game ended, then by the game's id (as a number).
func SortRatedGames(gs []RatedGame) {
	slices.SortStableFunc(gs, func(a, b RatedGame) int {
		return cmp.Or(a.At.Compare(b.At), compareIDs(a.GameID, b.GameID))
	})
}

// compareIDs compares two finished games' ids as numbers.
func compareIDs(a, b string) int {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	if errA != nil || errB != nil {
		return cmp.Compare(a, b)
	}
	return cmp.Compare(x, y)
}

// Joins reports whether the game r rates puts its players on the ladders
// of its community: a rated game played in a community. A store adds
// each player to the community's ladders of r.Game, all-time and of
// r.Month, in the transaction of the rating change; and at every change
// of a player's standing (any game, anywhere on the platform) it moves
// the player's row in every community ladder of that game and period the
// player is on, in the same transaction.
func (r *RateRequest) Joins() bool { return r.Rated && r.Community != "" }
