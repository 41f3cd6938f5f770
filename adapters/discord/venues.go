package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/boardgamebot/bot/sessions"
	"github.com/bwmarrin/discordgo"
)

// Venues returns the places where the Bot opens tournament games: a public
// thread per game in the tournament's channel. Register it in the
// sessions service's Config.Venues under Platform.
func (b *Bot) Venues() sessions.Venues { return venues{b} }

// venues implements sessions.Venues for Discord.
type venues struct{ b *Bot }

// noThreads is the refusal of a tournament where the bot may not open
// public threads.
func noThreads(cause error) error {
	return &sessions.Error{Kind: sessions.ErrNoVenues, Msg: "the bot may not create public threads here",
		Err: errors.Join(&sessions.NoVenues{Problem: sessions.VenueNoRights}, cause)}
}

// CheckVenues refuses a channel where the bot may not create public
// threads and talk in them, from the permissions of the last interaction
// in the place (the thread or channel) where the tournament is opened. A
// place the bot has not seen an interaction in yet passes: OpenVenue
// reports what Discord then refuses.
func (v venues) CheckVenues(ctx context.Context, key sessions.Key) error {
	if key.Platform != Platform {
		return &sessions.Error{Kind: sessions.ErrNoVenues, Msg: "not a Discord channel", Err: &sessions.NoVenues{Problem: sessions.VenueNone}}
	}
	place := key.Channel
	if key.Thread != "" {
		place = key.Thread
	}
	perms, ok := v.b.where.permissions(place)
	if !ok && place != key.Channel {
		perms, ok = v.b.where.permissions(key.Channel)
	}
	if ok && !canThread(perms) {
		return noThreads(nil)
	}
	return nil
}

// OpenVenue opens a public thread for one game in the tournament's
// channel (the parent of the thread it was opened in), named after the
// round and the players, and returns the game's key: {discord, channel,
// thread}. Commands typed in the thread go to the game.
func (v venues) OpenVenue(ctx context.Context, t *sessions.Tournament, round int, white, black sessions.User) (sessions.Key, error) {
	if t == nil || t.Key.Platform != Platform || t.Key.Channel == "" {
		return sessions.Key{}, &sessions.Error{Kind: sessions.ErrNoVenues, Msg: "not a Discord tournament", Err: &sessions.NoVenues{Problem: sessions.VenueNone}}
	}
	name := clip(v.b.h.Words().In("").T("DiscordTourThread", "Round", round, "White", white.Name, "Black", black.Name), 100)
	th, err := v.b.c.ThreadStartComplex(t.Key.Channel, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: 10080,
		Type: discordgo.ChannelTypeGuildPublicThread}, discordgo.WithContext(ctx))
	if err != nil {
		var re *discordgo.RESTError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusForbidden {
			return sessions.Key{}, noThreads(err)
		}
		return sessions.Key{}, fmt.Errorf("discord: opening the thread of a tournament game in channel %s: %w", t.Key.Channel, err)
	}
	v.b.where.learn(th.ID, discordgo.ChannelTypeGuildPublicThread, t.Key.Channel)
	return sessions.Key{Platform: Platform, Channel: t.Key.Channel, Thread: th.ID}, nil
}
