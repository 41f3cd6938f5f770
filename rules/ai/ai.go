package ai

import (
	"context"
	"errors"
	"math/bits"
	"strconv"
	"time"

	"github.com/boardgamebot/bot/rules"
	"github.com/boardgamebot/bot/rules/draughts"
	"github.com/boardgamebot/bot/rules/halma"
	"github.com/boardgamebot/bot/rules/ultradamas"
)

// Levels of play.
const (
	MinLevel     = 1
	MaxLevel     = 5
	DefaultLevel = 3
)

// Config sets a Player's resources.
type Config struct {
	// TableMB is the size of one search's transposition table in megabytes
	// (default 16).
	TableMB int
	// MaxTime is level 5's time budget and the most any search may take
	// (default 1 s).
	MaxTime time.Duration
	// Searches is how many searches may run at once (default 2); more
	// wait for a free table, taking turns between their owners (see
	// WithOwner). Memory is about Searches x TableMB.
	Searches int
}

// Player is the computer opponent. It is safe for concurrent use: each
// search takes one of a fixed number of transposition tables, handed out
// round robin between the searches' owners (WithOwner).
type Player struct {
	cfg   Config
	turns *turns
}

// New returns a Player with the given resources (zero fields take their
// defaults).
func New(cfg Config) *Player {
	if cfg.TableMB <= 0 {
		cfg.TableMB = 16
	}
	if cfg.MaxTime <= 0 {
		cfg.MaxTime = time.Second
	}
	if cfg.Searches <= 0 {
		cfg.Searches = 2
	}
	return &Player{cfg: cfg, turns: newTurns(cfg.Searches)}
}

// Options set one search. Level and Seed are what the bot's games use;
// Depth, Nodes and Time override the level's limits (tests, benchmarks).
type Options struct {
	Level int    // 1 to 5; 0 is DefaultLevel
	Seed  uint64 // decides between moves of equal value and the weak levels' mistakes
	Depth int    // the deepest iteration, in plies (0: the level's)
	Nodes int64  // stop after this many positions (0: the level's)
	// Time is the most the search may take (0: the level's share of
	// Config.MaxTime); Config.MaxTime caps it.
	Time time.Duration

	noLMR bool // tests: no late move reductions
	// untimed: no time limit at all, only Depth and Nodes (reviews, which
	// must give the same verdicts in every process).
	untimed bool
	// out, when set, receives what a review needs besides the Result.
	out *reviewOut
	// load is how many searches waited for a table when this one got its
	// own (0: as many as did; tests set it).
	load int
}

// Result is the move a search chose and what it saw.
type Result struct {
	Move  rules.Move
	Score int // for the side to move, in hundredths of a man (draughts); wins near ±30000
	Depth int // the deepest completed iteration, in plies
	Nodes int64
}

// level holds a level's limits for one family of games.
type level struct {
	depth int
	nodes int64
	noise int     // amplitude of the noise added to the evaluation of each position
	pick  int     // amplitude of the noise added to each move's score at the root
	time  float64 // share of MaxTime
}

// draughtsLevels are the levels of the draughts games:
// level 1 sees two plies through a noisy evaluation and drops pieces
// often; level 5 searches as deep as MaxTime allows.
var draughtsLevels = [MaxLevel + 1]level{
	{},
	{depth: 2, noise: 80, pick: 300, time: 0.2},
	{depth: 4, noise: 30, pick: 100, time: 0.3},
	{depth: 10, nodes: 800_000, noise: 20, time: 0.7},
	{depth: 16, nodes: 1_200_000, time: 1},
	{depth: maxPly - 8, time: 1},
}

// ultraLevels are the levels of Ultradamas, whose positions cost more to search.
var ultraLevels = [MaxLevel + 1]level{
	{},
	{depth: 2, noise: 80, pick: 300, time: 0.2},
	{depth: 4, noise: 30, pick: 100, time: 0.3},
	{depth: 8, nodes: 250_000, noise: 20, time: 0.7},
	{depth: 12, nodes: 500_000, time: 1},
	{depth: maxPly - 8, time: 1},
}

// halmaLevels are the levels of Halma (lookahead in plies: with four
// players, in moves of anyone).
var halmaLevels = [MaxLevel + 1]level{
	{},
	{depth: 1, noise: 10, pick: 40, time: 0.2},
	{depth: 2, noise: 4, pick: 12, time: 0.3},
	{depth: 2, time: 0.5},
	{depth: 3, nodes: 400_000, time: 1},
	{depth: maxPly - 8, time: 1},
}

// Move picks a move for the seat to move in s, at the given level (1-5,
// 0 for the default), and returns it as s.Moves lists it: Play(m.Text)
// plays it. Levels 1 to 4 stop at a depth and a number of positions, so
// the same state, level and seed give the same move (unless the time cap
// bites on a slow machine); level 5 searches for Config.MaxTime and may
// differ from run to run. A position with one legal move answers at once.
// When ctx is cancelled Move returns ctx.Err(); when ctx's deadline passes
// it returns the best move found so far.
func (pl *Player) Move(ctx context.Context, s rules.State, level int, seed uint64) (rules.Move, error) {
	r, err := pl.Search(ctx, s, Options{Level: level, Seed: seed})
	return r.Move, err
}

// Search is Move with its options spelled out and what the search saw.
func (pl *Player) Search(ctx context.Context, s rules.State, o Options) (Result, error) {
	if o.Level == 0 {
		o.Level = DefaultLevel
	}
	if o.Level < MinLevel || o.Level > MaxLevel {
		return Result{}, rules.Errorc(rules.ErrBadOption, rules.CodeBadLevel, []string{"Level", strconv.Itoa(o.Level), "Min", strconv.Itoa(MinLevel), "Max", strconv.Itoa(MaxLevel)}, "level %d is not allowed (choose %d to %d)", o.Level, MinLevel, MaxLevel)
	}
	if out := s.Outcome(); out.Over {
		return Result{}, rules.Errorc(rules.ErrGameOver, rules.CodeGameOver, nil, "the game is over (%s)", out.Reason)
	}
	if s.Turn() < 0 {
		return Result{}, rules.Errorf(rules.ErrNotNow, "no one may move yet")
	}
	legal := s.Moves()
	if len(legal) == 0 {
		return Result{}, rules.Errorc(rules.ErrGameOver, rules.CodeNoLegalMove, nil, "there is no legal move")
	}
	if len(legal) == 1 {
		return Result{Move: legal[0]}, nil
	}

	tt, w, ok := pl.turns.enqueue(OwnerOf(ctx))
	if !ok {
		g, err := pl.turns.wait(ctx, w)
		if err != nil {
			return Result{}, err
		}
		tt = g.t
		if o.load == 0 {
			o.load = g.behind
		}
	}
	if tt == nil {
		tt = newTable(pl.cfg.TableMB) // allocated on first use
	}
	defer pl.turns.release(tt)
	if started, ok := ctx.Value(startKey{}).(func()); ok {
		started()
	}

	r, err := pl.search(ctx, s, o, tt)
	if err != nil {
		return Result{}, err
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return Result{}, ctx.Err()
	}
	// Never trust a move: it must be one that the state plays, and it is
	// returned as the state describes it.
	_, played, err := s.Play(r.Move.Text)
	if err != nil || played.Text != r.Move.Text {
		return Result{}, rules.Errorf(rules.ErrIllegal, "the computer found no legal move (%q)", r.Move.Text)
	}
	r.Move = played
	return r, nil
}

// budget returns what a search at level o.Level in a family may spend:
// its limits, its context with the level's time (a share of
// Config.MaxTime), and, for level 5 while other searches wait, the context
// of its shorter time (see shortTime); cancel releases both contexts.
func (pl *Player) budget(ctx context.Context, o Options, table [MaxLevel + 1]level) (budget, context.CancelFunc) {
	lv := table[o.Level]
	lim := limits{depth: lv.depth, nodes: lv.nodes, noise: lv.noise, pick: lv.pick, seed: o.Seed, lmr: !o.noLMR}
	if o.Depth > 0 {
		lim.depth = min(o.Depth, maxPly-8)
	}
	if o.Nodes > 0 {
		lim.nodes = o.Nodes
	}
	if o.untimed {
		return budget{ctx: ctx, lim: lim}, func() {}
	}
	d := time.Duration(float64(pl.cfg.MaxTime) * lv.time)
	if o.Time > 0 {
		d = min(o.Time, pl.cfg.MaxTime)
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	b := budget{ctx: ctx, lim: lim}
	if o.Level != MaxLevel || o.Time > 0 || o.load <= 0 {
		return b, cancel
	}
	floor := table[MaxLevel-1]
	b.lim.floorDepth, b.lim.floorNodes = floor.depth, floor.nodes
	soft, cancelSoft := context.WithTimeout(ctx, pl.shortTime(o.load))
	b.soft = soft
	return b, func() { cancelSoft(); cancel() }
}

// shortTime is level 5's time while load searches wait behind it: its
// share of the Config.Searches tables over the searches running and
// waiting, Config.MaxTime x Searches / (Searches + load). Past it, the
// search stops once it has done at least level 4's work (level 4's depth,
// or the positions level 4 searches), so that level 5 under load is never
// weaker than level 4.
func (pl *Player) shortTime(load int) time.Duration {
	return time.Duration(int64(pl.cfg.MaxTime) * int64(pl.cfg.Searches) / int64(pl.cfg.Searches+load))
}

// search dispatches s to its game's engine.
func (pl *Player) search(ctx context.Context, s rules.State, o Options, tt *table) (Result, error) {
	switch st := s.(type) {
	case draughts.State:
		return pl.searchDraughts(ctx, st.Match(), o, tt)
	case draughts.HuffState:
		return pl.searchDraughts(ctx, st.Match(), o, tt)
	case *ultradamas.State:
		return pl.searchUltra(ctx, st.Position(), st.GameRecord().Positions(), o, tt)
	case *halma.State:
		return pl.searchHalma(ctx, st, o, tt)
	}
	// Another wrapper of a known game: rebuild the typed position from its FEN.
	g := s.Game()
	switch g.ID() {
	case "spanish", "damas", "dame":
		v, err := draughts.VariantFor(g.ID(), g.Options())
		if err != nil {
			return Result{}, err
		}
		p, err := v.ParseFEN(s.FEN())
		if err != nil {
			return Result{}, err
		}
		return pl.searchDraughts(ctx, draughts.NewGame(v, p), o, tt)
	case "ultradamas":
		p, err := ultradamas.ParseFEN(s.FEN())
		if err != nil {
			return Result{}, err
		}
		return pl.searchUltra(ctx, p, nil, o, tt)
	case "halma":
		hg, err := halma.NewFromOptions(g.Options())
		if err != nil {
			return Result{}, err
		}
		st, err := hg.LoadState(s.FEN())
		if err != nil {
			return Result{}, err
		}
		return pl.searchHalma(ctx, st, o, tt)
	}
	return Result{}, rules.Errorc(rules.ErrBadOption, rules.CodeNoComputer, []string{"Game", g.ID()}, "the computer does not play %s", g.ID())
}

func (pl *Player) searchDraughts(ctx context.Context, g draughts.Game, o Options, tt *table) (Result, error) {
	b, cancel := pl.budget(ctx, o, draughtsLevels)
	defer cancel()
	e := newDraughtsEngine(g.Variant())
	p := g.Position()
	before := map[uint64]bool{}
	// Only positions with the same men and the same number of pieces can
	// come back.
	for i := range g.Plies() {
		q := g.Before(i)
		if q.ToMove == p.ToMove && q.White&^q.Kings == p.White&^p.Kings && q.Black&^q.Kings == p.Black&^p.Kings &&
			bits.OnesCount32(q.White|q.Black) == bits.OnesCount32(p.White|p.Black) {
			before[draughtsHash(&q)] = true
		}
	}
	moves := e.moves(&p, nil)
	if len(moves) == 0 {
		return Result{}, rules.Errorc(rules.ErrGameOver, rules.CodeNoLegalMove, nil, "there is no legal move")
	}
	s := newSearcher[draughts.Position, draughts.Move](b, e, tt, before)
	r := s.run(&p, moves)
	if o.out != nil {
		o.out.balance = lineBalance(s, p, moves[r.index], draughtsCount)
	}
	return Result{Move: g.Variant().RulesMove(r.move), Score: r.score, Depth: r.depth, Nodes: s.nodes}, nil
}

func (pl *Player) searchUltra(ctx context.Context, p ultradamas.Position, history []ultradamas.Position, o Options, tt *table) (Result, error) {
	b, cancel := pl.budget(ctx, o, ultraLevels)
	defer cancel()
	e := &ultraEngine{}
	before := map[uint64]bool{}
	// Only the positions since the last capture or promotion can come back.
	for i := max(0, len(history)-1-p.Ply()); i+1 < len(history); i++ {
		if q := history[i]; q.Turn() == p.Turn() {
			before[e.hash(&q)] = true
		}
	}
	moves := e.moves(&p, nil)
	if len(moves) == 0 {
		return Result{}, rules.Errorc(rules.ErrGameOver, rules.CodeNoLegalMove, nil, "there is no legal move")
	}
	s := newSearcher[ultradamas.Position, ultradamas.Move, *ultraEngine](b, e, tt, before)
	r := s.run(&p, moves)
	if o.out != nil {
		o.out.balance = lineBalance(s, p, moves[r.index], ultraCount)
	}
	return Result{Move: p.RulesMove(r.move), Score: r.score, Depth: r.depth, Nodes: s.nodes}, nil
}

// Huff says which of the opponent's pieces the computer huffs before its
// move when s allows huffing (damas huff=yes): ok is false when there is
// nothing to huff. It tries each piece and keeps the one after which its
// search scores best; sessions then calls Huff on the state and Move on
// the result.
func (pl *Player) Huff(ctx context.Context, s rules.State, level int, seed uint64) (sq rules.Square, ok bool, err error) {
	h, is := s.(rules.Huffer)
	if !is {
		return rules.Square{}, false, nil
	}
	best := -infinity
	for _, c := range h.Huffable() {
		ns, err := h.Huff(c.String())
		if err != nil {
			continue
		}
		if out := ns.Outcome(); out.Over {
			return c, true, nil
		}
		r, err := pl.Search(ctx, ns, Options{Level: level, Seed: seed, Depth: 4})
		if err != nil {
			if ctx.Err() != nil {
				return rules.Square{}, false, ctx.Err()
			}
			continue
		}
		if !ok || r.Score > best {
			sq, ok, best = c, true, r.Score
		}
	}
	return sq, ok, nil
}
