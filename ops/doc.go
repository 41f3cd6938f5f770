// Package ops is what an operator sees of a running bot: its metrics in
// the Prometheus exposition format (/metrics), and its health (/healthz:
// the process is alive and its loops turn; /readyz: the store answers and
// the platforms are connected or retrying).
//
// Nothing here is global: main makes a Metrics (its own Prometheus
// registry) and a Health, and passes them to the packages that count, as
// the small interfaces those packages declare (sessions.Metrics,
// chat.Observer); each package counts nothing when given none.
//
// Every label value comes from a closed set: the platforms the bot
// serves, the commands of the language, the outcomes, the stores, the
// computer's levels. No label ever carries a user, chat or game id.
package ops
