package discord

import (
	"strings"

	"github.com/boardgamebot/bot/chat"
	"github.com/bwmarrin/discordgo"
)

// reviewEmbed lays a game's review (/review) out as Discord shows it: an
// embed titled with the reply's first line, the players' summary as its
// description, the graph (the attached picture) as its image and the
// game's web page as its link; the list of mistakes is the message's
// content.
func reviewEmbed(r chat.Reply) (content string, embeds []*discordgo.MessageEmbed) {
	n := min(max(r.Figure.Summary, 1), len(r.Lines))
	if n == 0 {
		return "", nil
	}
	e := &discordgo.MessageEmbed{Title: clip(r.Lines[0], 256), Description: clip(strings.Join(r.Lines[1:n], "\n"), 4096),
		Image: &discordgo.MessageEmbedImage{URL: "attachment://" + fileName(r.Figure.Name, "picture.png")}}
	if r.Web != nil && len(r.Web.Watch) <= 2048 {
		e.URL = r.Web.Watch
	}
	return strings.Join(r.Lines[n:], "\n"), []*discordgo.MessageEmbed{e}
}
