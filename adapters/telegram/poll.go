package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/boardgamebot/bot/internal/backoff"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// maxPause is the longest pause between two attempts of a call that keeps
// failing.
const maxPause = time.Minute

// allowedUpdates are the update kinds the bot asks for.
const allowedUpdates = `["message","callback_query"]`

// poll receives updates by long polling until ctx is done: through the
// PollGate of ctx (WithPollGate) when it has one, so that one process at
// a time polls; otherwise at once.
func (b *Bot) poll(ctx context.Context) {
	gate, _ := ctx.Value(pollGateKey{}).(PollGate)
	if gate == nil {
		b.pollNow(ctx)
		return
	}
	b.log.Info("telegram: waiting to be the process that polls")
	gate(ctx, func(ctx context.Context) {
		b.log.Info("telegram: polling (this process leads)")
		b.pollNow(ctx)
		b.log.Info("telegram: no longer polling")
	})
}

// pollNow polls until ctx is done. An update is
// confirmed to Telegram (by the offset of the next getUpdates) only once
// its handling is over, so that a bot killed in the middle gets it again
// when it starts (the sessions service applies a request id once). Before
// it returns, pollNow confirms the updates it handled.
func (b *Bot) pollNow(ctx context.Context) {
	// A webhook left set would make getUpdates fail with 409.
	if _, err := b.c.call(ctx, "deleteWebhook", tgbotapi.Params{}, nil); err != nil && ctx.Err() == nil {
		b.log.Warn("telegram: deleteWebhook failed", "err", err)
	}
	// offset is the first update not handled yet; asked the offset of
	// the last getUpdates that Telegram answered (what it has confirmed).
	offset, asked := 0, 0
	bo := backoff.Backoff{First: b.cfg.RetryPause, Max: maxPause}
	for ctx.Err() == nil {
		ups, err := b.getUpdates(ctx, offset, b.cfg.PollTimeout, 0)
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			pause := bo.Next()
			if ae := (*apiError)(nil); errors.As(err, &ae) && ae.RetryAfter > 0 {
				pause = ae.RetryAfter
			}
			b.log.Warn("telegram: getUpdates failed; retrying", "attempt", bo.Attempt(), "retry_in", pause, "err", err)
			if b.c.sleep(ctx, pause) != nil {
				break
			}
			continue
		}
		bo.Reset()
		asked = offset
		offset = b.handleBatch(ups, offset)
	}
	if offset > asked {
		b.confirm(ctx, offset)
	}
}

// getUpdates fetches the updates from offset on (0: the first not
// confirmed), at most limit (0: Telegram's 100), waiting up to timeout for
// one.
func (b *Bot) getUpdates(ctx context.Context, offset int, timeout time.Duration, limit int) ([]json.RawMessage, error) {
	p := tgbotapi.Params{
		"timeout":         strconv.Itoa(int(timeout / time.Second)),
		"allowed_updates": allowedUpdates,
	}
	if offset != 0 {
		p["offset"] = strconv.Itoa(offset)
	}
	if limit != 0 {
		p["limit"] = strconv.Itoa(limit)
	}
	pollCtx, cancel := context.WithTimeout(ctx, timeout+30*time.Second)
	defer cancel()
	res, err := b.c.once(pollCtx, "getUpdates", p, nil) // poll tries again, after a pause
	if err != nil {
		return nil, err
	}
	var ups []json.RawMessage
	if err := json.Unmarshal(res, &ups); err != nil {
		return nil, &apiError{Method: "getUpdates", Msg: "the answer is not a list of updates: " + err.Error(), Temporary: true}
	}
	return ups, nil
}

// handleBatch passes the updates to their chats' lanes and waits until
// each one's handling is over. It returns the offset that confirms them.
func (b *Bot) handleBatch(ups []json.RawMessage, offset int) int {
	var handled []<-chan struct{}
	for _, raw := range ups {
		var u update
		if err := json.Unmarshal(raw, &u); err != nil {
			// The update_id alone, so that a malformed update is
			// skipped rather than fetched again and again.
			var id struct {
				UpdateID int `json:"update_id"`
			}
			if json.Unmarshal(raw, &id) == nil {
				offset = max(offset, id.UpdateID+1)
			}
			b.log.Warn("telegram: an update could not be read", "err", err)
			continue
		}
		offset = max(offset, u.UpdateID+1)
		handled = append(handled, b.dispatch(u))
	}
	for _, done := range handled {
		<-done
	}
	return offset
}

// confirm tells Telegram, as the bot stops, that the updates before offset
// were handled: a getUpdates that waits for nothing (what it returns is
// not confirmed, and comes again at the next start).
func (b *Bot) confirm(ctx context.Context, offset int) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.cfg.ShutdownGrace)
	defer cancel()
	if _, err := b.getUpdates(ctx, offset, 0, 1); err != nil {
		b.log.Warn("telegram: the last updates handled were not confirmed: they come again at the next start", "offset", offset, "err", err)
	}
}
