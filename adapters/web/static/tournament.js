// @ts-check
// tournament.js keeps a tournament's page live: its standings, its
// crosstable and its rounds' games, as the server draws them, replaced at
// every change (a stream of Server-Sent Events, as the board's).

const main = document.getElementById('tournament');
const live = document.getElementById('live');
const query = new URLSearchParams(location.search);
const token = new URLSearchParams(location.hash.slice(1)).get('t') || query.get('t') || query.get('v') || '';

if (main && live && main.dataset.ref) {
  const es = new EventSource(`/t/${main.dataset.ref}/events?t=${encodeURIComponent(token)}&lang=${encodeURIComponent(document.documentElement.lang)}`);
  es.addEventListener('tournament', e => {
    /** @type {{v: string, html: string}} */
    const j = JSON.parse(e.data);
    if (j.v === live.dataset.v) return; // the page has it
    live.innerHTML = j.html; // drawn by the server's template, escaped there
    live.dataset.v = j.v;
  });
  es.addEventListener('end', () => es.close());
}
