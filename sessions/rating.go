package sessions

import (
	"math"
	"slices"
	"time"
)

// The rating rules (seed 004).
const (
	// StartRating is every player's rating before their first rated game,
	// all-time and at the start of each month.
	StartRating = 1000
	// EloK is the most a game moves a rating.
	EloK = 30
	// AbandonPenalty is what abandoning costs on top of the lost game.
	AbandonPenalty = 20
	// MinRatedMoves: a game is rated only when its winner made more than
	// this many moves (in a draw, each player).
	MinRatedMoves = 10
	// AllTime is the Period of the all-time ratings.
	AllTime = "all"
)

// Month returns the Period of the monthly ratings of t's UTC month: "2026-11".
func Month(t time.Time) string { return t.UTC().Format("2006-01") }

// Standing is one player's rating in one game and one period (AllTime or a
// month), with the rated games that made it.
type Standing struct {
	Platform string `json:"platform"`
	User     User   `json:"user"`
	Game     string `json:"game"`
	Period   string `json:"period"`
	Rating   int    `json:"rating"`
	Games    int    `json:"games"`
	Won      int    `json:"won"`
	Lost     int    `json:"lost"`
	Drawn    int    `json:"drawn"`
}

// NewStanding is a player's standing before any game of the period.
func NewStanding(platform string, u User, game, period string) Standing {
	return Standing{Platform: platform, User: u, Game: game, Period: period, Rating: StartRating}
}

// RateRequest is what a finished two-player game does to its players'
// ratings; a Store applies it in the transaction that stores the game
// (Change.Rate), with ApplyRating.
type RateRequest struct {
	Platform string
	Game     string
	// Month is the Period of the monthly ratings (the month the game ended).
	Month string
	// Community is where the game was played (Record.Community): a rated
	// game there puts both players on its ladders (TopQuery.Community),
	// all-time and of Month; empty for none.
	Community string
	Players   [2]User
	// Score is seat 0's score: 1 won, 0.5 drawn, 0 lost.
	Score float64
	// Rated is false when only the penalties apply (the game ended before
	// the winner made more than MinRatedMoves moves).
	Rated bool
	// Penalty is what each seat loses on top (AbandonPenalty for the seat
	// that abandoned).
	Penalty [2]int
}

// RatingChange is what one finished game did to one player's ratings; the
// store writes them in Record.Ratings.
type RatingChange struct {
	Seat        int    `json:"seat"`
	User        User   `json:"user"`
	Rated       bool   `json:"rated"` // the game counted (false: a penalty only)
	Before      int    `json:"before"`
	After       int    `json:"after"`
	MonthBefore int    `json:"month_before"`
	MonthAfter  int    `json:"month_after"`
	Month       string `json:"month"`
}

// EloDelta is what a player rated a gains (or loses, when negative) by
// scoring score (1, 0.5, 0) against a player rated b: K = 30, rounded to
// whole points. Equal ratings: +15 for a win; 2000 beating 1000: 0.
func EloDelta(a, b int, score float64) int {
	expected := 1 / (1 + math.Pow(10, float64(b-a)/400))
	return int(math.Round(EloK * (score - expected)))
}

// ApplyRating returns the players' standings after the game: cur holds
// each seat's all-time [0] and monthly [1] standing before it. Seat 1's
// Elo change is the opposite of seat 0's, so a rated game moves as many
// points as it takes.
func ApplyRating(r *RateRequest, cur [2][2]Standing) (next [2][2]Standing, changes []RatingChange) {
	next = cur
	for p := range 2 { // 0: all-time, 1: monthly
		d := 0
		if r.Rated {
			d = EloDelta(cur[0][p].Rating, cur[1][p].Rating, r.Score)
		}
		for seat := range 2 {
			st := &next[seat][p]
			delta := d
			if seat == 1 {
				delta = -d
			}
			st.Rating += delta - r.Penalty[seat]
			st.User = r.Players[seat]
			if !r.Rated {
				continue
			}
			st.Games++
			score := r.Score
			if seat == 1 {
				score = 1 - score
			}
			switch score {
			case 1:
				st.Won++
			case 0:
				st.Lost++
			default:
				st.Drawn++
			}
		}
	}
	for seat := range 2 {
		changes = append(changes, RatingChange{Seat: seat, User: r.Players[seat], Rated: r.Rated,
			Before: cur[seat][0].Rating, After: next[seat][0].Rating,
			MonthBefore: cur[seat][1].Rating, MonthAfter: next[seat][1].Rating, Month: r.Month})
	}
	return next, changes
}

// rateRequest says what the finished game rec does to ratings, or nil when
// it does nothing: games against the computer or oneself, games of more
// than two players, rated=no, and games without a winner or draw.
func rateRequest(rec *Record) *RateRequest {
	res := rec.Result
	if res == nil || len(rec.Seats) != 2 || !rec.Play.Rated {
		return nil
	}
	a, b := rec.Seats[0], rec.Seats[1]
	if a.Computer || b.Computer || a.ID == "" || b.ID == "" || a.Is(b) {
		return nil
	}
	r := &RateRequest{Platform: rec.Key.Platform, Game: rec.Game, Month: Month(res.Ended), Community: rec.Community, Players: [2]User{a, b}}
	moves := [2]int{}
	for _, act := range rec.Actions {
		if act.Kind == ActMove && act.Seat >= 0 && act.Seat < 2 {
			moves[act.Seat]++
		}
	}
	switch res.Winner {
	case 0:
		r.Score = 1
		r.Rated = moves[0] > MinRatedMoves
	case 1:
		r.Score = 0
		r.Rated = moves[1] > MinRatedMoves
	default:
		r.Score = 0.5
		r.Rated = slices.Min(moves[:]) > MinRatedMoves
	}
	if res.Abandoned && res.Winner >= 0 {
		r.Penalty[1-res.Winner] = AbandonPenalty
	}
	if !r.Rated && r.Penalty == [2]int{} {
		return nil
	}
	return r
}
