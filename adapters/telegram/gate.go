package telegram

import "context"

// PollGate lets one bot process at a time poll Telegram, when several
// serve one token: Telegram answers a getUpdates while another is
// waiting with 409 Conflict, and each update would go to whichever asked.
// The gate returns when ctx is done; meanwhile it calls poll whenever
// this process becomes the one that polls, and cancels poll's context
// when it no longer is (poll then confirms the updates it handled and
// returns before another process may start). etcdstore.Store's
// LeadElection with etcdstore.PollElection is one. Webhook mode needs
// none: every process serves the webhook, and an update delivered to two
// of them applies once (its request id is in the shared store).
type PollGate func(ctx context.Context, poll func(ctx context.Context))

type pollGateKey struct{}

// WithPollGate returns a context for Run under which the bot polls only
// through gate (in long-polling mode; a webhook ignores it).
func WithPollGate(ctx context.Context, gate PollGate) context.Context {
	return context.WithValue(ctx, pollGateKey{}, gate)
}
