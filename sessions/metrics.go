package sessions

import "time"

// Metrics is told what the Service does, for an operator's metrics
// (package ops counts it for Prometheus). Its methods are called on the
// move path: they must be quick and must not block. Config.Metrics nil
// counts nothing.
type Metrics interface {
	// Committed is called after every commit of a change to the store:
	// took is how long the store took, move whether the change played a
	// move (a player's, the computer's or the clock's), err the store's
	// failure (nil: committed; one wrapping ErrConflict: another process
	// changed the session first).
	Committed(took time.Duration, move bool, err error)
	// Loaded is called when a session is read from the store into memory.
	Loaded()
	// Fired is called when a clock comes due and the Service acts on it.
	Fired(d Deadline)
	// Ticked is called after every pass of the clocks (Tick).
	Ticked()
	// Searched is called after each search of the computer at level:
	// waited is how long it waited for its turn among the searches
	// (Config.Computer runs a few at a time), took how long it searched.
	Searched(level int, waited, took time.Duration)
}

// Deadline says what a clock coming due did.
type Deadline int

// The deadlines.
const (
	DeadlineReminder Deadline = iota + 1 // the reminder went out
	DeadlineAutoMove                     // the time ran out: the computer plays for the player
	DeadlineExpired                      // nobody answered a challenge: it is gone
)

// Deadlines lists every Deadline.
func Deadlines() []Deadline { return []Deadline{DeadlineReminder, DeadlineAutoMove, DeadlineExpired} }

// noMetrics counts nothing.
type noMetrics struct{}

func (noMetrics) Committed(time.Duration, bool, error)       {}
func (noMetrics) Loaded()                                    {}
func (noMetrics) Fired(Deadline)                             {}
func (noMetrics) Ticked()                                    {}
func (noMetrics) Searched(int, time.Duration, time.Duration) {}
