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
	if line, ok := m.sp.tourError(cmd, err, se.Kind, nil); ok {
		return fail(line)
	}
	if se.Session == nil && sessionBound[se.Kind] {
		// These refusals are worded from the session: without one, say
		// only that it does not fit (never read a session that is not).
		h.log.Error("a refusal without its session", "command", cmd, m.Key.LogAttr(), "err", err)
		return fail(m.sp.T("RefusedNotNow"))
	}
	if word, ok := refusalWords[se.Kind]; ok {
		r := refusal{cmd: cmd, m: m, sp: m.sp, err: err, s: se.Session, me: m.User}
		var re *rules.Error
		if errors.As(err, &re) {
			r.rules = m.sp.rulesText(re)
		}
		return word(r)
	}
	switch se.Kind {
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

// refusal is what the words of a refusal read: the command refused, the
// message and its speaker, the error, the session it carries (nil when
// none) and the rules' reason worded from the catalogue ("" when none).
type refusal struct {
	cmd   string
	m     Message
	sp    Speaker
	err   error
	s     *sessions.Snapshot
	me    sessions.User
	rules string
}

// challenger reports whether the refused user opened the session.
func (r refusal) challenger() bool { return r.s != nil && r.s.Record.Challenger.Is(r.me) }

// fail is the refusal worded by the catalogue's message id.
func (r refusal) fail(id string, kv ...any) Reply { return fail(r.sp.T(id, kv...)) }

// refusalWords word the refusals of each kind of sessions' error that
// is the user's to mend (errorReply words the others).
var refusalWords = map[error]func(r refusal) Reply{
	sessions.ErrNoGame: func(r refusal) Reply { return r.fail("RefusedNoGame") },
	sessions.ErrNotStarted: func(r refusal) Reply {
		if r.challenger() {
			return r.fail("RefusedNotStartedChallenger", "Who", r.sp.waitingFor(r.s, r.me))
		}
		return r.fail("RefusedNotStarted", "Who", r.sp.waitingFor(r.s, r.me))
	},
	sessions.ErrGameRunning: func(r refusal) Reply {
		if r.s.Phase() == sessions.PhaseChallenge {
			return r.fail("RefusedChallengeOpen", "Name", r.s.Record.Challenger.Name, "Game", r.sp.gameTitle(r.s))
		}
		if r.cmd == "cancel" {
			return r.fail("RefusedCancelStarted")
		}
		return r.fail("RefusedGameRunning", "Game", r.sp.gameTitle(r.s), "Players", r.sp.players(r.s))
	},
	sessions.ErrNoChallenge: func(r refusal) Reply {
		if r.s != nil && r.s.Phase() == sessions.PhasePlaying {
			return r.fail("RefusedNothingToAnswerPlaying")
		}
		return r.fail("RefusedNoChallenge")
	},
	sessions.ErrNotInvited: func(r refusal) Reply {
		if r.challenger() {
			return r.fail("RefusedOwnChallenge")
		}
		if r.cmd == "decline" && len(r.s.Record.Invited) == 0 {
			return r.fail("RefusedDeclineOpen")
		}
		return r.fail("RefusedNotInvited", "Who", r.sp.waitingFor(r.s, r.me))
	},
	sessions.ErrAlreadyJoined: func(r refusal) Reply {
		if r.challenger() {
			return r.fail("RefusedAlreadyJoinedChallenger", "Who", r.sp.waitingFor(r.s, r.me))
		}
		return r.fail("RefusedAlreadyJoined", "Who", r.sp.waitingFor(r.s, r.me))
	},
	sessions.ErrNotChallenger: func(r refusal) Reply {
		return r.fail("RefusedNotChallenger", "Name", r.s.Record.Challenger.Name)
	},
	sessions.ErrNotPlayer: func(r refusal) Reply {
		switch {
		case r.cmd == "rematch":
			return r.fail("RefusedRematchNotPlayer")
		case r.s == nil:
			return r.fail("RefusedNoGameShort")
		case r.s.Phase() == sessions.PhasePlaying && len(r.s.Record.SeatsOf(r.me)) > 0:
			return r.fail("RefusedLeft")
		}
		return r.fail("RefusedNotPlayer", "Players", r.sp.players(r.s))
	},
	sessions.ErrNotYourTurn: func(r refusal) Reply {
		return r.fail("RefusedNotYourTurn", "Name", r.s.Player(r.s.Turn()).Name, "Seat", r.sp.seatLabel(r.s, r.s.Turn()))
	},
	sessions.ErrIllegalMove: func(r refusal) Reply {
		if r.rules == "" {
			r.rules = r.sp.T("RulesKindIllegal")
		}
		if r.cmd == "huff" {
			return r.fail("RefusedHuff", "Rules", r.rules, "Hint", r.sp.huffHint(r.s))
		}
		return fail(r.sp.illegalMove(r.s, r.rules))
	},
	sessions.ErrBadSetup: func(r refusal) Reply {
		if r.rules == "" {
			r.rules = r.sp.T("RulesKindBadPosition")
		}
		return r.fail("RefusedBadSetup", "Rules", r.rules)
	},
	sessions.ErrNotNow:    refuseNotNow,
	sessions.ErrBadOption: refuseBadOption,
	sessions.ErrAlreadyOffered: func(r refusal) Reply {
		if r.cmd == "takeback" {
			who := r.sp.T("TheOtherSide")
			if r.s != nil && len(r.s.Record.Takeback) > 0 {
				who = r.sp.opponents(r.s, r.s.Record.Takeback[0])
			}
			return r.fail("RefusedTakebackAsked", "Who", who)
		}
		return r.fail("RefusedDrawOffered")
	},
	sessions.ErrDuplicate: func(r refusal) Reply {
		out := r.fail("RefusedDuplicate")
		out.Duplicate = true
		return out
	},
	sessions.ErrNoSuchGame: func(r refusal) Reply {
		if r.cmd == "rematch" {
			return r.fail("RefusedNoRematch")
		}
		return r.fail("RefusedNoSuchGame")
	},
	sessions.ErrNoTakeback:  func(r refusal) Reply { return r.fail("RefusedNoTakeback") },
	sessions.ErrNotFinished: func(r refusal) Reply { return r.fail("RefusedNotFinished") },
	sessions.ErrPrivateGame: func(r refusal) Reply { return r.fail("RefusedPrivateGame") },
	sessions.ErrCapped:      func(r refusal) Reply { return fail(r.sp.cappedLine(r.err, r.m)) },
}

// refuseNotNow words ErrNotNow: a setup to finish first, or none to do,
// a huff that does not fit, a draw the computer does not take.
func refuseNotNow(r refusal) Reply {
	switch {
	case len(r.s.Pending()) > 0 && r.cmd != "setup":
		return r.fail("RefusedSetupFirst")
	case len(r.s.Pending()) > 0:
		return r.fail("RefusedSetupDone")
	case r.cmd == "setup":
		return r.fail("RefusedNoSetup")
	case r.cmd == "huff" && r.rules != "":
		return r.fail("RefusedHuff", "Rules", r.rules, "Hint", r.sp.huffHint(r.s))
	case r.cmd == "huff":
		return r.fail("RefusedNoHuff")
	case r.cmd == "draw" || r.cmd == "accept":
		return r.fail("RefusedComputerDraw")
	}
	return r.fail("RefusedNotNow")
}

// refuseBadOption words ErrBadOption: a value not among the choices (a
// tournament's own words for its terms), an invitation that does not
// fit, or the rules' reason.
func refuseBadOption(r refusal) Reply {
	tour := strings.HasPrefix(r.cmd, "tournament")
	var bv *sessions.BadValue
	if errors.As(r.err, &bv) {
		switch {
		case bv.Key == "players" && tour:
			return r.fail("TourNoFourPlayers", "Value", clip(bv.Value, 20))
		case tour:
			return r.fail("TourBadValue", "Key", bv.Key, "Value", clip(bv.Value, 20), "Choices", r.sp.orList(bv.Choices))
		}
		return r.fail("RefusedBadValue", "Key", bv.Key, "Value", clip(bv.Value, 20), "Choices", r.sp.orList(bv.Choices))
	}
	var bi *sessions.BadInvite
	if errors.As(r.err, &bi) {
		return fail(r.sp.badInvite(bi))
	}
	if r.rules == "" {
		// A cause with no code: its words come from the catalogue,
		// never from the sessions' own text.
		r.rules = r.sp.T("RulesKindBadOption")
	}
	return r.fail("RefusedBadOption", "Rules", r.rules)
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
