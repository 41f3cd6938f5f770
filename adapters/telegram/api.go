package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/boardgamebot/bot/internal/backoff"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// client makes the Bot API calls through telegram-bot-api's BotAPI, with a
// context per call, 429 retry_after waited out, failures that may pass
// tried again, and the token kept out of every error.
type client struct {
	api   *tgbotapi.BotAPI
	http  tgbotapi.HTTPClient
	token string
	log   *slog.Logger
	// pause is the first wait after a failure that may pass (doubled at
	// each attempt up to maxPause).
	pause time.Duration
	// sleep waits between attempts: the clock's Sleep (tests replace it).
	sleep func(ctx context.Context, d time.Duration) error
	// m counts the retries of messages and the 429s.
	m Metrics
}

// ctxDoer gives every request of one call the call's context, which the
// library's requests lack (a long poll must end when the bot stops).
type ctxDoer struct {
	ctx context.Context
	c   tgbotapi.HTTPClient
}

func (d ctxDoer) Do(r *http.Request) (*http.Response, error) { return d.c.Do(r.WithContext(d.ctx)) }

// apiError is a failed call, with the token removed from its text. Its
// text names the method, without the package's prefix: the errors that
// leave the package add "telegram: " once.
type apiError struct {
	Method string
	// Code is the Bot API's error code (400, 403, 429, ...), 0 when the
	// call did not get an answer.
	Code int
	Msg  string
	// Temporary says that the same call may succeed later: a network
	// failure, a 5xx answer or a 429.
	Temporary bool
	// RetryAfter is the wait a 429 asks for (its retry_after), 0 for none.
	RetryAfter time.Duration
}

func (e *apiError) Error() string {
	if e.Code != 0 {
		return fmt.Sprintf("%s: %d %s", e.Method, e.Code, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Method, e.Msg)
}

// notModified reports whether err is Telegram's refusal to edit a message
// into what it already is: nothing to worry about.
func notModified(err error) bool {
	var ae *apiError
	return errors.As(err, &ae) && strings.Contains(ae.Msg, "not modified")
}

// call makes a Bot API call until Telegram answers it, and returns its
// result. A 429 is waited out for its retry_after and never counts as a
// failure; a network failure or a 5xx answer is tried again after a pause
// that doubles from the first one up to a minute, for as long as ctx
// lasts; a refusal (400, 403, ...) is returned at once: that call can
// never succeed. Every wait is logged, one line each.
func (c *client) call(ctx context.Context, method string, p tgbotapi.Params, files []tgbotapi.RequestFile) (json.RawMessage, error) {
	bo := backoff.Backoff{First: c.pause, Max: maxPause}
	for {
		res, err := c.once(ctx, method, p, files)
		var ae *apiError
		if err == nil || ctx.Err() != nil || !errors.As(err, &ae) || !ae.Temporary {
			return res, err
		}
		if _, send := ctx.Value(sendKey{}).(*outbox); send {
			c.m.Retried() // a message of a chat's queue
		}
		wait := ae.RetryAfter
		if wait > 0 {
			c.m.RateLimited(wait)
			c.log.Warn("telegram flood control: waiting", "method", method, "retry_after", wait)
		} else {
			wait = bo.Next()
			c.log.Warn("telegram: call failed; retrying", "method", method, "attempt", bo.Attempt(), "retry_in", wait, "err", ae.Msg)
		}
		if c.sleep(ctx, wait) != nil {
			return nil, err
		}
	}
}

// once makes one attempt of a Bot API call. A failure is an *apiError: a
// 429 with its RetryAfter, temporary; a network failure or a 5xx,
// temporary; any other answer of the Bot API, a refusal.
func (c *client) once(ctx context.Context, method string, p tgbotapi.Params, files []tgbotapi.RequestFile) (json.RawMessage, error) {
	api := *c.api
	api.Client = ctxDoer{ctx: ctx, c: c.http}
	var resp *tgbotapi.APIResponse
	var err error
	if len(files) > 0 {
		resp, err = api.UploadFiles(method, p, files)
	} else {
		resp, err = api.MakeRequest(method, p)
	}
	if err == nil {
		return resp.Result, nil
	}
	if ctx.Err() != nil {
		return nil, &apiError{Method: method, Msg: ctx.Err().Error()}
	}
	var te *tgbotapi.Error
	if !errors.As(err, &te) {
		// No answer, or one that is not the Bot API's (a proxy's page).
		return nil, &apiError{Method: method, Msg: c.clean(err.Error()), Temporary: true}
	}
	code := te.Code
	if code == 0 && resp != nil {
		code = resp.ErrorCode // UploadFiles leaves it out of its error
	}
	failed := &apiError{Method: method, Code: code, Msg: c.clean(te.Message)}
	switch {
	case code == http.StatusTooManyRequests || te.RetryAfter > 0:
		failed.Code, failed.Temporary = http.StatusTooManyRequests, true
		failed.RetryAfter = time.Duration(te.RetryAfter) * time.Second
	case code >= 500:
		failed.Temporary = true
	}
	return nil, failed
}

// clean removes the token from a text (URLs in network errors hold it).
func (c *client) clean(s string) string {
	if c.token == "" {
		return s
	}
	return strings.ReplaceAll(s, c.token, "<token>")
}

// ---- the parts of the Bot API's objects the adapter reads ----

// update is one incoming update. Kinds the bot does not ask for (and
// edited messages) are decoded as nothing and ignored.
type update struct {
	UpdateID      int       `json:"update_id"`
	Message       *message  `json:"message,omitempty"`
	CallbackQuery *callback `json:"callback_query,omitempty"`
}

// message is a Telegram message, with the forum topic fields that the
// library's Message lacks.
type message struct {
	MessageID int            `json:"message_id"`
	ThreadID  int            `json:"message_thread_id,omitempty"`
	IsTopic   bool           `json:"is_topic_message,omitempty"`
	From      *tgbotapi.User `json:"from,omitempty"`
	Chat      *tgbotapi.Chat `json:"chat"`
	Text      string         `json:"text,omitempty"`
	ReplyTo   *struct {
		MessageID int            `json:"message_id"`
		From      *tgbotapi.User `json:"from,omitempty"`
		// ForumTopicCreated marks a topic's first message, which every
		// message of the topic answers unless it answers another.
		ForumTopicCreated *struct{} `json:"forum_topic_created,omitempty"`
	} `json:"reply_to_message,omitempty"`
	Photo     []tgbotapi.PhotoSize `json:"photo,omitempty"`
	Animation *struct {
		FileID string `json:"file_id"`
	} `json:"animation,omitempty"`
	Document *struct {
		FileID string `json:"file_id"`
	} `json:"document,omitempty"`
}

// callback is a press of an inline keyboard button.
type callback struct {
	ID      string         `json:"id"`
	From    *tgbotapi.User `json:"from"`
	Message *message       `json:"message,omitempty"`
	Data    string         `json:"data,omitempty"`
}
