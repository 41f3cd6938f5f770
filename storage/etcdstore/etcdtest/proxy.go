package etcdtest

import (
	"net"
	"sync"
)

// Proxy forwards TCP connections on loopback to an etcd member's client
// address, and loses what a test tells it to: it stands between a client
// and a member, so that a test decides when a request, or its answer, is
// lost on the way, as a dying member or a network fault would.
type Proxy struct {
	ln     net.Listener
	target string
	wg     sync.WaitGroup

	mu    sync.Mutex
	mode  mode
	links map[*link]bool
}

// mode is what a Proxy does with the bytes it carries.
type mode int

const (
	forward      mode = iota // both ways
	holdAnswers              // the member's bytes are held back (never delivered)
	dropRequests             // a client's next bytes are dropped, and its connection reset
	blackhole                // nothing goes through, either way, new connections too
)

// link is one connection through the proxy: the client's and the one to
// the member.
type link struct{ client, member net.Conn }

// StartProxy starts a Proxy to the member's client address target
// (host:port). Close it when done.
func StartProxy(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, links: map[*link]bool{}}
	p.wg.Go(p.accept)
	return p, nil
}

// Addr is the proxy's address, host:port: the client's endpoint.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// HoldAnswers holds back everything the member sends from now on: a
// request sent after it reaches the member, which applies it, and its
// answer never comes. Reset ends it.
func (p *Proxy) HoldAnswers() { p.set(holdAnswers) }

// DropRequests drops the next bytes a client sends and resets its
// connection: the request never reaches the member. Then the proxy
// forwards again.
func (p *Proxy) DropRequests() { p.set(dropRequests) }

// Reset resets every connection through the proxy (the client reads
// "connection reset by peer"), losing what was held back, and forwards
// again: a client connects anew.
func (p *Proxy) Reset() { p.resetAll(forward) }

// Cut resets every connection through the proxy and lets nothing through
// from then on, on new connections either (they hang): etcd is out of
// reach. Reset ends it.
func (p *Proxy) Cut() { p.resetAll(blackhole) }

// resetAll resets every connection, then carries bytes as m says.
func (p *Proxy) resetAll(m mode) {
	p.mu.Lock()
	links := p.links
	p.links = map[*link]bool{}
	p.mode = m
	p.mu.Unlock()
	for l := range links {
		l.reset()
	}
}

// Close stops the proxy and resets its connections.
func (p *Proxy) Close() error {
	err := p.ln.Close()
	p.Reset()
	p.wg.Wait()
	return err
}

func (p *Proxy) set(m mode) {
	p.mu.Lock()
	p.mode = m
	p.mu.Unlock()
}

func (p *Proxy) now() mode {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		m, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		l := &link{client: c, member: m}
		p.mu.Lock()
		p.links[l] = true
		p.mu.Unlock()
		p.wg.Go(func() { p.pump(l, true) })
		p.wg.Go(func() { p.pump(l, false) })
	}
}

// pump carries the bytes of l one way (up: from the client to the
// member) until either side closes, doing what the proxy's mode says.
func (p *Proxy) pump(l *link, up bool) {
	from, to := l.member, l.client
	if up {
		from, to = l.client, l.member
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := from.Read(buf)
		if n > 0 {
			switch m := p.now(); {
			case m == blackhole, m == holdAnswers && !up:
				// lost
			case m == dropRequests && up:
				p.set(forward)
				p.drop(l)
				return
			default:
				if _, werr := to.Write(buf[:n]); werr != nil {
					p.drop(l)
					return
				}
			}
		}
		if err != nil {
			p.drop(l)
			return
		}
	}
}

// drop resets l and forgets it.
func (p *Proxy) drop(l *link) {
	p.mu.Lock()
	delete(p.links, l)
	p.mu.Unlock()
	l.reset()
}

// reset closes both connections of l, the client's with a reset (RST).
func (l *link) reset() {
	if tc, ok := l.client.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	l.client.Close()
	l.member.Close()
}
