module oldmatch

go 1.26.8

require (
	github.com/boardgamebot/bot v0.0.0
	oldbot v0.0.0
)

replace github.com/boardgamebot/bot => ../../../..

replace oldbot => ./old
