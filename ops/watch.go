package ops

import (
	"net/http"
)

// Watch returns a transport that makes its requests with rt (nil:
// http.DefaultTransport) and tells p whether the platform answers: any
// answer below 500 is Connected, a failure to reach it or a 5xx Retrying
// (the adapter tries again). A request given up by its own context (a
// long poll stopped at shutdown) tells nothing.
func Watch(rt http.RoundTripper, p *Platform) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	return watched{rt: rt, p: p}
}

type watched struct {
	rt http.RoundTripper
	p  *Platform
}

// RoundTrip implements http.RoundTripper.
func (w watched) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := w.rt.RoundTrip(r)
	switch {
	case err != nil && r.Context().Err() != nil:
	case err != nil || resp.StatusCode >= 500:
		w.p.Set(Retrying)
	default:
		w.p.Set(Connected)
	}
	return resp, err
}
