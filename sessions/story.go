package sessions

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// ProfileLast is how many results Profile.Last holds; VersusLast how many
// games Versus.Last holds.
const (
	ProfileLast = 5
	VersusLast  = 5
)

// Profile is a player's card (/profile), as values: their rating in each
// game with their places, their totals and what their rating history
// tells.
type Profile struct {
	User User
	// Ratings holds the player's all-time standing in each game they
	// have one in, by game id, with their places.
	Ratings []GameRating
	// Games, Won, Drawn and Lost add up the rated games of every game.
	Games, Won, Drawn, Lost int
	// Streak is the run of equal results the player is on now.
	Streak Streak
	// BestWin is the rated win over the opponent rated highest then; nil
	// without a win.
	BestWin *RatedGame
	// Rival is the opponent of the most rated games (of two as many, the
	// one met last), and RivalGames how many; RivalGames is 0 without.
	Rival      User
	RivalGames int
	// Last are the results of the last rated games (at most
	// ProfileLast), oldest first.
	Last []RatedGame
}

// GameRating is a player's all-time standing in one game and their place
// on its ladders: the platform's, and the community's when the card was
// asked for in one. A place of 0 means not on that ladder.
type GameRating struct {
	Standing         Standing
	Place, Players   int
	CommunityPlace   int
	CommunityPlayers int
}

// Streak is a run of N rated games in a row with the same Score (1 won,
// 0.5 drawn, 0 lost); N is 0 without games.
type Streak struct {
	Score float64
	N     int
}

// Profile returns u's card on platform; community (Request.Community) adds
// u's places on its ladders, "" gives the platform's only.
func (s *Service) Profile(ctx context.Context, platform, community string, u User) (*Profile, error) {
	all, err := s.Standings(ctx, platform, u.ID, "")
	if err != nil {
		return nil, err
	}
	hist, err := s.RatingHistory(ctx, platform, u.ID, "")
	if err != nil {
		return nil, err
	}
	p := &Profile{User: u}
	for _, st := range all {
		if st.Period != AllTime {
			continue
		}
		gr := GameRating{Standing: st}
		l, err := s.Top(ctx, TopQuery{Platform: platform, Game: st.Game, Period: AllTime, Limit: 1, User: u.ID})
		if err != nil {
			return nil, err
		}
		gr.Place, gr.Players = l.Place, l.Players
		if community != "" {
			l, err := s.Top(ctx, TopQuery{Platform: platform, Community: community, Game: st.Game, Period: AllTime, Limit: 1, User: u.ID})
			if err != nil {
				return nil, err
			}
			gr.CommunityPlace, gr.CommunityPlayers = l.Place, l.Players
		}
		p.Ratings = append(p.Ratings, gr)
		p.Games += st.Games
		p.Won += st.Won
		p.Drawn += st.Drawn
		p.Lost += st.Lost
	}
	rated := slices.DeleteFunc(hist, func(g RatedGame) bool { return !g.Rated })
	p.Streak = streak(rated)
	met := map[string]int{}
	for i := range rated {
		g := &rated[i]
		if g.Score == 1 && (p.BestWin == nil || g.OpponentRating >= p.BestWin.OpponentRating) {
			p.BestWin = g
		}
		met[g.Opponent.ID]++
		if n := met[g.Opponent.ID]; n >= p.RivalGames {
			p.Rival, p.RivalGames = g.Opponent, n
		}
	}
	p.Last = rated[max(0, len(rated)-ProfileLast):]
	return p, nil
}

// streak is the run of equal results at the end of games.
func streak(games []RatedGame) Streak {
	if len(games) == 0 {
		return Streak{}
	}
	last := games[len(games)-1].Score
	n := 0
	for i := len(games) - 1; i >= 0 && games[i].Score == last; i-- {
		n++
	}
	return Streak{Score: last, N: n}
}

// RatingHistory returns what each finished game did to a user's all-time
// rating, in one game or every game, oldest first (Store.RatingHistory).
func (s *Service) RatingHistory(ctx context.Context, platform, userID, game string) ([]RatedGame, error) {
	out, err := s.store.RatingHistory(ctx, platform, userID, game)
	if err != nil {
		s.storeFailed("reading a rating history failed", err)
		return nil, errf(storeKind(err), err, "rating history")
	}
	return out, nil
}

// Versus is the record between two players (/vs), as values: A's wins,
// draws and losses against B in each game they played each other in,
// their last games, and, for the chart, both players' rating history in
// one game.
type Versus struct {
	A, B User
	// Games holds the record in each game, by game id; Won, Drawn and
	// Lost add them up. Every finished game of the two of them counts,
	// rated or not.
	Games            []VersusRecord
	Won, Drawn, Lost int
	// Last are their last games (at most VersusLast), newest first.
	Last []VersusGame
	// Game is the game of the chart: the one asked for, else the one
	// they played most together (of two as many, the one played last);
	// LinesA and LinesB are A's and B's rating history in it (empty for a
	// player without a rated game of it).
	Game           string
	LinesA, LinesB []RatedGame
}

// VersusRecord is A's record against B in one game.
type VersusRecord struct {
	Game             string
	Won, Drawn, Lost int
}

// VersusGame is one game between A and B: its id, game, when it ended,
// A's Score (1 won, 0.5 drawn, 0 lost) and whether it was rated.
type VersusGame struct {
	ID    string
	Game  string
	Ended time.Time
	Score float64
	Rated bool
}

// Versus returns the record between a and b on platform, in every game or
// in game only.
func (s *Service) Versus(ctx context.Context, platform string, a, b User, game string) (*Versus, error) {
	recs, err := s.History(ctx, HistoryQuery{Platform: platform, User: a.ID, With: b.ID, Game: game})
	if err != nil {
		return nil, err
	}
	v := &Versus{A: a, B: b, Game: game}
	by := map[string]*VersusRecord{}
	played := map[string]int{}
	for _, rec := range recs { // newest first
		if rec.Result == nil || len(rec.Seats) != 2 || rec.Seats[0].Is(rec.Seats[1]) {
			continue
		}
		mine := rec.SeatsOf(a)
		if len(mine) != 1 || len(rec.SeatsOf(b)) != 1 {
			continue
		}
		r := by[rec.Game]
		if r == nil {
			r = &VersusRecord{Game: rec.Game}
			by[rec.Game] = r
		}
		score := 0.5
		switch rec.Result.Winner {
		case mine[0]:
			score, r.Won, v.Won = 1, r.Won+1, v.Won+1
		case 1 - mine[0]:
			score, r.Lost, v.Lost = 0, r.Lost+1, v.Lost+1
		default:
			r.Drawn, v.Drawn = r.Drawn+1, v.Drawn+1
		}
		if len(v.Last) < VersusLast {
			v.Last = append(v.Last, VersusGame{ID: rec.ID, Game: rec.Game, Ended: rec.Result.Ended.UTC(), Score: score,
				Rated: len(rec.Ratings) > 0 && rec.Ratings[0].Rated})
		}
		played[rec.Game]++
		if v.Game == "" || game == "" && played[rec.Game] > played[v.Game] {
			v.Game = rec.Game
		}
	}
	for _, r := range by {
		v.Games = append(v.Games, *r)
	}
	slices.SortFunc(v.Games, func(x, y VersusRecord) int { return cmp.Compare(x.Game, y.Game) })
	if v.Game == "" {
		return v, nil
	}
	if v.LinesA, err = s.RatingHistory(ctx, platform, a.ID, v.Game); err != nil {
		return nil, err
	}
	if v.LinesB, err = s.RatingHistory(ctx, platform, b.ID, v.Game); err != nil {
		return nil, err
	}
	return v, nil
}
