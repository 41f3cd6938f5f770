package main

import (
	"context"
	"errors"
	"io"
)

// Placeholder: replaced by the render tool (render issue).
func cmdRender(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("not built yet")
}
