package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/boardgamebot/bot/adapters/web"
)

// checkSecrets checks web.secret (empty, or 32 random bytes at least),
// and web.previous_secret with web.previous_secret_until (both or none).
func checkSecrets(secret, previous, until string) error {
	if secret != "" {
		if _, err := web.SecretKey(secret); err != nil {
			return fmt.Errorf("web.secret is weak: it must carry at least 32 random bytes; make one with `openssl rand -base64 32` (or leave it empty: the bot makes one and keeps it in the store)")
		}
	}
	if previous == "" && until == "" {
		return nil
	}
	if previous == "" || until == "" {
		return errors.New("web.previous_secret and web.previous_secret_until go together (the secret before a rotation, and until when its links still work)")
	}
	if secret == "" {
		return errors.New("web.previous_secret is set but web.secret is empty (rotate to a web.secret of your own)")
	}
	if _, err := web.SecretKey(previous); err != nil {
		return fmt.Errorf("web.previous_secret is weak: it must carry at least 32 random bytes")
	}
	if _, err := graceUntil(until); err != nil {
		return err
	}
	return nil
}

// graceUntil reads web.previous_secret_until: a date (2006-01-02, its
// midnight UTC) or an RFC 3339 time.
func graceUntil(text string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, text); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, text); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("web.previous_secret_until %q is not a date (2026-07-01) or an RFC 3339 time", text)
}

// webSigner is the web board's signer: key seals the links; with
// web.previous_secret, the previous secret's links open until its grace
// ends.
func webSigner(c config, key []byte) (*web.Signer, error) {
	signer, err := web.NewSigner(key)
	if err != nil || c.Web.PreviousSecret == "" {
		return signer, err
	}
	prev, err := web.SecretKey(c.Web.PreviousSecret)
	if err != nil {
		return nil, err
	}
	until, err := graceUntil(c.Web.PreviousSecretUntil)
	if err != nil {
		return nil, err
	}
	return signer.WithPrevious(prev, until)
}

// webSecret checks the secret that seals the web board's links: 32
// random bytes at least (loading the configuration refuses a weak one;
// this says so again, and what to do), and a previous secret's grace.
func (d *doctor) webSecret(c config, now time.Time) {
	switch _, err := web.SecretKey(c.Web.Secret); {
	case c.Web.Secret == "":
		d.ok("web: the links are sealed with a secret kept in the store (made on the first start)")
	case err != nil:
		d.bad("web: web.secret is weak (it must carry at least 32 random bytes)", "make one with `openssl rand -base64 32` and set it in BOT_WEB_SECRET or web.secret")
	default:
		d.ok("web: web.secret carries at least 32 random bytes")
	}
	if c.Web.PreviousSecret == "" {
		return
	}
	if until, err := graceUntil(c.Web.PreviousSecretUntil); err == nil && !now.Before(until) {
		d.bad(fmt.Sprintf("web: web.previous_secret's grace ended at %s", until.Format(time.RFC3339)),
			"remove web.previous_secret and web.previous_secret_until")
		return
	}
	d.ok("web: links sealed with web.previous_secret work until %s", c.Web.PreviousSecretUntil)
}
