package sessions

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/boardgamebot/bot/rules"
)

// Game returns the finished game with the given id, played on the
// platform, rebuilt: ErrNoSuchGame when there is none.
func (s *Service) Game(ctx context.Context, platform, id string) (*Snapshot, error) {
	id = strings.TrimPrefix(strings.TrimSpace(id), "#")
	rec, err := s.store.Finished(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, errf(ErrNoSuchGame, nil, "game %q", id)
	case err != nil:
		s.storeFailed("reading a game failed", err, "game", id)
		return nil, errf(storeKind(err), err, "game %q", id)
	case rec.Key.Platform != platform:
		return nil, errf(ErrNoSuchGame, nil, "game %q is of another platform", id)
	}
	snap, err := s.Replay(rec)
	if err != nil {
		s.log.Error("replaying a game failed", "game", id, "err", err)
		return nil, errf(ErrBroken, err, "game %q", id)
	}
	return snap, nil
}

// Frames replays a game for an animation: views[0] is the position before
// the first move (after the formations) and views[i] the position after
// moves[i-1]. A huff, or a player leaving (ActRetire), shows in the frame
// of the move after it.
func (s *Service) Frames(rec *Record) (views []rules.View, moves []rules.Move, err error) {
	game, err := s.games(rec.Game, rec.Options)
	if err != nil {
		return nil, nil, errf(ErrBroken, err, "game %q", rec.ID)
	}
	st, err := startState(game, rec)
	if err != nil {
		return nil, nil, errf(ErrBroken, err, "game %q", rec.ID)
	}
	started := false
	for _, a := range rec.Actions {
		if a.Kind == ActMove && !started {
			views = append(views, st.View())
			started = true
		}
		next, m, err := apply(st, a)
		if err != nil {
			return nil, nil, errf(ErrBroken, err, "game %q", rec.ID)
		}
		st = next
		if m != nil {
			views = append(views, st.View())
			moves = append(moves, *m)
		}
	}
	if !started {
		views = append(views, st.View())
	}
	return views, moves, nil
}

// History returns finished games (see HistoryQuery), newest first.
func (s *Service) History(ctx context.Context, q HistoryQuery) ([]*Record, error) {
	recs, err := s.store.History(ctx, q)
	if err != nil {
		s.storeFailed("reading the history failed", err)
		return nil, errf(storeKind(err), err, "history")
	}
	return recs, nil
}

// Standings returns a user's ratings: every game's, or one game's.
func (s *Service) Standings(ctx context.Context, platform, userID, game string) ([]Standing, error) {
	out, err := s.store.Standings(ctx, platform, userID, game)
	if err != nil {
		s.storeFailed("reading ratings failed", err)
		return nil, errf(storeKind(err), err, "ratings")
	}
	return out, nil
}

// Top returns the head of a ladder and a player's place in it.
func (s *Service) Top(ctx context.Context, q TopQuery) (Ladder, error) {
	l, err := s.store.Top(ctx, q)
	if err != nil {
		s.storeFailed("reading the ladder failed", err)
		return Ladder{}, errf(storeKind(err), err, "ladder")
	}
	return l, nil
}

// FindUser returns the platform's user who last finished a game under the
// name; ok is false when no one did.
func (s *Service) FindUser(ctx context.Context, platform, name string) (u User, ok bool, err error) {
	u, err = s.store.FindUser(ctx, platform, name)
	switch {
	case errors.Is(err, ErrNotFound):
		return User{}, false, nil
	case err != nil:
		return User{}, false, errf(storeKind(err), err, "user %q", name)
	}
	return u, true, nil
}

// Now is the Service's clock (Config.Now).
func (s *Service) Now() time.Time { return s.now() }

// DefaultTime is the time per move of a /play without time= on platform
// (Config.DefaultTime); 0 (off) when none is configured.
func (s *Service) DefaultTime(platform string) Duration {
	if s.defaultTime == nil {
		return 0
	}
	return max(s.defaultTime(platform), 0)
}
