package chat

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
)

// The message catalogues, one file per language (locales/<lang>.yaml),
// embedded in the binary. locales/en.yaml is the source: every message,
// with a description of where it shows, for translators. Adding a language
// is adding its file.
//
//go:embed locales/*.yaml
var locales embed.FS

// DefaultLang is the language of the bot when nothing else is said.
const DefaultLang = "en"

// Words holds the catalogues and words messages in a language. It is safe
// for concurrent use.
type Words struct {
	bundle *i18n.Bundle
	langs  []string
	def    string
	locs   map[string]*i18n.Localizer
}

// NewWords loads the embedded catalogues; def is the default language
// (config lang), which must be one of them.
func NewWords(def string) (*Words, error) {
	return newWords(locales, def, nil)
}

// newWords loads the catalogues of fsys; wrap, when set, rewrites every
// message (the tests' pseudo-language).
func newWords(fsys fs.FS, def string, wrap func(string) string) (*Words, error) {
	if def == "" {
		def = DefaultLang
	}
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("yaml", yaml.Unmarshal)
	files, err := fs.Glob(fsys, "locales/*.yaml")
	if err != nil {
		return nil, err
	}
	w := &Words{bundle: b, locs: map[string]*i18n.Localizer{}}
	for _, f := range files {
		buf, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		mf, err := b.ParseMessageFileBytes(buf, f)
		if err != nil {
			return nil, fmt.Errorf("catalogue %s: %w", f, err)
		}
		if wrap != nil {
			for _, m := range mf.Messages {
				for _, form := range []*string{&m.Zero, &m.One, &m.Two, &m.Few, &m.Many, &m.Other} {
					if *form != "" {
						*form = wrap(*form)
					}
				}
			}
			if err := b.AddMessages(mf.Tag, mf.Messages...); err != nil {
				return nil, err
			}
		}
		w.langs = append(w.langs, strings.TrimSuffix(path.Base(f), ".yaml"))
	}
	slices.Sort(w.langs)
	if !slices.Contains(w.langs, def) {
		return nil, fmt.Errorf("language %q has no catalogue (have %s)", def, strings.Join(w.langs, ", "))
	}
	w.def = def
	for _, l := range w.langs {
		w.locs[l] = i18n.NewLocalizer(b, l, def, DefaultLang)
	}
	return w, nil
}

// Langs lists the languages of the catalogues.
func (w *Words) Langs() []string { return slices.Clone(w.langs) }

// Default is the default language.
func (w *Words) Default() string { return w.def }

// Has reports whether lang has a catalogue.
func (w *Words) Has(lang string) bool { return w.locs[lang] != nil }

// In returns a speaker of lang (the default when lang has no catalogue).
func (w *Words) In(lang string) Speaker {
	l := w.locs[lang]
	if l == nil {
		lang, l = w.def, w.locs[w.def]
	}
	return Speaker{loc: l, Lang: lang}
}

// Speaker words messages in one language.
type Speaker struct {
	loc  *i18n.Localizer
	Lang string
}

// T words message id with its named placeholders, given as pairs: "Name",
// value, .... A count, for plural forms, is the pair "Count", n.
func (p Speaker) T(id string, kv ...any) string {
	var data map[string]any
	var count any
	if len(kv) > 0 {
		data = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			k := kv[i].(string)
			data[k] = kv[i+1]
			if k == "Count" {
				count = kv[i+1]
			}
		}
	}
	s, err := p.loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil && s == "" && count != nil {
		// A message without plural forms that names a count: its other form.
		s, err = p.loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
	}
	if err != nil && s == "" {
		// A message missing from every catalogue is a bug the catalogue
		// test catches; show its id rather than nothing.
		return id
	}
	return s
}

// Maybe words message id like T, and reports false when no catalogue
// has it (an optional message: the long help of a command).
func (p Speaker) Maybe(id string, kv ...any) (string, bool) {
	s := p.T(id, kv...)
	return s, s != id
}

// LangOf maps a platform's language tag (Telegram's language_code "es-MX",
// Discord's locale "es-419") to a catalogue's language, or "" when none
// fits. Filipino ("fil") is spoken as Tagalog.
func (w *Words) LangOf(tag string) string {
	base, _, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(tag, "_", "-")), "-")
	if base == "fil" {
		base = "tl"
	}
	if w.Has(base) {
		return base
	}
	return ""
}
