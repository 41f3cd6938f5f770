package chat

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// ---- errors: the one place that turns them into text ----

// errorReply turns an error of the sessions service into one line that ends
// with the command that helps.
func (h *Handler) errorReply(cmd string, m Message, err error) Reply {
	if m.sp.loc == nil { // called outside Handle
		m.sp = h.words.In(h.words.LangOf(m.Lang))
	}
	var se *sessions.Error
	if !errors.As(err, &se) {
		h.log.Error("unexpected error", "command", cmd, "session", m.Key.String(), "err", err)
		return fail("Sorry, something went wrong; nothing changed. Try again, or /board.")
	}
	s := se.Session
	me := m.User
	isChallenger := s != nil && s.Record.Challenger.Is(me)
	rulesMsg := ""
	var re *rules.Error
	if errors.As(err, &re) {
		rulesMsg = re.Msg
	}
	switch se.Kind {
	case sessions.ErrNoGame:
		return fail("No game is being played here: /play <game> @user starts one (/games lists the games).")
	case sessions.ErrNotStarted:
		if isChallenger {
			return fail("The game has not started: waiting for " + m.sp.waitingFor(s, me) + " to /accept (you can /cancel).")
		}
		return fail("The game has not started: waiting for " + m.sp.waitingFor(s, me) + " to /accept.")
	case sessions.ErrGameRunning:
		if s.Phase() == sessions.PhaseChallenge {
			return fail(fmt.Sprintf("%s has a challenge open here (%s): /accept it, or %s can /cancel it.", s.Record.Challenger.Name, gameTitle(s), s.Record.Challenger.Name))
		}
		if cmd == "cancel" {
			return fail("The game has started, so it cannot be cancelled: /resign ends it, /draw offers a draw.")
		}
		return fail(fmt.Sprintf("A game is running here (%s, %s): finish it first; /board shows it.", gameTitle(s), m.sp.players(s)))
	case sessions.ErrNoChallenge:
		if s != nil && s.Phase() == sessions.PhasePlaying {
			return fail("There is no challenge or draw offer to answer here: /board shows the game, /draw offers a draw.")
		}
		return fail("There is no challenge here to answer: /play <game> @user starts one.")
	case sessions.ErrNotInvited:
		if isChallenger {
			return fail("This is your own challenge: wait for an opponent, or /cancel it.")
		}
		if cmd == "decline" && len(s.Record.Invited) == 0 {
			return fail("This challenge is open to anyone; you need not answer it (/accept to play).")
		}
		return fail("This challenge is for " + m.sp.waitingFor(s, me) + ", not for you: /play your own game when this one is over.")
	case sessions.ErrAlreadyJoined:
		if isChallenger {
			return fail("You opened this challenge: waiting for " + m.sp.waitingFor(s, me) + " to /accept (or /cancel it).")
		}
		return fail("You already have a seat: waiting for " + m.sp.waitingFor(s, me) + " to /accept.")
	case sessions.ErrNotChallenger:
		return fail(fmt.Sprintf("Only %s, who opened the challenge, can cancel it: /decline refuses it.", s.Record.Challenger.Name))
	case sessions.ErrNotPlayer:
		if cmd == "rematch" {
			return fail("You are not playing in the last game here, so there is no rematch for you: /play <game> @user starts a new one.")
		}
		if s == nil {
			return fail("No game is being played here: /play <game> @user starts one.")
		}
		if s.Phase() == sessions.PhasePlaying && len(s.Record.SeatsOf(me)) > 0 {
			return fail("You have left this game; the others play on without you: /board shows it.")
		}
		return fail(fmt.Sprintf("You are not playing in this game (%s): /board shows it.", m.sp.players(s)))
	case sessions.ErrNotYourTurn:
		return fail(fmt.Sprintf("It is %s's turn (%s), not yours: wait for their move; /board shows the game.", s.Player(s.Turn()).Name, m.sp.seatLabel(s, s.Turn())))
	case sessions.ErrIllegalMove:
		if cmd == "huff" {
			return fail(sentence(rulesMsg) + " " + huffHint(s))
		}
		return fail(illegalMove(s, rulesMsg))
	case sessions.ErrBadSetup:
		return fail(sentence(rulesMsg) + " Try /setup default, or /help setup.")
	case sessions.ErrNotNow:
		switch {
		case len(s.Pending()) > 0 && cmd != "setup":
			return fail("First each side chooses a formation: /setup default, or /setup and your squares.")
		case len(s.Pending()) > 0:
			return fail("You have chosen your formation: waiting for the other side's /setup.")
		case cmd == "setup":
			return fail("There is no set-up step now: /move plays a move.")
		case cmd == "huff" && rulesMsg != "":
			return fail(sentence(rulesMsg) + " " + huffHint(s))
		case cmd == "huff":
			return fail("This game has no huffing (only damas with huff=yes): /move plays a move.")
		case cmd == "draw" || cmd == "accept":
			return fail("The computer does not agree to draws: play on, or /resign.")
		}
		return fail("That is not possible now: /board shows the game.")
	case sessions.ErrBadOption:
		var bv *sessions.BadValue
		if errors.As(err, &bv) {
			return fail(fmt.Sprintf("%s=%s is not allowed (choose %s). /games lists the games and their options.",
				bv.Key, clip(bv.Value, 20), m.sp.orList(bv.Choices)))
		}
		if rulesMsg == "" {
			rulesMsg = se.Msg
		}
		return fail(asTyped(rulesMsg, m.Text) + " /games lists the games and their options.")
	case sessions.ErrAlreadyOffered:
		if cmd == "takeback" {
			who := "the other side"
			if s != nil && len(s.Record.Takeback) > 0 {
				who = m.sp.opponents(s, s.Record.Takeback[0])
			}
			return fail("You have asked already to take your last move back: waiting for " + who + " to /accept or /decline it.")
		}
		return fail("Your draw offer stands: waiting for the other side to /accept or /decline it.")
	case sessions.ErrDuplicate:
		r := fail("Already done: this command arrived twice and was applied once (/board shows the game).")
		r.Duplicate = true
		return r
	case sessions.ErrNoSuchGame:
		if cmd == "rematch" {
			return fail("No game has finished here yet to play again: /play <game> @user starts one.")
		}
		return fail("There is no finished game with that id here: /history lists the games with their ids.")
	case sessions.ErrNoTakeback:
		return fail("There is no move of yours to take back: only your last move, before the opponent replies. /board shows the game.")
	case sessions.ErrDamaged:
		return fail("This record is damaged in the bot's database and cannot be read (the bot's log says where); other games are not affected: /help.")
	case sessions.ErrBroken:
		h.log.Error("broken session", "session", m.Key.String(), "err", err)
		return fail("The game of this channel cannot be loaded (its record does not replay; the bot's log says why): /help.")
	}
	h.log.Error("command failed", "command", cmd, "session", m.Key.String(), "err", err)
	return fail("Sorry, the bot could not save that; nothing changed. Try again in a moment (/board shows the game).")
}

// everyMove matches the list of all the legal moves that some rules
// errors carry ("(legal: a2-b3, b3-a4, ... 7 in all)"): illegalMove gives
// its own list instead, the same for every game.
var everyMove = regexp.MustCompile(`\s*\(legal: [^()]*\)`)

// illegalMove answers a move the rules refused with one line: their
// reason, one list of a few legal moves (none of ours when the reason
// names legal moves already: the moves of that piece, the series that go
// on), and /moves.
func illegalMove(s *sessions.Snapshot, reason string) string {
	reason = sentence(everyMove.ReplaceAllString(reason, ""))
	if s == nil || s.State == nil {
		return reason + " /moves lists the legal moves."
	}
	moves := s.State.Moves()
	switch {
	case len(moves) == 0:
		return reason + " /board shows the game."
	case namesMoves(reason, moves):
		if len(moves) == 1 {
			return reason + " /moves shows the only legal move."
		}
		return fmt.Sprintf("%s /moves lists all %d legal moves.", reason, len(moves))
	case len(moves) == 1:
		return fmt.Sprintf("%s The only legal move: /move %s.", reason, moves[0].Text)
	}
	var texts []string
	for i, mv := range moves {
		if i == 5 {
			texts = append(texts, "…")
			break
		}
		texts = append(texts, mv.Text)
	}
	return fmt.Sprintf("%s Legal moves: %s (/moves lists all %d).", reason, strings.Join(texts, ", "), len(moves))
}

// namesMoves reports whether text names one of the moves.
func namesMoves(text string, moves []rules.Move) bool {
	words := strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`,()"`, r) })
	for _, w := range words {
		w = strings.TrimRight(w, ".:")
		for _, mv := range moves {
			if w == mv.Text {
				return true
			}
		}
	}
	return false
}

func huffHint(s *sessions.Snapshot) string {
	if s != nil && s.State != nil {
		if hf, ok := s.State.(rules.Huffer); ok {
			if sq := hf.Huffable(); len(sq) > 0 {
				var names []string
				for _, q := range sq {
					names = append(names, q.String())
				}
				return "You may huff " + strings.Join(names, ", ") + ": /huff <square>."
			}
		}
	}
	return "Nothing can be huffed now: /move plays a move."
}
