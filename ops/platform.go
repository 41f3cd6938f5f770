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

// Connected is the adapters' hook: true when the platform answered,
// false when the adapter lost it and tries again.
func (p *Platform) Connected(ok bool) {
	if ok {
		p.Set(Connected)
	} else {
		p.Set(Retrying)
	}
}

// State returns the state.
func (p *Platform) State() PlatformState {
	if p == nil {
		return Starting
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.state
}
