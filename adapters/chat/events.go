package chat

import (
	"fmt"
	"strings"

	"github.com/boardgamebot/bot/sessions"
)

var (
	challengeButtons = []Button{{"Accept", "/accept"}, {"Decline", "/decline"}}
	gameButtons      = []Button{{"Moves", "/moves"}, {"Draw", "/draw"}, {"Resign", "/resign"}}
)

// eventReply turns a committed change into its reply.
func eventReply(ev sessions.Event) Reply {
	s := ev.Session
	by := ev.By.Name
	var r Reply
	add := func(format string, args ...any) { r.Lines = append(r.Lines, fmt.Sprintf(format, args...)) }
	switch ev.Kind {
	case sessions.EvChallenged:
		rec := s.Record
		open := len(rec.Seats) - 1
		var who string
		switch {
		case len(rec.Invited) == 0:
			who = "anyone here"
		default:
			var names []string
			for _, u := range rec.Invited {
				names = append(names, u.Name)
			}
			who = strings.Join(names, " and ")
			if len(rec.Invited) < open {
				who += " and anyone here"
			}
		}
		if open == 1 && len(rec.Invited) == 1 && rec.Invited[0].Is(rec.Challenger) {
			add("%s challenges themselves to %s (a game against yourself is never rated); %s plays %s; %s.", by, gameTitle(s), by, seatWords(s, ev.Seat), clockTerms(s.Record))
			add("%s: /accept to take the other side too, or /cancel.", by)
			r.Buttons = challengeButtons
			return r
		}
		add("%s challenges %s to %s; %s plays %s; %s.", by, who, gameTitle(s), by, seatWords(s, ev.Seat), Terms(s))
		if open > 1 {
			add("%d seats to fill: /accept to join, /decline to refuse; %s can /cancel.", open, by)
		} else {
			add("/accept to play, /decline to refuse; %s can /cancel.", by)
		}
		r.Buttons = challengeButtons
		return r
	case sessions.EvJoined:
		open := 0
		for _, u := range s.Record.Seats {
			if u.IsZero() {
				open++
			}
		}
		add("%s joins as %s; %d more to /accept.", by, seatWords(s, ev.Seat), open)
		r.Buttons = challengeButtons
		return r
	case sessions.EvStarted:
		add("Game on: %s, %s; %s.", gameTitle(s), players(s), Terms(s))
	case sessions.EvDeclined:
		add("%s declines the challenge. /play to start another game.", by)
		return r
	case sessions.EvCancelled:
		add("%s withdraws the challenge. /play to start another game.", by)
		return r
	case sessions.EvFormed:
		add("%s has chosen a formation.", player(s, ev.Seat))
	case sessions.EvMoved:
		add("%s played %s.", player(s, ev.Seat), ev.Move.Text)
	case sessions.EvHuffed:
		add("%s huffs the piece on %s; now %s plays a move.", player(s, ev.Seat), s.Record.Actions[len(s.Record.Actions)-1].Text, by)
	case sessions.EvDrawOffered:
		add("%s offers a draw: /draw or /accept to agree, /decline to refuse.", player(s, ev.Seat))
		return r
	case sessions.EvDrawDeclined:
		add("%s declines the draw; play on.", by)
		return r
	case sessions.EvDrawAgreed:
		add("%s accepts the draw.", player(s, ev.Seat))
	case sessions.EvResigned:
		if !ev.Ended() { // more players: the others play on
			add("%s resigns and leaves the game; the others play on.", player(s, ev.Seat))
			break
		}
		add("%s resigns.", player(s, ev.Seat))
	case sessions.EvTakebackAsked:
		add("%s asks to take back their last move: %s, /accept or /decline.", player(s, ev.Seat), opponents(s, ev.Seat))
		r.Buttons = challengeButtons
		return r
	case sessions.EvTakebackDeclined:
		add("%s refuses the takeback; play on.", by)
		return r
	case sessions.EvTakenBack:
		add("%s's last move is taken back.", player(s, ev.Seat))
	}
	if ev.Ended() {
		add("%s", ResultLine(s))
		if l := ratingLine(s); l != "" {
			add("%s", l)
		}
		r.Picture = picture(s, ev.By)
		r.Buttons = []Button{{"Rematch", "/rematch"}}
		return r
	}
	if st := status(s); st != "" {
		add("%s", st)
	}
	r.Picture = picture(s, ev.By)
	r.Buttons = gameButtons
	return r
}
