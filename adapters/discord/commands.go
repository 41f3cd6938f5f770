package discord

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/boardgamebot/bot/adapters/chat"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/bwmarrin/discordgo"
)

// slashNames are the slash commands the bot registers, in order: the
// command language's names (DESIGN.md), without /notify (Telegram's).
var slashNames = []string{"play", "accept", "decline", "cancel", "move", "moves", "board", "draw", "resign",
	"takeback", "rematch", "setup", "huff", "history", "show", "replay", "export", "rating", "top", "games", "help"}

// private lists the commands whose answer only the user sees.
var private = map[string]bool{"help": true, "games": true, "moves": true}

// maxDescription is Discord's longest command or option description.
const maxDescription = 100

// commands builds the slash commands: names and descriptions from the chat
// handler's command list, options per command.
func commands(h *chat.Handler, list []games.Info) []*discordgo.ApplicationCommand {
	short := map[string]string{}
	for _, c := range h.Commands() {
		short[c.Command] = c.Label
	}
	var gameChoices []*discordgo.ApplicationCommandOptionChoice
	for _, g := range list {
		gameChoices = append(gameChoices, &discordgo.ApplicationCommandOptionChoice{Name: g.Name, Value: g.ID})
	}
	str := func(name, desc string, required bool) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: name,
			Description: desc, Required: required}
	}
	choices := func(o *discordgo.ApplicationCommandOption, values ...string) *discordgo.ApplicationCommandOption {
		for _, v := range values {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: v, Value: v})
		}
		return o
	}
	intChoices := func(name, desc string, values ...int) *discordgo.ApplicationCommandOption {
		o := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: name, Description: desc}
		for _, v := range values {
			o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: strconv.Itoa(v), Value: v})
		}
		return o
	}
	boolean := func(name, desc string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: name, Description: desc}
	}
	user := func(name, desc string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: name, Description: desc}
	}
	game := func(required bool) *discordgo.ApplicationCommandOption {
		o := str("game", "the game", required)
		o.Choices = gameChoices
		return o
	}
	var helpChoices []*discordgo.ApplicationCommandOptionChoice
	for _, n := range slashNames {
		helpChoices = append(helpChoices, &discordgo.ApplicationCommandOptionChoice{Name: n, Value: n})
	}
	options := map[string][]*discordgo.ApplicationCommandOption{
		"play": {
			game(true),
			user("opponent", "who you challenge; choose me to play the computer; nobody: anyone here may accept"),
			choices(str("color", "your colour (default random)", false), "white", "black", "random"),
			choices(str("time", "time per move (default "+h.DefaultTime(Platform).String()+")", false), timeChoices(h.DefaultTime(Platform))...),
			boolean("rated", "whether the game counts for the ratings (default yes)"),
			intChoices("level", "the computer's level", 1, 2, 3, 4, 5),
			intChoices("size", "Halma: the board", 8, 10, 16),
			intChoices("players", "Halma on 16x16: 2 or 4 players", 2, 4),
			boolean("flying", "German Dame: kings move and capture at any distance (default yes)"),
			boolean("huff", "Damas: huffing instead of forced captures (default no)"),
		},
		"move": {{Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "the move, like c3-d4 (start typing: the legal moves are offered)",
			Required: true, Autocomplete: true}},
		"setup":   {str("squares", "default, or the squares of your 12 pieces", true)},
		"huff":    {{Type: discordgo.ApplicationCommandOptionString, Name: "square", Description: "the square of the piece to huff", Required: true, Autocomplete: true}},
		"history": {user("user", "whose games (default: this channel's)"), game(false)},
		"show":    {str("id", "the game's id (from /history)", true)},
		"replay":  {str("id", "the game's id (from /history)", true)},
		"export":  {str("id", "the game's id (from /history)", true)},
		"rating":  {user("user", "whose rating (default yours)"), game(false)},
		"top":     {game(false), str("month", "a month, like 2026-11 (default: all time)", false)},
		"help":    {{Type: discordgo.ApplicationCommandOptionString, Name: "command", Description: "a command to explain", Choices: helpChoices}},
	}
	// Anyone who may send messages in a server channel may use the
	// commands; they are not offered in private messages.
	members := int64(discordgo.PermissionSendMessages)
	where := []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	var out []*discordgo.ApplicationCommand
	for _, n := range slashNames {
		desc := short[n]
		if desc == "" {
			desc = n
		}
		out = append(out, &discordgo.ApplicationCommand{Type: discordgo.ChatApplicationCommand, Name: n,
			Description: clip(desc, maxDescription), Options: options[n],
			DefaultMemberPermissions: &members, Contexts: &where})
	}
	return out
}

// timeChoices are the choices of /play's time option: 5m, 10m, 1h, 1d, 3d
// and off, with the platform's default among them wherever it falls.
func timeChoices(def sessions.Duration) []string {
	spans := []sessions.Duration{sessions.Duration(5 * time.Minute), sessions.Duration(10 * time.Minute),
		sessions.Duration(time.Hour), sessions.Duration(24 * time.Hour), sessions.Duration(72 * time.Hour)}
	if def > 0 && !slices.Contains(spans, def) {
		spans = append(spans, def)
		slices.Sort(spans)
	}
	var out []string
	for _, d := range spans {
		out = append(out, d.String())
	}
	return append(out, "off")
}

// commandText turns a slash command into the text of the command language
// and the users it names. bot is the bot's own user id: choosing the bot
// as the opponent means the computer.
func commandText(d discordgo.ApplicationCommandInteractionData, bot string) (string, map[string]sessions.User) {
	words := []string{"/" + d.Name}
	mentions := map[string]sessions.User{}
	opt := func(name string) *discordgo.ApplicationCommandInteractionDataOption { return d.GetOption(name) }
	token := func(o *discordgo.ApplicationCommandInteractionDataOption) string {
		switch v := o.Value.(type) {
		case string:
			return strings.Join(strings.Fields(v), "")
		case bool:
			if v {
				return "yes"
			}
			return "no"
		case float64:
			return strconv.FormatInt(int64(v), 10)
		}
		return fmt.Sprint(o.Value)
	}
	userWord := func(o *discordgo.ApplicationCommandInteractionDataOption) string {
		id, _ := o.Value.(string)
		if id == bot && bot != "" {
			return "bot"
		}
		u := sessions.User{ID: id, Name: id}
		if d.Resolved != nil {
			du := d.Resolved.Users[id]
			var m *discordgo.Member
			if d.Resolved.Members != nil {
				m = d.Resolved.Members[id]
			}
			if du != nil {
				u = sessions.User{ID: id, Name: displayName(du, m)}
			}
		}
		w := "u" + id
		mentions[w] = u
		return "@" + w
	}
	switch d.Name {
	case "play":
		if o := opt("game"); o != nil {
			words = append(words, token(o))
		}
		if o := opt("opponent"); o != nil {
			words = append(words, userWord(o))
		}
		for _, k := range []string{"color", "time", "rated", "level", "size", "players", "flying", "huff"} {
			if o := opt(k); o != nil {
				words = append(words, k+"="+token(o))
			}
		}
	case "setup":
		if o := opt("squares"); o != nil {
			s, _ := o.Value.(string)
			words = append(words, strings.Fields(s)...)
		}
	case "history", "rating", "top":
		if o := opt("user"); o != nil {
			words = append(words, userWord(o))
		}
		for _, k := range []string{"game", "month"} {
			if o := opt(k); o != nil {
				words = append(words, token(o))
			}
		}
	default:
		// Every other option is one word, in the order the command lists them.
		for _, o := range d.Options {
			if o.Type == discordgo.ApplicationCommandOptionUser {
				words = append(words, userWord(o))
				continue
			}
			if t := token(o); t != "" {
				words = append(words, t)
			}
		}
	}
	return strings.Join(words, " "), mentions
}

// displayName is the name people see: the server nickname, else the
// global display name, else the user name.
func displayName(u *discordgo.User, m *discordgo.Member) string {
	switch {
	case m != nil && m.Nick != "":
		return m.Nick
	case u == nil:
		return ""
	case u.GlobalName != "":
		return u.GlobalName
	}
	return u.Username
}

// clip cuts s to at most n runes, with an ellipsis when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
