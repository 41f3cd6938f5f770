package chat

// The web board's words of a finished game's review (its graph and "find
// the better move"), which the page shows.
func init() {
	webPageWords = append(webPageWords, "WebReview", "WebReviewGraph", "WebFindBetter", "WebBetterAt", "WebBetterDone", "WebBestMove")
}
