package ops

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Mux returns the handler of the operator's endpoints: GET /metrics
// (m's), /healthz and /readyz (h's). A nil m serves no /metrics.
func Mux(m *Metrics, h *Health) *http.ServeMux {
	mux := http.NewServeMux()
	Register(mux, m, h)
	return mux
}

// Mounter is a server that serves handlers by pattern (an
// *http.ServeMux, the web board's server).
type Mounter interface {
	Handle(pattern string, h http.Handler)
}

// Register adds the operator's endpoints to mux (a server that serves
// other pages too).
func Register(mux Mounter, m *Metrics, h *Health) {
	if m != nil {
		mux.Handle("GET /metrics", m.Handler())
	}
	mux.Handle("GET /healthz", h.HealthzHandler())
	mux.Handle("GET /readyz", h.ReadyzHandler())
}

// Serve serves handler on ln until ctx is done, then shuts the server down
// (the requests in hand get five seconds to finish).
func Serve(ctx context.Context, ln net.Listener, handler http.Handler) error {
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(shut)
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}
