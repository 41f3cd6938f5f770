package ops

import "sync"

// PlatformState is where a platform's adapter is.
type PlatformState int

// The states of a platform.
const (
	// Starting: the adapter has not reached the platform yet.
	Starting PlatformState = iota
	// Connected: the adapter's last call to the platform (or its gateway)
	// got an answer.
	Connected
	// Retrying: the adapter lost the platform and is trying again.
	Retrying
	// Stopped: the adapter stopped.
	Stopped
)

// String returns the state's name in /readyz.
func (s PlatformState) String() string {
	switch s {
	case Connected:
		return "connected"
	case Retrying:
		return "retrying"
	case Stopped:
		return "stopped"
	}
	return "starting"
}

// Platform is a configured platform's state, which its adapter and the
// loop that restarts it set. Its methods may be called on a nil Platform
// (they do nothing; State says Starting).
type Platform struct {
	name string

	mu    sync.Mutex
	state PlatformState
	// up, when set, says whether the adapter is connected now (a gateway
	// connection); seen, that it was once.
	up   func() bool
	seen bool
}

// Probe gives the platform a way to ask its adapter whether it is
// connected now (Discord's gateway). State then asks it: connected when
// it is; retrying when it was once, or when the adapter is being started
// again; starting before; stopped once stopped.
func (p *Platform) Probe(up func() bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up = up
}

// Set sets the state.
func (p *Platform) Set(s PlatformState) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state = s
}

// State returns the state.
func (p *Platform) State() PlatformState {
	if p == nil {
		return Starting
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.up == nil || p.state == Stopped {
		return p.state
	}
	switch {
	case p.up():
		p.seen = true
		return Connected
	case p.seen || p.state == Retrying:
		return Retrying
	}
	return Starting
}
