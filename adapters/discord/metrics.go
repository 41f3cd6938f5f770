package discord

import (
	"github.com/bwmarrin/discordgo"
)

// Metrics is told of the messages the bot sends, for an operator's
// metrics (package ops counts them); Config.Metrics nil counts nothing.
// Its methods must be quick and must not block. (discordgo waits out 429s
// and retries a 502 by itself: ops counts those on the HTTP client's
// transport.)
type Metrics interface {
	// Sent: Discord took a message (a post, an answer to an interaction,
	// an edit of one).
	Sent()
	// Retried: a message is tried again after a failure that may pass.
	Retried()
	// GaveUp: a message was never delivered (Discord refused it, or the
	// bot stopped before it went).
	GaveUp()
}

// Waiting returns how many notices wait to be posted (the notices of a
// session wait while a command of it is in hand).
func (b *Bot) Waiting() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, q := range b.queue {
		n += len(q)
	}
	return n
}

// Connected reports whether the gateway connection is up now (discordgo
// reconnects by itself when it drops), for /readyz.
func (b *Bot) Connected() bool {
	b.s.RLock()
	defer b.s.RUnlock()
	return b.s.DataReady
}

// counting is a client that tells m what became of every message sent
// through it (the patient client: after its retries).
type counting struct {
	client
	m Metrics
}

func (c counting) count(err error) {
	if err != nil {
		c.m.GaveUp()
	} else {
		c.m.Sent()
	}
}

func (c counting) InteractionRespond(i *discordgo.Interaction, r *discordgo.InteractionResponse, o ...discordgo.RequestOption) error {
	err := c.client.InteractionRespond(i, r, o...)
	c.count(err)
	return err
}

func (c counting) InteractionResponseEdit(i *discordgo.Interaction, e *discordgo.WebhookEdit, o ...discordgo.RequestOption) (*discordgo.Message, error) {
	m, err := c.client.InteractionResponseEdit(i, e, o...)
	c.count(err)
	return m, err
}

func (c counting) FollowupMessageCreate(i *discordgo.Interaction, wait bool, p *discordgo.WebhookParams, o ...discordgo.RequestOption) (*discordgo.Message, error) {
	m, err := c.client.FollowupMessageCreate(i, wait, p, o...)
	c.count(err)
	return m, err
}

func (c counting) ChannelMessageSendComplex(channelID string, s *discordgo.MessageSend, o ...discordgo.RequestOption) (*discordgo.Message, error) {
	m, err := c.client.ChannelMessageSendComplex(channelID, s, o...)
	c.count(err)
	return m, err
}

func (c counting) ChannelMessageEditComplex(e *discordgo.MessageEdit, o ...discordgo.RequestOption) (*discordgo.Message, error) {
	m, err := c.client.ChannelMessageEditComplex(e, o...)
	c.count(err)
	return m, err
}
