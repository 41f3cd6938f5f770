package main

import (
	"context"
	"errors"
	"io"
)

// Placeholder: replaced by the perft and moves tools (rules issue).
func cmdPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("not built yet")
}

func cmdMoves(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("not built yet")
}
