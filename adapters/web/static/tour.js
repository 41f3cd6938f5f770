// @ts-check
// tour.js opens a tournament's page from its link: the link's token is in
// the address's fragment (#t=, which the browser never sends), so the
// page asks for itself again with the token in a header, and takes the
// token out of the address at once (no token in the history).

const hash = new URLSearchParams(location.hash.slice(1));
const query = new URLSearchParams(location.search);
const token = hash.get('t') || query.get('t') || '';
if (hash.has('t') || query.has('t')) {
  hash.delete('t');
  query.delete('t');
  const q = query.toString(), h = hash.toString();
  history.replaceState(history.state, '', location.pathname + (q ? '?' + q : '') + (h ? '#' + h : ''));
}

/** open asks for the page with the token and shows it. */
async function open() {
  const res = await fetch(location.pathname, {headers: {'X-Board-Token': token || '-'}}).catch(() => null);
  if (!res) return;
  const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
  const main = doc.getElementById('tournament');
  const here = document.getElementById('tournament');
  if (!main || !here) return;
  here.replaceWith(document.adoptNode(main));
  document.title = doc.title;
}
open();
