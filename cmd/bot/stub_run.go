package main

import (
	"context"
	"errors"
	"io"
)

// Placeholder: replaced by the server and console (sessions issue).
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("not built yet")
}

func cmdConsole(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("not built yet")
}
