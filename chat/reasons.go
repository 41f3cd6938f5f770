package chat

import (
	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
)

// reasonIDs lists the catalogue messages of every reason.
func reasonIDs() []string {
	var out []string
	for _, r := range rules.Reasons() {
		out = append(out, reasonID(r))
	}
	return out
}

// reasonID is the catalogue message of the reason a game ended.
func reasonID(r rules.Reason) string {
	switch r {
	case rules.NoPieces:
		return "ReasonNoPieces"
	case rules.NoMove:
		return "ReasonNoMove"
	case rules.Repetition:
		return "ReasonRepetition"
	case rules.KingMoves:
		return "ReasonKingMoves"
	case rules.ThreeKings:
		return "ReasonThreeKings"
	case rules.FewKings:
		return "ReasonFewKings"
	case rules.QuietPlies:
		return "ReasonQuietPlies"
	case rules.CampFilled:
		return "ReasonCampFilled"
	case rules.OthersLeft:
		return "ReasonOthersLeft"
	case rules.LeftHome:
		return "ReasonLeftHome"
	case rules.Resigned:
		return "ReasonResigned"
	case rules.DrawAgreed:
		return "ReasonDrawAgreed"
	case rules.Abandoned:
		return "ReasonAbandoned"
	case rules.TargetReached:
		return "ReasonTargetReached"
	}
	return ""
}

// reason words why a game ended; seat names the seats. "" for no reason
// (an old record whose phrase was not known).
func (p Speaker) reason(r *sessions.Result, seat func(int) string) string {
	id := reasonID(r.Reason)
	if id == "" {
		return ""
	}
	return p.T(id, "Count", r.N, "Seat", seat(r.By))
}

// recordSeat names the seats of a stored game by its rules.
func (p Speaker) recordSeat(rec *sessions.Record) func(int) string {
	var names []string
	if g, err := games.New(rec.Game, rec.Options); err == nil {
		names = g.Seats()
	}
	return func(seat int) string {
		if seat >= 0 && seat < len(names) {
			return p.seatWord(names[seat])
		}
		return p.T("APlayer")
	}
}
