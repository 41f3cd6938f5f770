// @ts-check
// review.js shows a finished game's review: the graph of the winning
// chances (drawn here from the review's values; a click steps the replay
// to that ply), the marks of the move list, the better move at a mistake
// (an arrow on the board), and "find the better move": at each marked
// move in turn, the player tries a move of that position, the server
// checks it, and the page goes on to the next mistake.

/** @typedef {import('./types.js').Review} ReviewData */
/** @typedef {import('./types.js').Move} Move */
/** @typedef {import('./types.js').TryAnswer} TryAnswer */
/** @typedef {import('./types.js').Seat} Seat */
/** @typedef {import('./api.js').Link} Link */

const NS = 'http://www.w3.org/2000/svg';
const W = 300, H = 100; // the graph's units

/**
 * Review is what the page holds of the review: its values (null: the
 * game has none), the marked ply being tried (-1: none), the last line
 * to show.
 * @typedef {object} Review
 * @property {ReviewData | null} data
 * @property {number} trying
 * @property {string} line
 * @property {boolean} busy a tried move awaits the server's answer
 */

/** @returns {Review} */
export function newReview() {
  return {data: null, trying: -1, line: '', busy: false};
}

/**
 * mark is the mark of ply i ("?!", "?", "??"), or "".
 * @param {Review} rv
 * @param {number} i
 */
export function mark(rv, i) {
  const p = rv.data && rv.data.plies[i];
  return p && p.mark || '';
}

/**
 * next is the first marked ply after i, or -1.
 * @param {Review} rv
 * @param {number} i
 */
function next(rv, i) {
  if (!rv.data) return -1;
  for (let j = i + 1; j < rv.data.plies.length; j++) if (rv.data.plies[j].mark) return j;
  return -1;
}

/**
 * trial is the legal moves of the position being tried (a marked ply's
 * position), null when nothing is tried.
 * @param {Review} rv
 * @returns {Move[] | null}
 */
export function trial(rv) {
  if (!rv.data || rv.trying < 0) return null;
  return rv.data.plies[rv.trying].moves || [];
}

/**
 * arrow is the better move to draw on the board at frame (the position
 * after a marked ply shows the move that should have been played), none
 * while trying (the arrow would give the answer away).
 * @param {Review} rv
 * @param {number} frame
 * @returns {Move | null}
 */
export function arrow(rv, frame) {
  if (!rv.data || rv.trying >= 0 || frame < 1) return null;
  const p = rv.data.plies[frame - 1];
  return p && p.mark && p.best || null;
}

/**
 * start tries the next marked ply from frame (the first from the start
 * when none is left after it): step shows its position.
 * @param {Review} rv
 * @param {number} frame
 * @param {(i: number) => void} step
 * @param {(id: string, vars?: Object<string, string | number>) => string} say
 */
function start(rv, frame, step, say) {
  let i = next(rv, Math.max(-1, frame - 2));
  if (i < 0) i = next(rv, -1);
  rv.trying = i;
  rv.line = i < 0 ? say('WebBetterDone') : '';
  step(i < 0 ? frame : i);
}

/**
 * submit sends the move tried at the ply being tried; an accepted move
 * goes on to the next mistake.
 * @param {Review} rv
 * @param {Link} link
 * @param {Move} m
 * @param {(i: number) => void} step shows frame i
 * @param {(id: string, vars?: Object<string, string | number>) => string} say
 * @param {() => void} changed redraws the page
 */
export async function submit(rv, link, m, step, say, changed) {
  if (rv.trying < 0 || rv.busy) return;
  const ply = rv.trying;
  rv.busy = true;
  changed();
  /** @type {TryAnswer | null} */
  let a = null;
  let error = '';
  try {
    const res = await fetch(`/g/${link.ref}/better?lang=${encodeURIComponent(link.lang)}`, {method: 'POST',
      headers: {'Content-Type': 'application/json', 'X-Board-Token': link.token}, body: JSON.stringify({ply, move: m.t})});
    const j = await res.json().catch(() => ({}));
    if (res.ok && j.ok) a = j;
    else error = j.error || '';
  } catch (e) {
    error = say('WebReconnecting');
  }
  rv.busy = false;
  if (!a) {
    rv.line = error;
    changed();
    return;
  }
  rv.line = a.line;
  if (a.accepted) {
    const n = next(rv, ply);
    rv.trying = n;
    if (n < 0) {
      rv.line += ' ' + say('WebBetterDone');
      step(ply + 1);
    } else {
      step(n);
    }
  }
  changed();
}

/**
 * el makes an SVG element.
 * @param {string} name
 * @param {Object<string, string | number>} attrs
 * @param {Element} parent
 */
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  parent.appendChild(e);
  return e;
}

/**
 * show draws the review's panel: the graph with its marks and where the
 * replay stands, the line of the ply shown, the button of "find the
 * better move". Nothing when the game has no review.
 * @param {Review} rv
 * @param {HTMLElement} panel
 * @param {{frame: number, seats: Seat[], played: string[], say: (id: string, vars?: Object<string, string | number>) => string, step: (i: number) => void, changed: () => void}} o
 */
export function show(rv, panel, o) {
  const d = rv.data;
  panel.hidden = !d || d.plies.length === 0;
  if (!d || panel.hidden) return;
  if (!panel.dataset.built) {
    panel.dataset.built = '1';
    const h = document.createElement('h2');
    h.textContent = o.say('WebReview');
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('id', 'graph');
    svg.setAttribute('viewBox', `-4 -4 ${W + 8} ${H + 8}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', o.say('WebReviewGraph', {Player: (o.seats[0] || {}).player || ''}));
    svg.addEventListener('click', e => {
      const r = svg.getBoundingClientRect();
      const n = d.plies.length;
      const x = (e.clientX - r.left) / r.width * (W + 8) - 4;
      const i = Math.max(0, Math.min(n - 1, Math.round(n > 1 ? x / W * (n - 1) : 0)));
      rv.trying = -1;
      rv.line = '';
      o.step(i + 1);
    });
    const line = document.createElement('p');
    line.id = 'review-line';
    line.setAttribute('role', 'status');
    const find = document.createElement('button');
    find.type = 'button';
    find.className = 'find-better';
    find.textContent = o.say('WebFindBetter');
    find.addEventListener('click', () => start(rv, Number(panel.dataset.frame || 0), o.step, o.say));
    panel.replaceChildren(h, svg, line, find);
  }
  panel.dataset.frame = String(o.frame);
  panel.dataset.trying = String(rv.trying);
  const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (panel.querySelector('#graph')));
  drawGraph(svg, d, o.seats, o.frame);
  const find = panel.querySelector('.find-better');
  if (find instanceof HTMLButtonElement) find.disabled = rv.busy || !d.plies.some(p => p.mark);
  let text = rv.line;
  if (!text && rv.trying >= 0) {
    text = o.say('WebBetterAt', {Move: (o.played[rv.trying] || '') + mark(rv, rv.trying)});
  } else if (!text) {
    const b = arrow(rv, o.frame);
    if (b) text = o.say('WebBestMove', {Move: b.t});
  }
  const line = panel.querySelector('#review-line');
  if (line) line.textContent = text;
}

/**
 * drawGraph draws the winning chances per ply: the first seat's with two
 * seats (0 at the bottom, 1 at the top), one line per seat with more;
 * the marked moves as dots in their player's colour; the ply shown.
 * @param {SVGSVGElement} svg
 * @param {ReviewData} d
 * @param {Seat[]} seats
 * @param {number} frame
 */
function drawGraph(svg, d, seats, frame) {
  svg.replaceChildren();
  const n = d.plies.length;
  /** @param {number} i */
  const x = i => (n > 1 ? i * W / (n - 1) : W / 2);
  /** @param {number} c */
  const y = c => H * (1 - Math.max(0, Math.min(1, c)));
  el('rect', {x: 0, y: 0, width: W, height: H, class: 'graph-bg'}, svg);
  el('line', {x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-mid'}, svg);
  const lines = seats.length > 2 ? seats.length : 1;
  for (let s = 0; s < lines; s++) {
    const d0 = d.plies.map((p, i) => (i ? 'L' : 'M') + x(i).toFixed(1) + ' ' + y(p.c[s] ?? 0).toFixed(1)).join('');
    const path = el('path', {d: d0, class: 'graph-line' + (lines > 1 ? ' seat-line c-' + (seats[s].colour || s) : '')}, svg);
    path.setAttribute('data-seat', String(s));
  }
  if (frame >= 1 && frame <= n) el('line', {x1: x(frame - 1), y1: 0, x2: x(frame - 1), y2: H, class: 'graph-now'}, svg);
  d.plies.forEach((p, i) => {
    if (!p.mark) return;
    const s = lines > 1 ? p.seat : 0;
    const dot = el('circle', {cx: x(i), cy: y(p.c[s] ?? 0), r: p.mark === '??' ? 4 : 3, class: 'graph-mark c-' + ((seats[p.seat] || {}).colour || p.seat)}, svg);
    dot.setAttribute('data-ply', String(i));
    dot.setAttribute('data-mark', p.mark);
  });
}
