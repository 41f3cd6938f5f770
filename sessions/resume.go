package sessions

import (
	"context"
	"errors"
	"fmt"

	"github.com/boardgamebot/bot/rules"
)

// Resume reads the heads of the live sessions (their records without
// their moves) and returns how many there are. It loads no game: a
// session is loaded on first use (a command, or the clock when it comes
// due: Resume gives the clock each session's due time). Only the games
// where the computer is to play are loaded, so that it plays. A damaged
// record is logged and skipped (its channel answers with ErrDamaged); a
// record that does not replay answers with ErrBroken when used; only a
// failing store is an error.
func (s *Service) Resume(ctx context.Context) (int, error) {
	index, err := s.store.LiveIndex(ctx)
	switch {
	case errors.Is(err, ErrDamaged):
		s.log.Error("resuming: damaged sessions skipped", "err", err)
	case err != nil:
		return 0, errf(ErrStorage, err, "listing sessions")
	}
	var computer []Key
	s.mu.Lock()
	for _, x := range index {
		if !x.Due.IsZero() {
			s.due[x.Key] = x.Due
		}
		if x.Computer {
			computer = append(computer, x.Key)
		}
	}
	s.mu.Unlock()
	for _, k := range computer {
		if e, err := s.acquire(ctx, k); err == nil { // acquire logged a failure
			s.release(e)
		}
	}
	s.tournaments.resumeTournaments(ctx)
	return len(index), nil
}

// Replay rebuilds the game state of a record (a live session or a finished
// game) by playing its actions from the start; it also returns the last move.
func (s *Service) Replay(rec *Record) (*Snapshot, error) {
	l, err := s.rebuild(rec)
	if err != nil {
		return nil, err
	}
	return l.snapshot(), nil
}

func (s *Service) rebuild(rec *Record) (*live, error) {
	if rec.V < OldestRecordVersion || rec.V > RecordVersion {
		return nil, fmt.Errorf("record version %d, want %d to %d", rec.V, OldestRecordVersion, RecordVersion)
	}
	rec.V = RecordVersion // Result.UnmarshalJSON read an old result as codes
	game, err := s.games(rec.Game, rec.Options)
	if err != nil {
		return nil, err
	}
	l := &live{rec: rec, game: game}
	if rec.Phase() == PhaseChallenge {
		return l, nil
	}
	st, err := startState(game, rec)
	if err != nil {
		return nil, err
	}
	for i, a := range rec.Actions {
		var m *rules.Move
		st, m, err = apply(st, a)
		if err != nil {
			return nil, fmt.Errorf("action %d (%s %q): %w", i+1, a.Kind, a.Text, err)
		}
		if m != nil {
			l.last = m
		}
	}
	l.state = st
	return l, nil
}

// resume rebuilds a live session: from its snapshot (Record.Snap) when
// its game is a rules.Restorer that reads it, playing the actions after
// it; else, or when the snapshot does not restore or the actions after it
// do not play, by replaying every action (rebuild).
func (s *Service) resume(rec *Record) (*live, error) {
	if rec.Snap == nil || rec.SnapAt > len(rec.Actions) || rec.Phase() != PhasePlaying || rec.V != RecordVersion {
		return s.rebuild(rec)
	}
	game, err := s.games(rec.Game, rec.Options)
	if err != nil {
		return nil, err
	}
	rs, ok := game.(rules.Restorer)
	if !ok {
		return s.rebuild(rec)
	}
	st, err := rs.Restore(rec.Snap)
	if err != nil {
		s.log.Warn("snapshot does not restore: replaying the session", rec.Key.LogAttr(), "err", err)
		return s.rebuild(rec)
	}
	l := &live{rec: rec, game: game}
	for i, a := range rec.Actions[rec.SnapAt:] {
		var m *rules.Move
		if st, m, err = apply(st, a); err != nil {
			s.log.Warn("action after the snapshot does not play: replaying the session", rec.Key.LogAttr(),
				"action", rec.SnapAt+i+1, "err", err)
			return s.rebuild(rec)
		}
		if m != nil {
			l.last = m
		}
	}
	l.state = st
	return l, nil
}

func startState(game rules.Game, rec *Record) (rules.State, error) {
	if rec.Start != "" {
		return game.Load(rec.Start)
	}
	return game.Start(rec.First), nil
}

func apply(st rules.State, a Action) (rules.State, *rules.Move, error) {
	switch a.Kind {
	case ActMove:
		next, m, err := st.Play(a.Text)
		if err != nil {
			return nil, nil, err
		}
		return next, &m, nil
	case ActForm:
		f, ok := st.(rules.Former)
		if !ok {
			return nil, nil, errors.New("no formation step")
		}
		next, err := f.Form(a.Seat, a.Text)
		return next, nil, err
	case ActHuff:
		h, ok := st.(rules.Huffer)
		if !ok {
			return nil, nil, errors.New("no huffing")
		}
		next, err := h.Huff(a.Text)
		return next, nil, err
	case ActRetire:
		r, ok := st.(rules.Retirer)
		if !ok {
			return nil, nil, errors.New("no retiring")
		}
		next, err := r.Retire(a.Seat)
		return next, nil, err
	}
	return nil, nil, fmt.Errorf("unknown action %q", a.Kind)
}
