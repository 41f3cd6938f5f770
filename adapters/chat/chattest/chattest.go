// Package chattest helps the adapters' tests speak a second language
// before its catalogue exists: a tiny Spanish catalogue next to the real
// English one.
package chattest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing/fstest"

	"github.com/boardgamebot/bot/adapters/chat"
)

// Spanish is a test catalogue: a few messages of a game in Spanish; the
// others fall back to English.
const Spanish = `
LangName:
  other: "Español"
ToMove:
  other: "Turno de {{.Player}}: /move <jugada>."
EventMoved:
  other: "{{.Player}} jugó {{.Move}}."
EventStarted:
  other: "Empieza la partida: {{.Game}}, {{.Players}}; {{.Terms}}."
SeatWhite:
  other: "Blancas"
SeatBlack:
  other: "Negras"
LangSet:
  other: "Desde ahora te hablo en {{.Name}}."
CmdShort_move:
  other: "jugar una jugada, como /move c3-d4"
`

// Words returns the English catalogue of adapters/chat and the test
// Spanish one, default def.
func Words(def string) (*chat.Words, error) {
	_, file, _, _ := runtime.Caller(0)
	en, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "locales", "en.yaml"))
	if err != nil {
		return nil, err
	}
	return chat.NewWordsFS(fstest.MapFS{
		"locales/en.yaml": {Data: en},
		"locales/es.yaml": {Data: []byte(Spanish)},
	}, def)
}
