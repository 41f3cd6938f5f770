package discord

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/boardgamebot/bot/chat"
	"github.com/boardgamebot/bot/rules/games"
	"github.com/boardgamebot/bot/sessions"
	"github.com/bwmarrin/discordgo"
)

// slashNames are the slash commands the bot registers, in order: the
// command language's names (DESIGN.md), without /notify (Telegram's).
var slashNames = []string{"play", "accept", "decline", "cancel", "move", "moves", "board", "web", "draw", "resign",
	"takeback", "rematch", "setup", "huff", "history", "show", "replay", "export", "review", "rating", "top", "profile", "vs", "games", "help", "lang",
	"tournament"}

// tourSubs are the subcommands of /tournament, in order.
var tourSubs = []string{"new", "join", "leave", "start", "standings", "show", "cancel"}

// private lists the commands whose answer only the user sees (/web: the
// user's own link plays as them).
var private = map[string]bool{"help": true, "games": true, "moves": true, "web": true}

// maxDescription is Discord's longest command or option description.
const maxDescription = 100

// discordLocales are the Discord locales each catalogue speaks for:
// adding a language Discord has is adding its line here.
func discordLocales() map[string][]discordgo.Locale {
	return map[string][]discordgo.Locale{
		"en": {discordgo.EnglishUS, discordgo.EnglishGB},
		"es": {discordgo.SpanishES, discordgo.SpanishLATAM},
		"de": {discordgo.German},
	}
}

// localized words a catalogue message in the bot's default language, and
// in every other language Discord has, by locale: the descriptions and
// choice names of the slash commands.
type localized struct {
	def   chat.Speaker
	other map[discordgo.Locale]chat.Speaker
}

func newLocalized(w *chat.Catalogues) localized {
	l := localized{def: w.In(""), other: map[discordgo.Locale]chat.Speaker{}}
	for _, lang := range w.Langs() {
		if lang == w.Default() {
			continue
		}
		for _, loc := range discordLocales()[lang] {
			l.other[loc] = w.In(lang)
		}
	}
	return l
}

// text words f in each language: the default text and the localizations
// (nil when there are none), each cut to n runes.
func (l localized) text(n int, f func(p chat.Speaker) string) (string, map[discordgo.Locale]string) {
	def := clip(f(l.def), n)
	var out map[discordgo.Locale]string
	for loc, p := range l.other {
		if out == nil {
			out = map[discordgo.Locale]string{}
		}
		out[loc] = clip(f(p), n)
	}
	return def, out
}

// commands builds the slash commands: names and descriptions from the chat
// handler's command list, options per command, with the descriptions and
// the game choices in every language of the catalogues Discord has
// (description_localizations, name_localizations). Names stay English.
func commands(h *chat.Handler, list []games.Info) []*discordgo.ApplicationCommand {
	m := newOptionMaker(h, list)
	short := map[string]map[string]string{}
	for _, lang := range h.Catalogues().Langs() {
		short[lang] = map[string]string{}
		for _, c := range h.CommandsIn(lang) {
			short[lang][c.Command] = c.Label
		}
	}
	options := m.commandOptions(h)
	// Anyone who may send messages in a server channel may use the
	// commands; they are not offered in private messages.
	members := int64(discordgo.PermissionSendMessages)
	where := []discordgo.InteractionContextType{discordgo.InteractionContextGuild}
	var out []*discordgo.ApplicationCommand
	for _, n := range slashNames {
		d, ds := m.loc.text(maxDescription, func(p chat.Speaker) string {
			if s := short[p.Lang][n]; s != "" {
				return s
			}
			return n
		})
		c := &discordgo.ApplicationCommand{Type: discordgo.ChatApplicationCommand, Name: n,
			Description: d, Options: options[n], DefaultMemberPermissions: &members, Contexts: &where}
		if ds != nil {
			c.DescriptionLocalizations = &ds
		}
		out = append(out, c)
	}
	return out
}

// optionMaker makes the commands' options, described from the catalogues
// in every language.
type optionMaker struct {
	loc         localized
	gameChoices []*discordgo.ApplicationCommandOptionChoice
	def         sessions.Duration // the platform's default clock
}

func newOptionMaker(h *chat.Handler, list []games.Info) *optionMaker {
	m := &optionMaker{loc: newLocalized(h.Catalogues()), def: h.DefaultTime(Platform)}
	for _, g := range list {
		name, names := m.loc.text(100, func(p chat.Speaker) string {
			if w, ok := p.Maybe("GameName_" + g.ID); ok {
				return w
			}
			return g.Name
		})
		m.gameChoices = append(m.gameChoices, &discordgo.ApplicationCommandOptionChoice{Name: name, NameLocalizations: names, Value: g.ID})
	}
	return m
}

// desc is the catalogue message id in every language, cut to Discord's
// length of a description.
func (m *optionMaker) desc(id string, kv ...any) (string, *map[discordgo.Locale]string) {
	d, ds := m.loc.text(maxDescription, func(p chat.Speaker) string { return p.T(id, kv...) })
	if ds == nil {
		return d, nil
	}
	return d, &ds
}

func (m *optionMaker) opt(t discordgo.ApplicationCommandOptionType, name, id string, required bool, kv ...any) *discordgo.ApplicationCommandOption {
	d, ds := m.desc(id, kv...)
	o := &discordgo.ApplicationCommandOption{Type: t, Name: name, Description: d, Required: required}
	if ds != nil {
		o.DescriptionLocalizations = *ds
	}
	return o
}

func (m *optionMaker) str(name, id string, required bool, kv ...any) *discordgo.ApplicationCommandOption {
	return m.opt(discordgo.ApplicationCommandOptionString, name, id, required, kv...)
}

func choices(o *discordgo.ApplicationCommandOption, values ...string) *discordgo.ApplicationCommandOption {
	for _, v := range values {
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: v, Value: v})
	}
	return o
}

func (m *optionMaker) intChoices(name, id string, values ...int) *discordgo.ApplicationCommandOption {
	o := m.opt(discordgo.ApplicationCommandOptionInteger, name, id, false)
	for _, v := range values {
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{Name: strconv.Itoa(v), Value: v})
	}
	return o
}

func (m *optionMaker) boolean(name, id string) *discordgo.ApplicationCommandOption {
	return m.opt(discordgo.ApplicationCommandOptionBoolean, name, id, false)
}

func (m *optionMaker) user(name, id string) *discordgo.ApplicationCommandOption {
	return m.opt(discordgo.ApplicationCommandOptionUser, name, id, false)
}

func (m *optionMaker) game(required bool) *discordgo.ApplicationCommandOption {
	o := m.str("game", "DiscordOptGame", required)
	o.Choices = m.gameChoices
	return o
}

func auto(o *discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	o.Autocomplete = true
	return o
}

func required(o *discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	o.Required = true
	return o
}

// ladder is /top's ladder: this server's (the default) or the platform's,
// whose value is the word /top takes, chat.Global, in every language.
func (m *optionMaker) ladder() *discordgo.ApplicationCommandOption {
	ladder := m.str("ladder", "DiscordOptLadder", false)
	for _, c := range []struct{ value, id string }{{"here", "DiscordLadderHere"}, {chat.Global, "DiscordLadderGlobal"}} {
		name, names := m.loc.text(100, func(p chat.Speaker) string { return p.T(c.id, "Global", p.T("WordGlobal")) })
		ladder.Choices = append(ladder.Choices, &discordgo.ApplicationCommandOptionChoice{Name: name, NameLocalizations: names, Value: c.value})
	}
	return ladder
}

// tournament is /tournament's subcommands.
func (m *optionMaker) tournament() []*discordgo.ApplicationCommandOption {
	tourDesc := map[string]string{"new": "DiscordTour_new", "join": "DiscordTour_join", "leave": "DiscordTour_leave",
		"start": "DiscordTour_start", "standings": "DiscordTour_standings", "show": "DiscordTour_show", "cancel": "DiscordTour_cancel"}
	sub := func(name string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		o := m.opt(discordgo.ApplicationCommandOptionSubCommand, name, tourDesc[name], false)
		o.Options = opts
		return o
	}
	rounds := m.opt(discordgo.ApplicationCommandOptionInteger, "rounds", "DiscordOptRounds", false)
	minRounds := 1.0
	rounds.MinValue, rounds.MaxValue = &minRounds, 11
	var tour []*discordgo.ApplicationCommandOption
	for _, n := range tourSubs {
		switch n {
		case "new":
			// The games a tournament offers are /play's: the four-player
			// Halma has no players option here.
			tour = append(tour, sub(n,
				m.game(true),
				choices(m.str("format", "DiscordOptFormat", false), string(sessions.FormatSwiss), string(sessions.FormatRoundRobin)),
				rounds,
				m.boolean("double", "DiscordOptDouble"),
				choices(m.str("time", "DiscordOptTime", false, "Time", m.def.String()), timeChoices(m.def)...),
				m.boolean("rated", "DiscordOptTourRated"),
				auto(m.str("options", "DiscordOptGameOptions", false))))
		case "show":
			tour = append(tour, sub(n, m.str("id", "DiscordOptTourID", true)))
		default:
			tour = append(tour, sub(n))
		}
	}
	return tour
}

// commandOptions are the options of each command that has some.
func (m *optionMaker) commandOptions(h *chat.Handler) map[string][]*discordgo.ApplicationCommandOption {
	options := map[string][]*discordgo.ApplicationCommandOption{
		"tournament": m.tournament(),
		"play": {
			m.game(true),
			m.user("opponent", "DiscordOptOpponent"),
			choices(m.str("color", "DiscordOptColor", false), "white", "black", "random"),
			choices(m.str("time", "DiscordOptTime", false, "Time", m.def.String()), timeChoices(m.def)...),
			m.boolean("rated", "DiscordOptRated"),
			m.intChoices("level", "DiscordOptLevel", 1, 2, 3, 4, 5),
			m.intChoices("size", "DiscordOptSize", 8, 10, 16),
			m.intChoices("players", "DiscordOptPlayers", 2, 4),
			m.boolean("flying", "DiscordOptFlying"),
			m.boolean("huff", "DiscordOptHuff"),
		},
		"move":    {auto(m.str("move", "DiscordOptMove", true))},
		"setup":   {m.str("squares", "DiscordOptSquares", true)},
		"huff":    {auto(m.str("square", "DiscordOptSquare", true))},
		"history": {m.user("user", "DiscordOptHistoryUser"), m.game(false)},
		"show":    {m.str("id", "DiscordOptID", true)},
		"replay":  {m.str("id", "DiscordOptID", true)},
		"export":  {m.str("id", "DiscordOptID", true)},
		"review":  {m.str("id", "DiscordOptID", false)},
		"rating":  {m.user("user", "DiscordOptRatingUser"), m.game(false)},
		"top":     {m.ladder(), m.game(false), m.str("month", "DiscordOptMonth", false)},
		"profile": {m.user("user", "DiscordOptProfileUser")},
		"vs":      {required(m.user("user", "DiscordOptVsUser")), m.game(false)},
		// More commands than the 25 choices Discord takes: the command's
		// name is autocompleted.
		"help": {{Type: discordgo.ApplicationCommandOptionString, Name: "command", Autocomplete: true}},
		"lang": {choices(m.str("lang", "DiscordOptLang", false), h.Catalogues().Langs()...)},
	}
	hd, hds := m.desc("DiscordOptCommand")
	options["help"][0].Description = hd
	if hds != nil {
		options["help"][0].DescriptionLocalizations = *hds
	}
	return options
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
	case "tournament":
		words = append(words, tourWords(d.Options, token)...)
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
	case "history", "rating", "top", "profile", "vs":
		if o := opt("ladder"); o != nil && token(o) == chat.Global {
			words = append(words, chat.Global)
		}
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

// tourWords are the words of a /tournament subcommand: "new spanish
// format=swiss rounds=3 size=10", "join", "show 3".
func tourWords(opts []*discordgo.ApplicationCommandInteractionDataOption, token func(*discordgo.ApplicationCommandInteractionDataOption) string) []string {
	if len(opts) == 0 || opts[0].Type != discordgo.ApplicationCommandOptionSubCommand {
		return nil
	}
	s := opts[0]
	words := []string{s.Name}
	get := func(name string) *discordgo.ApplicationCommandInteractionDataOption {
		for _, o := range s.Options {
			if o.Name == name {
				return o
			}
		}
		return nil
	}
	switch s.Name {
	case "new":
		if o := get("game"); o != nil {
			words = append(words, token(o))
		}
		for _, k := range []string{"format", "rounds", "double", "time", "rated"} {
			if o := get(k); o != nil {
				words = append(words, k+"="+token(o))
			}
		}
		if o := get("options"); o != nil {
			free, _ := o.Value.(string)
			words = append(words, strings.Fields(free)...)
		}
	case "show":
		if o := get("id"); o != nil {
			words = append(words, token(o))
		}
	}
	return words
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
