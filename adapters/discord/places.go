package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/boardgamebot/bot/sessions"
	"github.com/bwmarrin/discordgo"
)

// Places returns the places where the Bot opens tournament games: in a
// text channel a public thread per game; in a forum channel a post per
// game, which starts with the game's board and carries the forum's tag for
// the round when it has one. Announcement channels are refused. Register it
// in the sessions service's Config.Places under Platform.
func (b *Bot) Places() sessions.Places { return tourPlaces{b} }

// tourPlaces implements sessions.Places for Discord.
type tourPlaces struct{ b *Bot }

// noPlaces is the refusal of a tournament's places: the problem, the
// right missing ("" for none) and the platform's answer, if any.
func noPlaces(problem sessions.PlaceProblem, right sessions.PlaceRight, cause error) error {
	return &sessions.Error{Kind: sessions.ErrNoPlaces, Msg: "the bot may not open games' places here",
		Err: errors.Join(&sessions.NoPlaces{Problem: problem, Right: right}, cause)}
}

// isForum reports whether a channel of type t holds posts (threads with a
// starting message) rather than messages: a forum or a media channel.
func isForum(t discordgo.ChannelType) bool {
	return t == discordgo.ChannelTypeGuildForum || t == discordgo.ChannelTypeGuildMedia
}

// placeRight is a permission the bot needs to open games' places, with
// the right it is for the catalogue.
type placeRight struct {
	perm  int64
	right sessions.PlaceRight
}

// placeRights are the permissions the bot needs to open games' places in
// a channel of type t: create public threads (in a forum: create posts,
// which is Send Messages there) and send messages in them.
func placeRights(t discordgo.ChannelType) []placeRight {
	if isForum(t) {
		return []placeRight{{discordgo.PermissionSendMessages, sessions.RightCreatePosts},
			{discordgo.PermissionSendMessagesInThreads, sessions.RightThreadsSend}}
	}
	return []placeRight{{discordgo.PermissionCreatePublicThreads, sessions.RightCreateThreads},
		{discordgo.PermissionSendMessagesInThreads, sessions.RightThreadsSend}}
}

// missingRight returns the first right perms lack in a channel of type t,
// "" when none.
func missingRight(t discordgo.ChannelType, perms int64) sessions.PlaceRight {
	for _, r := range placeRights(t) {
		if perms&r.perm == 0 {
			return r.right
		}
	}
	return ""
}

// canThread reports whether the bot may open public threads and talk in
// them, from the permissions an interaction carries.
func canThread(perms int64) bool {
	return missingRight(discordgo.ChannelTypeGuildText, perms) == ""
}

// channelType returns the type of a channel that is not a thread: known
// from an interaction, or asked (GET /channels). A channel that cannot
// be asked is taken for a text channel, and logged.
func (b *Bot) channelType(ctx context.Context, id string) discordgo.ChannelType {
	if t, ok := b.where.kind(id); ok {
		return t
	}
	ch, err := b.c.Channel(id, discordgo.WithContext(ctx))
	if err != nil {
		b.log.Warn("discord: cannot tell a channel's type; taken for a text channel", "channel", id, "err", err)
		return discordgo.ChannelTypeGuildText
	}
	b.where.learn(ch.ID, ch.Type, ch.ParentID)
	return ch.Type
}

// permsIn returns the bot's permissions where the key's commands are
// typed (its thread, else its channel), as the last interaction there told
// them.
func (b *Bot) permsIn(key sessions.Key) (int64, bool) {
	if key.Thread != "" {
		if perms, ok := b.where.permissions(key.Thread); ok {
			return perms, true
		}
	}
	return b.where.permissions(key.Channel)
}

// CheckPlaces refuses an announcement channel, and a channel where the bot
// may not open the games' places and talk in them (placeRights), from the
// permissions of the last interaction in the place (the thread, post or
// channel) where the tournament is opened, naming the permission missing.
// A place the bot has not seen an interaction in yet passes: OpenPlace
// reports what Discord then refuses.
func (v tourPlaces) CheckPlaces(ctx context.Context, key sessions.Key) error {
	if key.Platform != Platform {
		return noPlaces(sessions.PlaceNone, "", nil)
	}
	typ := v.b.channelType(ctx, key.Channel)
	if typ == discordgo.ChannelTypeGuildNews {
		return noPlaces(sessions.PlaceAnnouncements, "", nil)
	}
	if perms, ok := v.b.permsIn(key); ok {
		if r := missingRight(typ, perms); r != "" {
			return noPlaces(sessions.PlaceNoRights, r, nil)
		}
	}
	return nil
}

// OpenPlace opens the place of one game in the tournament's channel (the
// parent of the thread or post it was opened in), named after the round
// and the players, and returns the game's key: {discord, channel,
// thread}. In a text channel it is a public thread, whose board the
// game's opening notice posts; in a forum it is a post that starts with
// that board (both players mentioned), tagged with the round. Commands
// typed there go to the game.
func (v tourPlaces) OpenPlace(ctx context.Context, g sessions.PlaceGame) (sessions.Key, error) {
	t := g.Tournament
	if t == nil || t.Key.Platform != Platform || t.Key.Channel == "" {
		return sessions.Key{}, noPlaces(sessions.PlaceNone, "", nil)
	}
	b := v.b
	name := clip(b.h.Catalogues().In("").T("DiscordTourThread", "Round", g.Round, "White", g.White.Name, "Black", g.Black.Name), 100)
	typ := b.channelType(ctx, t.Key.Channel)
	var th *discordgo.Channel
	var err error
	if isForum(typ) {
		th, err = b.openPost(ctx, t.Key.Channel, name, g)
	} else {
		th, err = b.c.ThreadStartComplex(t.Key.Channel, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: 10080,
			Type: discordgo.ChannelTypeGuildPublicThread}, discordgo.WithContext(ctx))
	}
	if err != nil {
		var re *discordgo.RESTError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusForbidden {
			return sessions.Key{}, noPlaces(sessions.PlaceNoRights, b.lackedRight(t.Key, typ), err)
		}
		return sessions.Key{}, fmt.Errorf("discord: opening the place of a tournament game in channel %s: %w", t.Key.Channel, err)
	}
	b.where.learn(th.ID, discordgo.ChannelTypeGuildPublicThread, t.Key.Channel)
	key := sessions.Key{Platform: Platform, Channel: t.Key.Channel, Thread: th.ID}
	if isForum(typ) {
		b.addButtons(ctx, key, g)
	}
	return key, nil
}

// lackedRight names the right Discord refused a place for: the first the
// last interaction's permissions lack, else creating threads (posts in a
// forum), which Discord's answer does not name.
func (b *Bot) lackedRight(key sessions.Key, typ discordgo.ChannelType) sessions.PlaceRight {
	if perms, ok := b.permsIn(key); ok {
		if r := missingRight(typ, perms); r != "" {
			return r
		}
	}
	return placeRights(typ)[0].right
}

// openPost opens a game's post in a forum: its starting message is the
// game's first board, mentioning both players, and it carries the forum's
// tag for the round when there is one. The board's post that follows the
// game's opening is then not made again (b.starters).
func (b *Bot) openPost(ctx context.Context, forum, name string, g sessions.PlaceGame) (*discordgo.Channel, error) {
	n := sessions.Notice{Kind: sessions.NoticeTourGame, Key: sessions.Key{Platform: Platform, Channel: forum}, Session: g.Start,
		Tour: &sessions.TourEvent{Kind: sessions.TourRoundPaired, Round: g.Round, Tournament: g.Tournament}}
	o, _, err := b.noticeMessage(n)
	if err != nil {
		b.log.Error("discord: drawing the board", "forum", forum, "err", err)
	}
	o.components = nil // they name the post: added once it exists
	start := &discordgo.ThreadStart{Name: name, AutoArchiveDuration: 10080}
	if tag := b.roundTag(ctx, forum, g.Round); tag != "" {
		start.AppliedTags = []string{tag}
	}
	th, err := b.c.ForumThreadStartComplex(forum, start, o.send(), discordgo.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	if len(b.starters) >= maxPlaces {
		clear(b.starters)
	}
	b.starters[th.ID] = true
	b.mu.Unlock()
	return th, nil
}

// addButtons puts the game's buttons under the starting board of its
// forum post (the post's first message has the post's id).
func (b *Bot) addButtons(ctx context.Context, key sessions.Key, g sessions.PlaceGame) {
	n := sessions.Notice{Kind: sessions.NoticeTourGame, Key: key, Session: g.Start,
		Tour: &sessions.TourEvent{Kind: sessions.TourRoundPaired, Round: g.Round, Tournament: g.Tournament}}
	o, _, _ := b.noticeMessage(n)
	if len(o.components) == 0 {
		return
	}
	if _, err := b.c.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: key.Thread, ID: key.Thread, Components: &o.components},
		discordgo.WithContext(ctx)); err != nil {
		b.log.Warn("discord: adding the buttons to a game's post", "post", key.Thread, "err", err)
	}
}

// roundTag returns the id of the forum's tag for round n, "" when it has
// none: a tag named "Round n" in any case and spacing, or the round's word
// of any catalogue ("Ronda 2", "Runde 2"; DiscordRoundTag). The forum's
// tags are asked once per round.
func (b *Bot) roundTag(ctx context.Context, forum string, n int) string {
	b.mu.Lock()
	c, ok := b.tags[forum]
	b.mu.Unlock()
	if ok && c.round == n {
		return c.tag
	}
	ch, err := b.c.Channel(forum, discordgo.WithContext(ctx))
	if err != nil {
		b.log.Warn("discord: reading a forum's tags", "forum", forum, "err", err)
		return ""
	}
	names := map[string]bool{tagName("Round " + strconv.Itoa(n)): true}
	for _, lang := range b.h.Catalogues().Langs() {
		names[tagName(b.h.Catalogues().In(lang).T("DiscordRoundTag", "Round", n))] = true
	}
	tag := ""
	for _, t := range ch.AvailableTags {
		if names[tagName(t.Name)] {
			tag = t.ID
			break
		}
	}
	b.mu.Lock()
	if len(b.tags) >= maxPlaces {
		clear(b.tags)
	}
	b.tags[forum] = forumRound{round: n, tag: tag}
	b.mu.Unlock()
	return tag
}

// forumRound is a forum's tag for a round, as last asked.
type forumRound struct {
	round int
	tag   string
}

// tagName is a tag's name as roundTag compares them: lower case, its
// words one space apart.
func tagName(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
