package sessions

import (
	"context"
	"errors"
)

// LinkGenerations is the optional part of a Store that keeps each user's
// link generation: a number carried in every link the web board gives the
// user, checked on every request. /web revoke raises it, so that every
// link given before ends at once, in every process on the store. A user
// never revoked is at generation 0.
type LinkGenerations interface {
	// LinkGeneration returns the user's generation (0 for none kept).
	LinkGeneration(ctx context.Context, platform, user string) (uint64, error)
	// RaiseLinkGeneration adds one to the user's generation, and returns
	// the new one.
	RaiseLinkGeneration(ctx context.Context, platform, user string) (uint64, error)
}

// ErrNoLinkGenerations: the store keeps no link generations, so links
// cannot be revoked one user at a time.
var ErrNoLinkGenerations = errors.New("sessions: the store keeps no link generations")

// LinkGeneration returns u's link generation on platform: 0 when the
// store keeps none.
func (s *Service) LinkGeneration(ctx context.Context, platform string, u User) (uint64, error) {
	g, ok := s.store.(LinkGenerations)
	if !ok || u.ID == "" {
		return 0, nil
	}
	return g.LinkGeneration(ctx, platform, u.ID)
}

// RevokeLinks ends every web link given to u on platform before now (its
// generation raised), and returns the new generation; other users' links
// stay. ErrNoLinkGenerations when the store keeps none.
func (s *Service) RevokeLinks(ctx context.Context, platform string, u User) (uint64, error) {
	g, ok := s.store.(LinkGenerations)
	if !ok {
		return 0, ErrNoLinkGenerations
	}
	if u.ID == "" {
		return 0, errors.New("sessions: revoking the links of nobody")
	}
	return g.RaiseLinkGeneration(ctx, platform, u.ID)
}
