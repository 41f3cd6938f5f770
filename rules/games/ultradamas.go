package games

// ultradamasEntries lists the games of package rules/ultradamas.
// Placeholder until that package exists; its author replaces this file.
func ultradamasEntries() []entry { return nil }
