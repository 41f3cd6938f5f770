package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// A stream is one page's live connection (Server-Sent Events): the hub
// writes each event to it; a write that fails or takes longer than its
// deadline ends it, and the page connects again.
type stream interface {
	// write sends b whole before deadline, or fails.
	write(b []byte, deadline time.Time) error
	// close ends the stream.
	close()
}

// sseHeader starts the answer of an event stream taken over from the
// HTTP server: no length (the body lasts until the connection closes),
// no caching, and the first event's pause before a reconnection.
const sseHeader = "HTTP/1.1 200 OK\r\n" +
	"Content-Type: text/event-stream; charset=utf-8\r\n" +
	"Cache-Control: no-store\r\n" +
	"Connection: close\r\n" +
	"X-Content-Type-Options: nosniff\r\n" +
	"Referrer-Policy: no-referrer\r\n" +
	"\r\n" +
	"retry: 1000\n\n"

// connStream is a stream on a connection taken from the HTTP server
// (hijacked): it costs the connection alone, no goroutine and no
// buffers of ours, so that a thousand pages watching a game stay cheap.
// One writer at a time writes to it (the hub's writer of the stream);
// close may come at any time, and ends a write under way.
type connStream struct {
	conn net.Conn
	once sync.Once
}

// streamBuffer bounds what the system holds for a stream that does not
// read (its send buffer): a page that falls behind holds that much, and
// its writer then waits, with its deadline, while the newest state waits
// in the hub.
const streamBuffer = 32 << 10

func (c *connStream) write(b []byte, deadline time.Time) error {
	if err := c.conn.SetWriteDeadline(deadline); err != nil {
		return err
	}
	_, err := c.conn.Write(b)
	return err
}

func (c *connStream) close() { c.once.Do(func() { c.conn.Close() }) }

// hijack takes the connection of an event stream's request from the
// HTTP server and writes the answer's head. It fails where the server
// cannot give its connection away (HTTP/2).
func hijack(w http.ResponseWriter) (stream, error) {
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return nil, err
	}
	if rw.Reader.Buffered() > 0 {
		// The page sent more than its request: not a page.
		conn.Close()
		return nil, errors.New("web: data after an event stream's request")
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetWriteBuffer(streamBuffer)
	}
	s := &connStream{conn: conn}
	if err := s.write([]byte(sseHeader), time.Now().Add(10*time.Second)); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// writerStream is a stream on a response the handler keeps open, where
// the connection cannot be taken over (HTTP/2): the handler waits for
// done, and the hub writes through the response controller.
type writerStream struct {
	mu   sync.Mutex
	w    http.ResponseWriter
	rc   *http.ResponseController
	done chan struct{}
	once sync.Once
}

func newWriterStream(w http.ResponseWriter) *writerStream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	s := &writerStream{w: w, rc: http.NewResponseController(w), done: make(chan struct{})}
	_ = s.write([]byte("retry: 1000\n\n"), time.Now().Add(10*time.Second))
	return s
}

func (s *writerStream) write(b []byte, deadline time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
		return net.ErrClosed
	default:
	}
	_ = s.rc.SetWriteDeadline(deadline)
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	return s.rc.Flush()
}

func (s *writerStream) close() { s.once.Do(func() { close(s.done) }) }

// wait waits for the end of the stream, or of the request's context,
// and for a write under way: the handler may then return.
func (s *writerStream) wait(ctx context.Context) {
	select {
	case <-s.done:
	case <-ctx.Done():
		s.close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
}
