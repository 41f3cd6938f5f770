package storage

import (
	"context"
	"errors"

	"github.com/boardgamebot/bot/sessions"
)

// errNoTournaments: tournaments are not stored here yet (issue 19 in progress).
var errNoTournaments = errors.New("storage: tournaments not stored yet")

// PutTournament implements sessions.Store.
func (s *Store) PutTournament(ctx context.Context, t *sessions.Tournament) error {
	return errNoTournaments
}

// Tournament implements sessions.Store.
func (s *Store) Tournament(ctx context.Context, id string) (*sessions.Tournament, error) {
	return nil, errNoTournaments
}

// ActiveTournaments implements sessions.Store.
func (s *Store) ActiveTournaments(ctx context.Context) ([]*sessions.Tournament, error) {
	return nil, nil
}

// TournamentsAt implements sessions.Store.
func (s *Store) TournamentsAt(ctx context.Context, key sessions.Key, limit int) ([]*sessions.Tournament, error) {
	return nil, nil
}
