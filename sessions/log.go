package sessions

import "log/slog"

// LogAttr returns the key as the attributes every log line about a session
// carries: session (the key, as String gives it) and platform, side by side
// (an attribute of an empty name, which slog's handlers inline).
func (k Key) LogAttr() slog.Attr {
	return slog.Attr{Value: slog.GroupValue(slog.String("session", k.String()), slog.String("platform", k.Platform))}
}
