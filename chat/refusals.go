package chat

import (
	"errors"
	"strings"
	"unicode"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/sessions"
)

// ---- errors: the one place that turns them into text ----

// errorReply turns an error of the sessions service into one line that ends
// with the command that helps.
func (h *Handler) errorReply(cmd string, m Message, err error) Reply {
	if m.sp.c == nil { // called outside Handle
		m.sp = h.words.In(h.words.LangOf(m.Lang))
	}
	var se *sessions.Error
	if !errors.As(err, &se) {
		h.log.Error("unexpected error", "command", cmd, m.Key.LogAttr(), "err", err)
		return failure(m.sp.T("RefusedUnexpected"))
	}
	s := se.Session
	me := m.User
	isChallenger := s != nil && s.Record.Challenger.Is(me)
	// rulesMsg is the rules' reason, worded from the catalogue.
	rulesMsg := ""
	var re *rules.Error
	if errors.As(err, &re) {
		rulesMsg = m.sp.rulesText(re)
	}
	if line, ok := m.sp.tourError(cmd, err, se.Kind, nil); ok {
		return fail(line)
	}
	if s == nil && sessionBound[se.Kind] {
		// These refusals are worded from the session: without one, say
		// only that it does not fit (never read a session that is not).
		h.log.Error("a refusal without its session", "command", cmd, m.Key.LogAttr(), "err", err)
		return fail(m.sp.T("RefusedNotNow"))
	}
	switch se.Kind {
	case sessions.ErrNoGame:
		return fail(m.sp.T("RefusedNoGame"))
	case sessions.ErrNotStarted:
		if isChallenger {
			return fail(m.sp.T("RefusedNotStartedChallenger", "Who", m.sp.waitingFor(s, me)))
		}
		return fail(m.sp.T("RefusedNotStarted", "Who", m.sp.waitingFor(s, me)))
	case sessions.ErrGameRunning:
		if s.Phase() == sessions.PhaseChallenge {
			return fail(m.sp.T("RefusedChallengeOpen", "Name", s.Record.Challenger.Name, "Game", m.sp.gameTitle(s)))
		}
		if cmd == "cancel" {
			return fail(m.sp.T("RefusedCancelStarted"))
		}
		return fail(m.sp.T("RefusedGameRunning", "Game", m.sp.gameTitle(s), "Players", m.sp.players(s)))
	case sessions.ErrNoChallenge:
		if s != nil && s.Phase() == sessions.PhasePlaying {
			return fail(m.sp.T("RefusedNothingToAnswerPlaying"))
		}
		return fail(m.sp.T("RefusedNoChallenge"))
	case sessions.ErrNotInvited:
		if isChallenger {
			return fail(m.sp.T("RefusedOwnChallenge"))
		}
		if cmd == "decline" && len(s.Record.Invited) == 0 {
			return fail(m.sp.T("RefusedDeclineOpen"))
		}
		return fail(m.sp.T("RefusedNotInvited", "Who", m.sp.waitingFor(s, me)))
	case sessions.ErrAlreadyJoined:
		if isChallenger {
			return fail(m.sp.T("RefusedAlreadyJoinedChallenger", "Who", m.sp.waitingFor(s, me)))
		}
		return fail(m.sp.T("RefusedAlreadyJoined", "Who", m.sp.waitingFor(s, me)))
	case sessions.ErrNotChallenger:
		return fail(m.sp.T("RefusedNotChallenger", "Name", s.Record.Challenger.Name))
	case sessions.ErrNotPlayer:
		if cmd == "rematch" {
			return fail(m.sp.T("RefusedRematchNotPlayer"))
		}
		if s == nil {
			return fail(m.sp.T("RefusedNoGameShort"))
		}
		if s.Phase() == sessions.PhasePlaying && len(s.Record.SeatsOf(me)) > 0 {
			return fail(m.sp.T("RefusedLeft"))
		}
		return fail(m.sp.T("RefusedNotPlayer", "Players", m.sp.players(s)))
	case sessions.ErrNotYourTurn:
		return fail(m.sp.T("RefusedNotYourTurn", "Name", s.Player(s.Turn()).Name, "Seat", m.sp.seatLabel(s, s.Turn())))
	case sessions.ErrIllegalMove:
		if rulesMsg == "" {
			rulesMsg = m.sp.T("RulesKindIllegal")
		}
		if cmd == "huff" {
			return fail(m.sp.T("RefusedHuff", "Rules", rulesMsg, "Hint", m.sp.huffHint(s)))
		}
		return fail(m.sp.illegalMove(s, rulesMsg))
	case sessions.ErrBadSetup:
		if rulesMsg == "" {
			rulesMsg = m.sp.T("RulesKindBadPosition")
		}
		return fail(m.sp.T("RefusedBadSetup", "Rules", rulesMsg))
	case sessions.ErrNotNow:
		switch {
		case len(s.Pending()) > 0 && cmd != "setup":
			return fail(m.sp.T("RefusedSetupFirst"))
		case len(s.Pending()) > 0:
			return fail(m.sp.T("RefusedSetupDone"))
		case cmd == "setup":
			return fail(m.sp.T("RefusedNoSetup"))
		case cmd == "huff" && rulesMsg != "":
			return fail(m.sp.T("RefusedHuff", "Rules", rulesMsg, "Hint", m.sp.huffHint(s)))
		case cmd == "huff":
			return fail(m.sp.T("RefusedNoHuff"))
		case cmd == "draw" || cmd == "accept":
			return fail(m.sp.T("RefusedComputerDraw"))
		}
		return fail(m.sp.T("RefusedNotNow"))
	case sessions.ErrBadOption:
		var bv *sessions.BadValue
		if errors.As(err, &bv) && bv.Key == "players" && strings.HasPrefix(cmd, "tournament") {
			return fail(m.sp.T("TourNoFourPlayers", "Value", clip(bv.Value, 20)))
		}
		if errors.As(err, &bv) && strings.HasPrefix(cmd, "tournament") {
			return fail(m.sp.T("TourBadValue", "Key", bv.Key, "Value", clip(bv.Value, 20), "Choices", m.sp.orList(bv.Choices)))
		}
		if errors.As(err, &bv) {
			return fail(m.sp.T("RefusedBadValue", "Key", bv.Key, "Value", clip(bv.Value, 20), "Choices", m.sp.orList(bv.Choices)))
		}
		var bi *sessions.BadInvite
		if errors.As(err, &bi) {
			return fail(m.sp.badInvite(bi))
		}
		if rulesMsg == "" {
			// A cause with no code: its words come from the catalogue,
			// never from the sessions' own text.
			rulesMsg = m.sp.T("RulesKindBadOption")
		}
		return fail(m.sp.T("RefusedBadOption", "Rules", rulesMsg))
	case sessions.ErrAlreadyOffered:
		if cmd == "takeback" {
			who := m.sp.T("TheOtherSide")
			if s != nil && len(s.Record.Takeback) > 0 {
				who = m.sp.opponents(s, s.Record.Takeback[0])
			}
			return fail(m.sp.T("RefusedTakebackAsked", "Who", who))
		}
		return fail(m.sp.T("RefusedDrawOffered"))
	case sessions.ErrDuplicate:
		r := fail(m.sp.T("RefusedDuplicate"))
		r.Duplicate = true
		return r
	case sessions.ErrNoSuchGame:
		if cmd == "rematch" {
			return fail(m.sp.T("RefusedNoRematch"))
		}
		return fail(m.sp.T("RefusedNoSuchGame"))
	case sessions.ErrNoTakeback:
		return fail(m.sp.T("RefusedNoTakeback"))
	case sessions.ErrCapped:
		return fail(m.sp.cappedLine(err, m))
	case sessions.ErrDamaged:
		return failure(m.sp.T("RefusedDamaged"))
	case sessions.ErrUnknownOutcome:
		// The Service logged it.
		return failure(m.sp.T("RefusedUnknownOutcome"))
	case sessions.ErrBroken:
		h.log.Error("broken session", m.Key.LogAttr(), "err", err)
		return failure(m.sp.T("RefusedBroken"))
	}
	h.log.Error("command failed", "command", cmd, m.Key.LogAttr(), "err", err)
	return failure(m.sp.T("RefusedStorage"))
}

// sessionBound are the kinds whose refusal is worded from the session
// the error carries (whose turn it is, who must answer).
var sessionBound = map[error]bool{sessions.ErrNotStarted: true, sessions.ErrGameRunning: true, sessions.ErrNotInvited: true,
	sessions.ErrAlreadyJoined: true, sessions.ErrNotChallenger: true, sessions.ErrNotYourTurn: true, sessions.ErrNotNow: true}

// illegalMove answers a move the rules refused with one line: their
// reason, one list of a few legal moves (none of ours when the reason
// names legal moves already: the moves of that piece, the series that go
// on), and /moves.
func (p Speaker) illegalMove(s *sessions.Snapshot, reason string) string {
	if reason == "" {
		reason = p.T("RulesKindIllegal")
	}
	if s == nil || s.State == nil {
		return p.T("IllegalMoves", "Rules", reason)
	}
	moves := s.State.Moves()
	switch {
	case len(moves) == 0:
		return p.T("IllegalNoMoves", "Rules", reason)
	case namesMoves(reason, moves):
		if len(moves) == 1 {
			return p.T("IllegalNamedOnly", "Rules", reason)
		}
		return p.T("IllegalNamed", "Rules", reason, "Count", len(moves))
	case len(moves) == 1:
		return p.T("IllegalOnly", "Rules", reason, "Move", moves[0].Text)
	}
	var texts []string
	for i, mv := range moves {
		if i == 5 {
			texts = append(texts, "…")
			break
		}
		texts = append(texts, mv.Text)
	}
	return p.T("IllegalSome", "Rules", reason, "Moves", strings.Join(texts, ", "), "Count", len(moves))
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

func (p Speaker) huffHint(s *sessions.Snapshot) string {
	if s != nil && s.State != nil {
		if hf, ok := s.State.(rules.Huffer); ok {
			if sq := hf.Huffable(); len(sq) > 0 {
				var names []string
				for _, q := range sq {
					names = append(names, q.String())
				}
				return p.T("HuffHint", "Squares", strings.Join(names, ", "))
			}
		}
	}
	return p.T("HuffNothing")
}

// badInvite words a challenge naming the wrong players.
func (p Speaker) badInvite(b *sessions.BadInvite) string {
	switch b.Problem {
	case sessions.InviteTooMany:
		return p.T("RefusedInviteTooMany", "Game", b.Game, "Players", b.Players, "Count", b.Players-1)
	case sessions.InviteTwice:
		return p.T("RefusedInviteTwice", "Name", b.Name)
	}
	return p.T("RefusedInviteComputer")
}
