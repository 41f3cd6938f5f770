package discord

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"strings"
	"time"

	"github.com/boardgamebot/bot/internal/backoff"
	"github.com/bwmarrin/discordgo"
)

// maxPause is the longest pause between two attempts of a call that keeps
// failing.
const maxPause = time.Minute

// patient is the client with its messages sent until they go: a call
// that fails for a while (the connection drops, Discord answers 5xx) is
// made again after a pause that doubles from Config.RetryPause up to a
// minute, one log line per attempt, until it succeeds, Discord refuses it
// (a 4xx: it can never succeed), or the bot has stopped. A 429 is waited
// out by discordgo itself. Creating threads and reading are not retried:
// their callers have a way on.
type patient struct {
	client
	b *Bot
}

// retry makes call until it succeeds, fails for good, or the bot stops;
// files are read again at each attempt.
func (p patient) retry(what string, files []*discordgo.File, call func() error) error {
	bo := backoff.Backoff{First: p.b.cfg.RetryPause, Max: maxPause}
	for {
		for _, f := range files {
			if s, ok := f.Reader.(io.Seeker); ok {
				_, _ = s.Seek(0, io.SeekStart)
			}
		}
		err := call()
		if err == nil || !temporary(err) {
			return err
		}
		pause := bo.Next()
		p.b.log.Warn("discord: call failed; retrying", "what", what, "attempt", bo.Attempt(), "retry_in", pause, "err", err)
		if m := p.b.cfg.Metrics; m != nil {
			m.Retried()
		}
		select {
		case <-time.After(pause):
		case <-p.b.halted():
			return err
		}
	}
}

// temporary reports whether a failed call may succeed later: no answer
// (the network), a 5xx answer, or a 429 that discordgo gave back.
func temporary(err error) bool {
	var re *discordgo.RESTError
	if errors.As(err, &re) {
		return re.Response != nil && re.Response.StatusCode >= 500
	}
	var rl *discordgo.RateLimitError
	var ne net.Error
	// discordgo answers 502 three times itself, then gives this up.
	return errors.As(err, &rl) || errors.As(err, &ne) || strings.HasPrefix(err.Error(), "Exceeded Max retries")
}

// InteractionRespond answers an interaction, until it goes.
func (p patient) InteractionRespond(i *discordgo.Interaction, r *discordgo.InteractionResponse, o ...discordgo.RequestOption) error {
	var files []*discordgo.File
	if r.Data != nil {
		files = r.Data.Files
	}
	return p.retry("answering an interaction", files, func() error { return p.client.InteractionRespond(i, r, o...) })
}

// InteractionResponseEdit edits the answer to an interaction, until it goes.
func (p patient) InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, o ...discordgo.RequestOption) (m *discordgo.Message, err error) {
	err = p.retry("editing an answer", e.Files, func() error {
		m, err = p.client.InteractionResponseEdit(i, e, o...)
		return err
	})
	return m, err
}

// InteractionResponseDelete deletes the answer to an interaction, until it goes.
func (p patient) InteractionResponseDelete(i *discordgo.Interaction, o ...discordgo.RequestOption) error {
	return p.retry("deleting an answer", nil, func() error { return p.client.InteractionResponseDelete(i, o...) })
}

// FollowupMessageCreate sends a follow-up of an interaction, until it goes.
func (p patient) FollowupMessageCreate(i *discordgo.Interaction, wait bool, w *discordgo.WebhookParams, o ...discordgo.RequestOption) (m *discordgo.Message, err error) {
	err = p.retry("sending a follow-up", w.Files, func() error {
		m, err = p.client.FollowupMessageCreate(i, wait, w, o...)
		return err
	})
	return m, err
}

// ChannelMessageSendComplex posts a message in a channel, until it goes.
func (p patient) ChannelMessageSendComplex(channelID string, s *discordgo.MessageSend, o ...discordgo.RequestOption) (m *discordgo.Message, err error) {
	err = p.retry("posting a message", s.Files, func() error {
		m, err = p.client.ChannelMessageSendComplex(channelID, s, o...)
		return err
	})
	return m, err
}

// ChannelMessageEditComplex edits a message of a channel, until it goes.
func (p patient) ChannelMessageEditComplex(e *discordgo.MessageEdit, o ...discordgo.RequestOption) (m *discordgo.Message, err error) {
	err = p.retry("editing a message", e.Files, func() error {
		m, err = p.client.ChannelMessageEditComplex(e, o...)
		return err
	})
	return m, err
}

// session is discordgo's Session with the answers to interactions read,
// edited and deleted in a rate-limit bucket of their own interaction, as
// Discord limits them. discordgo puts every such call without files into
// one bucket of the whole bot, one call at a time, so that the answers
// to all interactions wait for one another: a flood of /board answers
// would hold back the answer to a move.
type session struct{ *discordgo.Session }

// InteractionResponse reads the answer to an interaction.
func (s session) InteractionResponse(i *discordgo.Interaction, o ...discordgo.RequestOption) (*discordgo.Message, error) {
	return s.original("GET", i, nil, o)
}

// InteractionResponseEdit edits the answer to an interaction.
func (s session) InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, o ...discordgo.RequestOption) (*discordgo.Message, error) {
	if len(e.Files) > 0 {
		return s.Session.InteractionResponseEdit(i, e, o...) // a bucket of its own already
	}
	return s.original("PATCH", i, e, o)
}

// InteractionResponseDelete deletes the answer to an interaction.
func (s session) InteractionResponseDelete(i *discordgo.Interaction, o ...discordgo.RequestOption) error {
	_, err := s.original("DELETE", i, nil, o)
	return err
}

// original makes a call about the answer to i, in its own bucket.
func (s session) original(method string, i *discordgo.Interaction, data any, o []discordgo.RequestOption) (*discordgo.Message, error) {
	uri := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	body, err := s.RequestWithBucketID(method, uri, data, uri, o...)
	if err != nil || method == "DELETE" {
		return nil, err
	}
	var m discordgo.Message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	return &m, nil
}
