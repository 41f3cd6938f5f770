package ops

import (
	"sync"
	"time"
)

// Loop is a background loop that /healthz watches (the clocks): while it
// runs it beats at least every Every; one silent for longer than
// Silence() is stuck, and the process is not healthy. A loop that does not
// run (the clocks in a process that does not lead them) is not watched.
// Its methods may be called on a nil Loop (they do nothing).
type Loop struct {
	name  string
	every time.Duration
	now   func() time.Time

	mu      sync.Mutex
	running bool
	last    time.Time
}

// Start marks the loop running, as if it had just beaten.
func (l *Loop) Start() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.running, l.last = true, l.now()
}

// Stop marks the loop stopped: it is no longer watched.
func (l *Loop) Stop() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.running = false
}

// Beat records that the loop turned.
func (l *Loop) Beat() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last = l.now()
}

// Silence is how long the loop may go without a beat before it is stuck:
// ten of its periods, and at least a minute (a pass of the clocks over
// many games due may take a while).
func (l *Loop) Silence() time.Duration { return max(10*l.every, time.Minute) }

// state says how the loop is: "turning", "standby" (not running), or
// "stuck" with how long it has been silent; ok is false when stuck.
func (l *Loop) state() (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.running {
		return "standby", true
	}
	if quiet := l.now().Sub(l.last); quiet > l.Silence() {
		return "stuck: no turn for " + quiet.Round(time.Second).String(), false
	}
	return "turning", true
}
