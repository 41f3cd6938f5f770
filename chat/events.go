package chat

import (
	"github.com/boardgamebot/bot/sessions"
)

// challengeButtons are the buttons under a challenge, a draw offer or a
// takeback request.
func (p Speaker) challengeButtons() []Button {
	return []Button{{p.T("ButtonAccept"), "/accept"}, {p.T("ButtonDecline"), "/decline"}}
}

// gameButtons are the buttons under a game's reply.
func (p Speaker) gameButtons() []Button {
	return []Button{{p.T("ButtonMoves"), "/moves"}, {p.T("ButtonDraw"), "/draw"}, {p.T("ButtonResign"), "/resign"}}
}

// eventReply turns a committed change into its reply.
func (p Speaker) eventReply(ev sessions.Event) Reply {
	s := ev.Session
	by := ev.By.Name
	r := Reply{Event: &ev}
	if !ev.Ended() && ev.Kind != sessions.EvDeclined && ev.Kind != sessions.EvCancelled {
		r.Session = s // the session goes on
	}
	add := func(id string, kv ...any) { r.Lines = append(r.Lines, p.T(id, kv...)) }
	switch ev.Kind {
	case sessions.EvChallenged:
		return p.challengedReply(r, ev)
	case sessions.EvJoined:
		open := 0
		for _, u := range s.Record.Seats {
			if u.IsZero() {
				open++
			}
		}
		add("EventJoined", "By", by, "Seat", p.seatWords(s, ev.Seat), "Count", open)
		r.Buttons = p.challengeButtons()
		return r
	case sessions.EvStarted:
		add("EventStarted", "Game", p.gameTitle(s), "Players", p.players(s), "Terms", p.terms(s))
	case sessions.EvDeclined:
		add("EventDeclined", "By", by)
		return r
	case sessions.EvCancelled:
		add("EventCancelled", "By", by)
		return r
	case sessions.EvFormed:
		add("EventFormed", "Player", p.player(s, ev.Seat))
	case sessions.EvMoved:
		add("EventMoved", "Player", p.player(s, ev.Seat), "Move", ev.Move.Text)
	case sessions.EvHuffed:
		add("EventHuffed", "Player", p.player(s, ev.Seat), "Square", s.Record.Actions[len(s.Record.Actions)-1].Text, "By", by)
	case sessions.EvDrawOffered:
		add("EventDrawOffered", "Player", p.player(s, ev.Seat))
		return r
	case sessions.EvDrawDeclined:
		add("EventDrawDeclined", "By", by)
		return r
	case sessions.EvDrawAgreed:
		add("EventDrawAgreed", "Player", p.player(s, ev.Seat))
	case sessions.EvResigned:
		if !ev.Ended() { // more players: the others play on
			add("EventResignedLeaves", "Player", p.player(s, ev.Seat))
			break
		}
		add("EventResigned", "Player", p.player(s, ev.Seat))
	case sessions.EvTakebackAsked:
		add("EventTakebackAsked", "Player", p.player(s, ev.Seat), "Others", p.opponents(s, ev.Seat))
		r.Buttons = p.challengeButtons()
		return r
	case sessions.EvTakebackDeclined:
		add("EventTakebackDeclined", "By", by)
		return r
	case sessions.EvTakenBack:
		add("EventTakenBack", "Player", p.player(s, ev.Seat))
	}
	if ev.Ended() {
		r.Lines = append(r.Lines, p.resultLine(s))
		if l := p.ratingLine(s); l != "" {
			r.Lines = append(r.Lines, l)
		}
		r.Picture = picture(s, ev.By)
		if s.Record.Tour == nil { // a tournament's next game is its next pairing
			r.Buttons = []Button{{p.T("ButtonRematch"), "/rematch"}}
		}
		return r
	}
	if st := p.status(s); st != "" {
		r.Lines = append(r.Lines, st)
		r.TurnLine = len(r.Lines)
	}
	r.Picture = picture(s, ev.By)
	r.Buttons = p.gameButtons()
	return r
}

// challengedReply is eventReply's words of a challenge opened (r is what
// eventReply set): who it invites, its terms and the seats still open.
func (p Speaker) challengedReply(r Reply, ev sessions.Event) Reply {
	s, by := ev.Session, ev.By.Name
	add := func(id string, kv ...any) { r.Lines = append(r.Lines, p.T(id, kv...)) }
	rec := s.Record
	open := len(rec.Seats) - 1
	var who string
	switch {
	case len(rec.Invited) == 0:
		who = p.T("AnyoneHere")
	default:
		var names []string
		for _, u := range rec.Invited {
			names = append(names, u.Name)
		}
		who = p.andList(names)
		if len(rec.Invited) < open {
			who = p.T("AndAnyoneHere", "Names", who)
		}
	}
	if open == 1 && len(rec.Invited) == 1 && rec.Invited[0].Is(rec.Challenger) {
		add("EventChallengedSelf", "By", by, "Game", p.gameTitle(s), "Seat", p.seatWords(s, ev.Seat), "Clock", p.clockTerms(s.Record))
		add("EventChallengedSelfHint", "By", by)
		r.Buttons = p.challengeButtons()
		return r
	}
	add("EventChallenged", "By", by, "Who", who, "Game", p.gameTitle(s), "Seat", p.seatWords(s, ev.Seat), "Terms", p.terms(s))
	if open > 1 {
		add("EventChallengedSeats", "Count", open, "By", by)
	} else {
		add("EventChallengedHint", "By", by)
	}
	r.Buttons = p.challengeButtons()
	return r
}
