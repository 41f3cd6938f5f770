package main

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/boardgamebot/bot/adapters/web"
)

// checkWebLimits checks the web board's caps and limits: above 0, and
// web.trusted_proxies addresses or networks.
func checkWebLimits(c *config) error {
	w := &c.Web
	if w.StreamsPerAddress <= 0 || w.StreamsPerGame <= 0 || w.RequestRate <= 0 || w.RequestBurst <= 0 {
		return fmt.Errorf("web.streams_per_address, web.streams_per_game, web.request_rate and web.request_burst must be above 0")
	}
	if _, err := trustedProxies(c); err != nil {
		return err
	}
	return nil
}

// trustedProxies reads web.trusted_proxies: addresses and networks with
// commas (or spaces) between them.
func trustedProxies(c *config) ([]netip.Prefix, error) {
	list := strings.FieldsFunc(c.Web.TrustedProxies, func(r rune) bool { return r == ',' || r == ' ' })
	p, err := web.ParseProxies(list)
	if err != nil {
		return nil, fmt.Errorf("web.trusted_proxies: %w", err)
	}
	return p, nil
}
