package discord

import (
	"context"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/bwmarrin/discordgo"
)

// threadKey returns the session key of a thread the bot knows (from the
// interaction, or from opening it), the zero key for anything else.
func (b *Bot) threadKey(channelID string) sessions.Key {
	if parent, thread, _ := b.where.lookup(channelID); thread {
		return sessions.Key{Platform: Platform, Channel: parent, Thread: channelID}
	}
	return sessions.Key{}
}

// refuseClosed answers an interaction in the archived thread of a
// tournament game that ended, privately (nothing is posted in an archived
// thread), and reports whether it did.
func (b *Bot) refuseClosed(ctx context.Context, i *discordgo.Interaction, key sessions.Key) bool {
	id, closed := b.placeClosed(ctx, key)
	if !closed {
		return false
	}
	words := b.h.Catalogues().In(b.h.LangFor(ctx, Platform, user(i), string(i.Locale)))
	b.respond(i, discordgo.InteractionResponseChannelMessageWithSource, outgoing{content: words.T("TourPlaceClosed", "Game", id)}, true)
	return true
}

// tournamentPost gives a tournament opened in a forum channel itself (not
// in one of its posts) a post of its own, which starts with the sign-up
// announcement (the reply) and gets the tournament's posts: pairings,
// results, standings (gameChannel follows the forum's route there). The
// reply then links the post. Without the post, the reply stays as it is.
func (b *Bot) tournamentPost(ctx context.Context, key sessions.Key, reply chat.Reply) chat.Reply {
	t := reply.Tour.Tournament
	words := b.h.Catalogues().In(reply.Lang)
	game := t.Game
	if info, ok := games.Lookup(t.Game); ok {
		game = words.GameName(info.ID, info.Name)
	}
	name := clip(words.T("DiscordTourPost", "ID", t.ID, "Game", game), 100)
	th, err := b.c.ForumThreadStartComplex(key.Channel, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: 10080},
		&discordgo.MessageSend{Content: clip(text(reply), maxContent), AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}},
		discordgo.WithContext(ctx))
	if err != nil {
		b.log.Warn("discord: opening a tournament's post in a forum", "forum", key.Channel, "err", err)
		return reply
	}
	b.where.learn(th.ID, discordgo.ChannelTypeGuildPublicThread, key.Channel)
	b.route(ctx, key.Channel, sessions.Key{Platform: Platform, Channel: key.Channel, Thread: th.ID})
	reply.Lines = append(reply.Lines, words.T("DiscordTourPostOpened", "Post", "<#"+th.ID+">"))
	return reply
}
