package sessions

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/ai"
)

// The review's refusals (error kinds, listed in Kinds).
var (
	// ErrNotFinished: /review without an id where a game is still being
	// played: a review comes after the end.
	ErrNotFinished = errors.New("sessions: the game is not finished")
	// ErrPrivateGame: the game was played in another private chat, and
	// the user did not play in it.
	ErrPrivateGame = errors.New("sessions: another chat's private game")
)

// Reviewer computes a game's review: positions[i] is the state in which
// played[i] was played. (*ai.Player).Review is one.
type Reviewer func(ctx context.Context, positions []rules.State, played []rules.Move, o ai.ReviewOptions) (ai.Review, error)

// ReviewRequest asks for the review of a finished game.
type ReviewRequest struct {
	// Key is where the review is asked: a review that is not ready at
	// once is announced there (NoticeReviewed) when it is.
	Key Key
	// User asks: the review's searches are theirs among the computer's
	// searches (ai.WithOwner), and they have at most one review queued.
	User User
	// Game is the finished game's id ("812" or "#812"); empty: the last
	// game finished at Key, else the user's last finished game.
	Game string
}

// ReviewState says what Service.Review did.
type ReviewState int

// The review's states.
const (
	// ReviewReady: the review was stored already (ReviewResult.Record).
	ReviewReady ReviewState = iota + 1
	// ReviewQueued: the review is being computed, in the background; a
	// NoticeReviewed goes to the request's Key when it is stored.
	ReviewQueued
	// ReviewWaiting: the user has another review on its way
	// (ReviewResult.Pending, the id of its game): nothing was queued.
	ReviewWaiting
)

// ReviewResult is the answer of Service.Review.
type ReviewResult struct {
	State ReviewState
	// Game is the finished game, rebuilt (its Record.ID is the id).
	Game *Snapshot
	// Record is the stored review (ReviewReady), nil otherwise.
	Record *ReviewRecord
	// Pending is the id of the game whose review the user waits for
	// (ReviewWaiting).
	Pending string
}

// reviews is the Service's review queue: one worker computes the queued
// reviews in turn; a game is queued once, however many ask for it.
type reviews struct {
	nodes  int64
	auto   bool
	review Reviewer

	mu      sync.Mutex
	queue   []*reviewJob
	jobs    map[string]*reviewJob // by game id: queued or running
	users   map[string]string     // user key -> the game id of their queued review
	running bool
	memory  map[string]*ReviewRecord // when the store keeps no reviews
}

// reviewJob is one game's review, queued or running.
type reviewJob struct {
	rec   *Record
	owner string      // the search owner (ai.WithOwner)
	user  string      // the user key holding its queue place ("" for review.auto)
	tell  []reviewAsk // where to announce it, to whom
}

// reviewAsk is who asked for a review where.
type reviewAsk struct {
	key  Key
	user User
}

func newReviews(c Config, computer Computer) *reviews {
	r := &reviews{nodes: c.ReviewNodes, auto: c.ReviewAuto, review: c.Reviewer,
		jobs: map[string]*reviewJob{}, users: map[string]string{}, memory: map[string]*ReviewRecord{}}
	if r.nodes <= 0 {
		r.nodes = ai.DefaultReviewNodes
	}
	if r.review == nil {
		p, ok := computer.(*ai.Player)
		if !ok {
			p = ai.New(ai.Config{})
		}
		r.review = p.Review
	}
	return r
}

// Review returns the review of a finished game (ReviewRequest.Game, else
// the last game finished at the request's Key, else the user's): the
// stored one at once (ReviewReady), or it queues its computing in the
// background (ReviewQueued: a NoticeReviewed at req.Key tells when it is
// stored; then Review or StoredReview return it). The review's searches
// take turns with the computer's live searches as the user's
// (ai.WithOwner), at Config.ReviewNodes positions per ply. A user has at
// most one review queued: a second one for another game is ReviewWaiting,
// and nothing is queued; a game asked for by several users is computed
// once. On a store shared by several processes (ReviewClaimer), one
// process computes it and the others wait for it.
//
// Refusals: ErrNoSuchGame (no such finished game on this platform, or
// none to default to), ErrNotFinished (no id, and a game is being played
// at req.Key), ErrPrivateGame (a game of another private chat that the
// user did not play in).
func (s *Service) Review(ctx context.Context, req ReviewRequest) (ReviewResult, error) {
	rec, err := s.reviewedGame(ctx, req)
	if err != nil {
		return ReviewResult{}, err
	}
	snap, err := s.Replay(rec)
	if err != nil {
		s.log.Error("replaying a game failed", "game", rec.ID, "err", err)
		return ReviewResult{}, errf(ErrBroken, err, "game %q", rec.ID)
	}
	stored, err := s.StoredReview(ctx, rec.ID)
	if err != nil {
		return ReviewResult{}, err
	}
	if stored != nil {
		return ReviewResult{State: ReviewReady, Game: snap, Record: stored}, nil
	}
	if pending, queued := s.reviews.enqueue(s, rec, req); !queued {
		return ReviewResult{State: ReviewWaiting, Game: snap, Pending: pending}, nil
	}
	return ReviewResult{State: ReviewQueued, Game: snap}, nil
}

// StoredReview returns the stored review of the finished game with this
// id, without computing one: nil (and no error) when there is none yet.
func (s *Service) StoredReview(ctx context.Context, game string) (*ReviewRecord, error) {
	game = strings.TrimPrefix(strings.TrimSpace(game), "#")
	rs, ok := s.store.(ReviewStore)
	if !ok {
		s.reviews.mu.Lock()
		defer s.reviews.mu.Unlock()
		return s.reviews.memory[game], nil
	}
	r, err := rs.Review(ctx, game)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, nil
	case err != nil:
		s.storeFailed("reading a review failed", err, "game", game)
		return nil, errf(storeKind(err), err, "review of game %q", game)
	}
	return r, nil
}

// reviewedGame finds the finished game a review request names.
func (s *Service) reviewedGame(ctx context.Context, req ReviewRequest) (*Record, error) {
	id := strings.TrimPrefix(strings.TrimSpace(req.Game), "#")
	if id == "" {
		if snap, err := s.Look(ctx, req.Key); err == nil && snap.Phase() == PhasePlaying {
			return nil, &Error{Kind: ErrNotFinished, Msg: "a game is being played at " + req.Key.String(), Session: snap}
		}
		for _, q := range []HistoryQuery{{Platform: req.Key.Platform, Key: req.Key, Limit: 1}, {Platform: req.Key.Platform, User: req.User.ID, Limit: 1}} {
			if q.User == "" && q.Key == (Key{}) {
				continue
			}
			recs, err := s.History(ctx, q)
			if err != nil {
				return nil, err
			}
			if len(recs) > 0 {
				id = recs[0].ID
				break
			}
		}
		if id == "" {
			return nil, errf(ErrNoSuchGame, nil, "no finished game to review at %s", req.Key)
		}
	}
	rec, err := s.store.Finished(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, errf(ErrNoSuchGame, nil, "game %q", id)
	case err != nil:
		s.storeFailed("reading a game failed", err, "game", id)
		return nil, errf(storeKind(err), err, "game %q", id)
	case rec.Key.Platform != req.Key.Platform:
		return nil, errf(ErrNoSuchGame, nil, "game %q is of another platform", id)
	case rec.Community == "" && rec.Key.Channel != req.Key.Channel && !rec.Seated(req.User):
		return nil, errf(ErrPrivateGame, nil, "game %q of %s", id, rec.Key)
	}
	return rec, nil
}

// Seated reports whether u holds a seat of the game.
func (r *Record) Seated(u User) bool {
	for _, v := range r.Seats {
		if !v.IsZero() && !v.Computer && v.Is(u) {
			return true
		}
	}
	return false
}

// enqueue queues rec's review for req (or adds req.Key to the places
// told of a review already queued); queued is false when the user has
// another review on its way (pending, its game's id).
func (q *reviews) enqueue(s *Service, rec *Record, req ReviewRequest) (pending string, queued bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if j := q.jobs[rec.ID]; j != nil {
		if !slices.ContainsFunc(j.tell, func(a reviewAsk) bool { return a.key == req.Key }) {
			j.tell = append(j.tell, reviewAsk{req.Key, req.User})
		}
		return "", true
	}
	user := ""
	if !req.User.IsZero() {
		user = req.User.Key(req.Key.Platform)
		if g, ok := q.users[user]; ok {
			return g, false
		}
		q.users[user] = rec.ID
	}
	j := &reviewJob{rec: rec, owner: "user\x00" + user, user: user, tell: []reviewAsk{{req.Key, req.User}}}
	if user == "" {
		j.owner = "chat\x00" + req.Key.Platform + "\x00" + req.Key.Channel
	}
	q.push(s, j)
	return "", true
}

// enqueueAuto queues the review of a game that just ended (Config.ReviewAuto),
// announced nowhere.
func (q *reviews) enqueueAuto(s *Service, rec *Record) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.jobs[rec.ID] != nil {
		return
	}
	q.push(s, &reviewJob{rec: rec, owner: "review\x00auto"})
}

// push adds j to the queue and starts the worker if none runs. q.mu is held.
func (q *reviews) push(s *Service, j *reviewJob) {
	q.jobs[j.rec.ID] = j
	q.queue = append(q.queue, j)
	if q.running {
		return
	}
	q.running = true
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		q.work(s)
	}()
}

// work computes the queued reviews one after the other, until none is
// left or the Service closes.
func (q *reviews) work(s *Service) {
	for {
		q.mu.Lock()
		if len(q.queue) == 0 || s.base.Err() != nil {
			q.running = false
			q.mu.Unlock()
			return
		}
		j := q.queue[0]
		q.queue = q.queue[1:]
		q.mu.Unlock()

		done := s.runReview(s.base, j)

		q.mu.Lock()
		delete(q.jobs, j.rec.ID)
		if j.user != "" && q.users[j.user] == j.rec.ID {
			delete(q.users, j.user)
		}
		tell := j.tell
		q.mu.Unlock()
		if done {
			for _, a := range tell {
				s.send(s.base, Notice{Kind: NoticeReviewed, Key: a.key, Game: j.rec.ID, By: a.user})
			}
		}
	}
}

// runReview computes j's review and stores it, or waits for the process
// that computes it (ReviewClaimer); done reports that it is stored.
func (s *Service) runReview(ctx context.Context, j *reviewJob) (done bool) {
	claimer, shared := s.store.(ReviewClaimer)
	for ctx.Err() == nil {
		if r, err := s.StoredReview(ctx, j.rec.ID); err == nil && r != nil {
			return true
		}
		if !shared {
			return s.computeReview(ctx, j) == nil
		}
		release, ok, err := claimer.ClaimReview(ctx, j.rec.ID)
		if err != nil {
			s.log.Error("claiming a review failed", "game", j.rec.ID, "err", err)
			return false
		}
		if ok {
			err := s.computeReview(ctx, j)
			release()
			return err == nil
		}
		r, err := claimer.WaitReview(ctx, j.rec.ID)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Error("waiting for a review failed", "game", j.rec.ID, "err", err)
			}
			return false
		}
		if r != nil {
			return true
		}
		// The claim lapsed without a review: claim it again.
	}
	return false
}

// computeReview reviews j's game and stores the review.
func (s *Service) computeReview(ctx context.Context, j *reviewJob) error {
	positions, played, err := s.reviewInput(j.rec)
	if err != nil {
		s.log.Error("replaying a game for its review failed", "game", j.rec.ID, "err", err)
		return err
	}
	rv, err := s.reviews.review(ai.WithOwner(ctx, j.owner), positions, played, ai.ReviewOptions{Nodes: s.reviews.nodes})
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("reviewing a game failed", "game", j.rec.ID, "err", err)
		}
		return err
	}
	r := &ReviewRecord{V: 1, Game: j.rec.ID, Nodes: s.reviews.nodes, Made: s.now().UTC(), Review: rv}
	if rs, ok := s.store.(ReviewStore); ok {
		if err := rs.PutReview(ctx, r); err != nil {
			s.storeFailed("storing a review failed", err, "game", j.rec.ID)
			return err
		}
		return nil
	}
	s.reviews.mu.Lock()
	s.reviews.memory[r.Game] = r
	s.reviews.mu.Unlock()
	return nil
}

// reviewInput replays a finished game for its review: positions[i] is the
// state in which played[i] was played (after any huff or formation).
func (s *Service) reviewInput(rec *Record) (positions []rules.State, played []rules.Move, err error) {
	game, err := s.games(rec.Game, rec.Options)
	if err != nil {
		return nil, nil, err
	}
	st, err := startState(game, rec)
	if err != nil {
		return nil, nil, err
	}
	for _, a := range rec.Actions {
		next, m, err := apply(st, a)
		if err != nil {
			return nil, nil, err
		}
		if m != nil {
			positions = append(positions, st)
			played = append(played, *m)
		}
		st = next
	}
	return positions, played, nil
}

// reviewEnded queues the review of a rated game that just ended, when
// Config.ReviewAuto is set.
func (s *Service) reviewEnded(c *Change) {
	if s.reviews.auto && c.Finished != nil && c.Rate != nil && c.Rate.Rated && c.Finished.ID != "" {
		s.reviews.enqueueAuto(s, c.Finished)
	}
}
