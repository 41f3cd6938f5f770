// @ts-check
// api.js is the page's side of the server's API: the game's state and
// frames, the actions (sent again on a network failure, under the same
// request id), and the live stream of states with its retry.

/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Frames} Frames */
/** @typedef {import('./types.js').Answer} Answer */
/** @typedef {import('./types.js').Login} Login */
/** @typedef {import('./types.js').Pass} Pass */

/**
 * Link is the game a page shows and the link's token that opens it
 * (sent in a header only), with the page's language, and the stream
 * token derived from it for minutes (pass: the stream and downloads,
 * whose addresses carry it).
 * @typedef {object} Link
 * @property {string} ref
 * @property {string} token
 * @property {string} lang
 * @property {string} [pass]
 */

/**
 * Failure is a request the server refused (or whose answer never came:
 * status 0), with the server's reason.
 * @typedef {object} Failure
 * @property {number} status
 * @property {string} error
 */

/**
 * get asks the server for path with the link's token: the answer's
 * JSON, or why not.
 * @template T
 * @param {Link} link
 * @param {string} path
 * @returns {Promise<{value: T} | {failure: Failure}>}
 */
async function get(link, path) {
  const res = await fetch(`/g/${link.ref}/${path}`, {headers: {'X-Board-Token': link.token}}).catch(() => null);
  if (!res) return {failure: {status: 0, error: ''}};
  const j = await res.json().catch(() => ({}));
  if (!res.ok) return {failure: {status: res.status, error: j.error || ''}};
  return {value: j};
}

/**
 * fetchState asks for the game's state now.
 * @param {Link} link
 * @returns {Promise<{value: State} | {failure: Failure}>}
 */
export function fetchState(link) {
  return get(link, `state?lang=${encodeURIComponent(link.lang)}`);
}

/**
 * fetchFrames asks for a finished game's positions.
 * @param {Link} link
 * @returns {Promise<{value: Frames} | {failure: Failure}>}
 */
export function fetchFrames(link) {
  return get(link, 'frames');
}

/**
 * renewPass asks for the link's stream token (the link's token in the
 * header) and keeps it on link.pass, asking again before it ends: the
 * answer, or why not.
 * @param {Link} link
 * @returns {Promise<{value: Pass} | {failure: Failure}>}
 */
export async function renewPass(link) {
  /** @type {{value: Pass} | {failure: Failure}} */
  const r = await get(link, 'pass');
  if ('value' in r) {
    link.pass = r.value.token;
    clearTimeout(renewal);
    renewal = setTimeout(() => renewPass(link), Math.max(10, r.value.seconds / 2) * 1000);
  }
  return r;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let renewal;

/** requestID is a new action's id. */
function requestID() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, x => x.toString(16).padStart(2, '0')).join('');
}

/**
 * act sends an action with a request id of its own, again with the same
 * id when the network failed (the server applies it once): the server's
 * answer, or null when the network failed three times.
 * @param {Link} link
 * @param {string} action
 * @param {string} [arg]
 * @returns {Promise<Answer | null>}
 */
export async function act(link, action, arg) {
  const id = requestID();
  const body = JSON.stringify(arg ? {id, arg} : {id});
  for (let attempt = 0; attempt < 3; attempt++) {
    let res;
    try {
      res = await fetch(`/g/${link.ref}/${action}?lang=${encodeURIComponent(link.lang)}`, {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-Board-Token': link.token}, body});
    } catch (e) {
      await new Promise(r => setTimeout(r, 500 * (attempt + 1)));
      continue;
    }
    return res.json().catch(() => ({}));
  }
  return null;
}

/**
 * signIn sends Telegram's signed launch data (init) for the game g names
 * (empty: the user's private chat's) and gets the link's token: the
 * answer, or null when the network failed.
 * @param {string} init
 * @param {string} g
 * @returns {Promise<{ok: boolean, login: Login} | null>}
 */
export async function signIn(init, g) {
  const res = await fetch('/tg/login', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({init, g})}).catch(() => null);
  if (!res) return null;
  return {ok: res.ok, login: await res.json().catch(() => ({}))};
}

/**
 * StreamEvents are what the stream reports.
 * @typedef {object} StreamEvents
 * @property {(st: State) => void} state a state, sent at every change of the game
 * @property {(lost: boolean) => void} lost the connection lost (true) or back (false)
 * @property {(f: Failure) => void} refused the server refused the link
 */

/**
 * Stream is the live stream of a game's states.
 * @typedef {object} Stream
 * @property {() => boolean} open whether states arrive now
 */

/**
 * stream follows the game's states live (with the link's stream token:
 * renewPass first): the browser reconnects a
 * stream that broke; one the server refused (the server full, the link
 * gone bad) is replaced by a plain request for the state, or why not, and
 * a new stream later while the link is good. It ends with the game.
 * @param {Link} link
 * @param {StreamEvents} on
 * @returns {Stream}
 */
export function stream(link, on) {
  let ended = false;
  /** @type {EventSource | undefined} */
  let es;
  const url = () => `/g/${link.ref}/events?t=${encodeURIComponent(link.pass || '')}&lang=${encodeURIComponent(link.lang)}`;
  const connect = async () => {
    if (es) {
      // The stream token may have ended while the stream was away.
      const r = await renewPass(link);
      if ('failure' in r && r.failure.status !== 0) {
        on.refused(r.failure);
        return;
      }
    }
    es = new EventSource(url());
    es.addEventListener('state', e => on.state(JSON.parse(e.data)));
    es.addEventListener('end', () => {
      ended = true;
      es.close();
    });
    es.onopen = () => on.lost(false);
    es.onerror = () => {
      if (ended) return;
      if (es.readyState === EventSource.CLOSED) {
        // A refused stream (429: too many from this address or on this
        // game) is asked for again after the server's Retry-After.
        fetch(url() + '&probe=1').then(r => 1000 * (r.status === 429 ? Number(r.headers.get('Retry-After')) || 10 : 5), () => 5000)
          .then(wait => poll(link, on).then(ok => { if (ok && !ended) setTimeout(connect, wait); }));
      } else {
        on.lost(true);
      }
    };
  };
  connect();
  return {open: () => !!es && es.readyState === EventSource.OPEN};
}

/**
 * poll asks for the state once and reports it, or the refusal: false when
 * the link is refused (the network failing is not a refusal).
 * @param {Link} link
 * @param {{state: (st: State) => void, refused: (f: Failure) => void}} on
 * @returns {Promise<boolean>}
 */
export async function poll(link, on) {
  const r = await fetchState(link);
  if ('value' in r) {
    on.state(r.value);
    return true;
  }
  if (r.failure.status === 0) return true; // the network: try the stream again later
  on.refused(r.failure);
  return false;
}
