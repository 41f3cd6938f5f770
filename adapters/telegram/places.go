package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/boardgamebot/bot/sessions"
)

// Places returns the places of tournament games on Telegram: each game is
// played in a forum topic of its own, which the bot creates in the
// tournament's forum supergroup (so the bot must be an administrator
// allowed to manage topics). Give it to the sessions service as
// Config.Places[telegram.Platform].
func (b *Bot) Places() sessions.Places { return places{b} }

// places implements sessions.Places with forum topics.
type places struct{ b *Bot }

// maxTopicName is the longest name createForumTopic takes, in characters.
const maxTopicName = 128

// chatFull is the part of getChat's answer the places read.
type chatFull struct {
	ID      int64  `json:"id"`
	Type    string `json:"type"`
	IsForum bool   `json:"is_forum,omitempty"`
}

// chatMember is the part of getChatMember's answer the bot reads: the
// member's status and the administrator rights it cares about.
type chatMember struct {
	Status          string `json:"status"`
	CanManageChat   bool   `json:"can_manage_chat,omitempty"`
	CanManageTopics bool   `json:"can_manage_topics,omitempty"`
}

// noPlaces is the sessions error saying why games cannot be opened here.
func noPlaces(p sessions.PlaceProblem) error {
	return &sessions.Error{Kind: sessions.ErrNoPlaces, Err: &sessions.NoPlaces{Problem: p}}
}

// CheckPlaces tells whether topics can be opened in key's chat: it must be
// a forum supergroup (getChat's is_forum), and the bot its creator or an
// administrator with the right to manage topics (getChatMember). A failed
// call is returned as it is, without a PlaceProblem: it says nothing of
// the chat.
func (v places) CheckPlaces(ctx context.Context, key sessions.Key) error {
	if key.Platform != Platform {
		return noPlaces(sessions.PlaceNone)
	}
	chatID, err := strconv.ParseInt(key.Channel, 10, 64)
	if err != nil || chatID > 0 {
		return noPlaces(sessions.PlaceNotForum) // a private chat
	}
	c, err := v.b.chat(ctx, chatID)
	if err != nil {
		return err
	}
	if !c.IsForum {
		return noPlaces(sessions.PlaceNotForum)
	}
	self, err := v.b.botID(ctx)
	if err != nil {
		return err
	}
	m, err := v.b.member(ctx, chatID, self)
	if err != nil {
		return err
	}
	if m.Status == "creator" || m.Status == "administrator" && m.CanManageTopics {
		return nil
	}
	return noRights()
}

// noRights is the refusal of a chat where the bot may not manage topics.
func noRights() error {
	return &sessions.Error{Kind: sessions.ErrNoPlaces, Err: &sessions.NoPlaces{Problem: sessions.PlaceNoRights, Right: sessions.RightManageTopics}}
}

// OpenPlace creates the forum topic of one game ("#3 · Round 2: alice –
// bob") in the tournament's chat and returns its session key: the chat,
// and the topic's message_thread_id as the thread. A refusal for want of
// rights (taken away since the tournament opened) is an ErrNoPlaces error
// naming the right to manage topics.
func (v places) OpenPlace(ctx context.Context, g sessions.PlaceGame) (sessions.Key, error) {
	t := g.Tournament
	chatID, err := strconv.ParseInt(t.Key.Channel, 10, 64)
	if t.Key.Platform != Platform || err != nil || chatID > 0 {
		return sessions.Key{}, noPlaces(sessions.PlaceNotForum)
	}
	p := tgbotapi.Params{"chat_id": t.Key.Channel, "name": v.b.topicName(t, g.Round, g.White, g.Black)}
	res, err := v.b.c.call(ctx, "createForumTopic", p, nil)
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) && (ae.Code == 400 || ae.Code == 403) {
			v.b.log.Warn("telegram: a tournament game's topic was refused", "chat", chatID, "err", err)
			if strings.Contains(strings.ToLower(ae.Msg), "not a forum") {
				return sessions.Key{}, noPlaces(sessions.PlaceNotForum)
			}
			return sessions.Key{}, noRights()
		}
		return sessions.Key{}, fmt.Errorf("telegram: %w", err)
	}
	var topic struct {
		ThreadID int `json:"message_thread_id"`
	}
	if err := json.Unmarshal(res, &topic); err != nil || topic.ThreadID == 0 {
		return sessions.Key{}, fmt.Errorf("telegram: createForumTopic answered no topic: %s", res)
	}
	return where{chat: chatID, thread: topic.ThreadID}.key(), nil
}

// topicName names the topic of a game, in the bot's default language:
// the tournament, the round and the two players ("#3 · Round 2: alice –
// bob"), cut to what Telegram takes.
func (b *Bot) topicName(t *sessions.Tournament, round int, white, black sessions.User) string {
	name := b.h.Catalogues().In("").T("TelegramTourTopic", "ID", t.ID, "Round", round, "White", white.Name, "Black", black.Name)
	if r := []rune(name); len(r) > maxTopicName {
		name = string(r[:maxTopicName-1]) + "…"
	}
	return name
}

// chat asks Telegram about a chat (getChat).
func (b *Bot) chat(ctx context.Context, chatID int64) (chatFull, error) {
	var c chatFull
	res, err := b.c.call(ctx, "getChat", tgbotapi.Params{"chat_id": strconv.FormatInt(chatID, 10)}, nil)
	if err == nil {
		err = json.Unmarshal(res, &c)
	}
	if err != nil {
		return c, fmt.Errorf("telegram: %w", err)
	}
	return c, nil
}

// member asks Telegram about a member of a chat (getChatMember).
func (b *Bot) member(ctx context.Context, chatID, userID int64) (chatMember, error) {
	var m chatMember
	p := tgbotapi.Params{"chat_id": strconv.FormatInt(chatID, 10), "user_id": strconv.FormatInt(userID, 10)}
	res, err := b.c.call(ctx, "getChatMember", p, nil)
	if err == nil {
		err = json.Unmarshal(res, &m)
	}
	if err != nil {
		return m, fmt.Errorf("telegram: %w", err)
	}
	return m, nil
}

// botID is the bot's own user id: known once Run has started, asked
// (getMe) otherwise.
func (b *Bot) botID(ctx context.Context) (int64, error) {
	b.mu.Lock()
	id := b.selfID
	b.mu.Unlock()
	if id != 0 {
		return id, nil
	}
	res, err := b.c.call(ctx, "getMe", nil, nil)
	var me tgbotapi.User
	if err == nil {
		err = json.Unmarshal(res, &me)
	}
	if err != nil {
		return 0, fmt.Errorf("telegram: %w", err)
	}
	return me.ID, nil
}
