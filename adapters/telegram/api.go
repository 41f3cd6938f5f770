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

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// client makes the Bot API calls through telegram-bot-api's BotAPI, with a
// context per call, 429 retry_after waited out, transient failures retried,
// and the token kept out of every error.
type client struct {
	api   *tgbotapi.BotAPI
	http  tgbotapi.HTTPClient
	token string
	log   *slog.Logger
	// tries is how many times a call is made at most.
	tries int
	// pause is the first wait after a network failure (doubled each time).
	pause time.Duration
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
}

func (e *apiError) Error() string {
	if e.Code != 0 {
		return fmt.Sprintf("%s: %d %s", e.Method, e.Code, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Method, e.Msg)
}

// temporary reports whether err is a failure that may pass: the call is
// worth making again later.
func temporary(err error) bool {
	var ae *apiError
	return errors.As(err, &ae) && ae.Temporary
}

// notModified reports whether err is Telegram's refusal to edit a message
// into what it already is: nothing to worry about.
func notModified(err error) bool {
	var ae *apiError
	return errors.As(err, &ae) && strings.Contains(ae.Msg, "not modified")
}

// call makes one Bot API call and returns its result. A 429 answer is
// waited out for its retry_after and the call made again; a network
// failure or a 5xx answer is retried after a growing pause; other answers
// (400, 403, ...) are returned at once. A retry is logged, one line each.
func (c *client) call(ctx context.Context, method string, p tgbotapi.Params, files []tgbotapi.RequestFile) (json.RawMessage, error) {
	pause := c.pause
	for try := 1; ; try++ {
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
		var wait time.Duration
		var te *tgbotapi.Error
		failed := &apiError{Method: method, Msg: c.clean(err.Error()), Temporary: true}
		switch {
		case errors.As(err, &te) && te.RetryAfter > 0:
			wait = time.Duration(te.RetryAfter) * time.Second
			failed.Code, failed.Msg = http.StatusTooManyRequests, c.clean(te.Message)
		case errors.As(err, &te) && te.Code != 0 && te.Code < 500:
			return nil, &apiError{Method: method, Code: te.Code, Msg: c.clean(te.Message)}
		case errors.As(err, &te) && te.Code == 0 && te.Message != "":
			// UploadFiles leaves the code out: a refusal all the same.
			return nil, &apiError{Method: method, Msg: c.clean(te.Message)}
		default:
			if te != nil {
				failed.Code, failed.Msg = te.Code, c.clean(te.Message)
			}
			wait = pause
			pause *= 2
		}
		if try >= c.tries {
			return nil, failed
		}
		if failed.Code == http.StatusTooManyRequests {
			c.log.Warn("telegram flood control: waiting", "method", method, "retry_after", te.RetryAfter)
		} else {
			c.log.Warn("telegram call failed: retrying", "method", method, "try", try, "retry_in", wait, "err", failed.Msg)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, &apiError{Method: method, Msg: ctx.Err().Error()}
		case <-t.C:
		}
	}
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
