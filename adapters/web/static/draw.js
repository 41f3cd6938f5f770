// @ts-check
// draw.js is the board: it draws a board as SVG from a view (state in)
// and reports what the user picks, a square tapped or a focus moved
// (intentions out, through callbacks). It keeps no state of the game and
// knows no rules.

/** @typedef {import('./types.js').Piece} Piece */
/** @typedef {import('./types.js').Move} Move */

/**
 * View is what the board draws.
 * @typedef {object} View
 * @property {string[][]} rows squares, top row first, as the viewer sees them
 * @property {Object<string, number>} [numbers] square -> number (draughts)
 * @property {string[]} [playable] the squares pieces stand on (all when absent)
 * @property {string[][]} [camps] per seat, its camp's squares (Halma)
 * @property {Piece[]} pieces
 * @property {string[]} colours per seat, its colour name
 * @property {Move | null | undefined} last the move to mark
 * @property {string[]} [movable]
 * @property {string[]} targets
 * @property {string | null} sel
 * @property {string} focus the square that takes the keyboard's focus
 * @property {Move[] | null} choices moves to choose between, drawn as numbered paths
 * @property {boolean} arrows whether the arrow keys move the focus
 * @property {Move | null} [best] a better move to show as an arrow (a reviewed game's mistake)
 * @property {(sq: string, p: Piece | undefined) => string} label the square's label for screen readers
 */

/**
 * Events are the user's intentions the board reports.
 * @typedef {object} Events
 * @property {(sq: string) => void} tap a square tapped: clicked, dragged onto, or Enter on it
 * @property {(sq: string) => void} focus the keyboard's focus moved to a square
 */

const NS = 'http://www.w3.org/2000/svg';

/**
 * @param {string} name
 * @param {Object<string, string | number>} attrs
 * @param {Element} [parent]
 * @returns {SVGElement}
 */
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  if (parent) parent.appendChild(e);
  return e;
}

/**
 * centre is the centre of a square in board units.
 * @param {Map<string, number[]>} pos
 * @param {string} sq
 * @returns {number[] | null}
 */
function centre(pos, sq) {
  const p = pos.get(sq);
  return p ? [p[0] + 0.5, p[1] + 0.5] : null;
}

/**
 * numberSize is the font size of the squares' numbers on a board of n
 * lines, in board units: 11 CSS px where the board is 320 px wide (a
 * phone's), more where it is wider.
 * @param {number} n
 */
export function numberSize(n) {
  return Math.round(11 * (n + 1) / 320 * 100) / 100;
}

/**
 * isPlayable is whether a square is one pieces stand on.
 * @param {View} v
 * @param {Set<string> | null} playable
 * @param {string} sq
 */
function isPlayable(v, playable, sq) {
  return !playable || playable.has(sq);
}

/**
 * firstSquare is the square the keyboard's focus starts on: the first
 * playable square of the bottom row (the viewer's side).
 * @param {string[][]} rows
 * @param {string[] | undefined} playable
 * @returns {string}
 */
export function firstSquare(rows, playable) {
  const p = playable ? new Set(playable) : null;
  for (let r = rows.length - 1; r >= 0; r--) {
    const sq = rows[r].find(s => !p || p.has(s));
    if (sq) return sq;
  }
  return '';
}

/**
 * drawBoard redraws svg from v, and only from v. The server draws the
 * first board the same way (board.go's drawBoard), element for element:
 * the script then takes over its squares.
 * @param {SVGSVGElement} svg
 * @param {View} v
 */
export function drawBoard(svg, v) {
  const n = v.rows.length;
  const playable = v.playable ? new Set(v.playable) : null;
  // The squares stay the same elements from one drawing to the next (as
  // long as the layout does): what a user, or a test, holds of the board
  // keeps working while the game changes under it.
  const layout = JSON.stringify(v.rows);
  if (svg.dataset.layout !== layout) {
    svg.replaceChildren();
    svg.setAttribute('viewBox', `-0.5 -0.5 ${n + 1} ${n + 1}`);
    svg.dataset.layout = layout;
    drawCoords(svg, v.rows);
    v.rows.forEach((row, r) => row.forEach((sq, c) => {
      const g = el('g', {'data-square': sq, role: isPlayable(v, playable, sq) ? 'button' : 'presentation'}, svg);
      g.dataset.c = String(c);
      g.dataset.r = String(r);
    }));
    el('g', {class: 'marks', 'aria-hidden': 'true'}, svg);
  }
  const pos = new Map();
  v.rows.forEach((row, r) => row.forEach((sq, c) => pos.set(sq, [c, r])));
  const campOf = new Map();
  (v.camps || []).forEach((camp, seat) => camp.forEach(sq => campOf.set(sq, seat)));
  const pieceAt = new Map((v.pieces || []).map(p => [p.s, p]));
  const movable = new Set(v.movable || []);
  const targets = new Set(v.targets || []);
  const lastSq = new Set();
  if (v.last) (v.last.p && v.last.p.length ? v.last.p : [v.last.f, v.last.to]).forEach(s => lastSq.add(s));
  const fs = String(numberSize(n));

  /** @type {NodeListOf<SVGGElement>} */ (svg.querySelectorAll('g[data-square]')).forEach(g => {
    const sq = g.dataset.square || '', c = Number(g.dataset.c), r = Number(g.dataset.r);
    // a1 is dark, as on every real board (Spanish draughts is played on
    // the light squares).
    const isDark = (sq.charCodeAt(0) - 97 + parseInt(sq.slice(1), 10) - 1) % 2 === 0;
    const cls = ['sq', isDark ? 'dark' : 'light'];
    if (campOf.has(sq)) cls.push('camp', 'camp-' + (v.colours[campOf.get(sq)] || campOf.get(sq)));
    if (lastSq.has(sq)) cls.push('last');
    if (movable.has(sq)) cls.push('movable');
    if (targets.has(sq)) cls.push('target');
    if (v.sel === sq) cls.push('sel');
    g.setAttribute('class', cls.join(' '));
    const num = v.numbers && v.numbers[sq];
    const p = pieceAt.get(sq);
    if (isPlayable(v, playable, sq)) {
      // Its name starts with what it shows: its number, if drawn.
      g.setAttribute('tabindex', v.focus === sq ? '0' : '-1');
      g.setAttribute('aria-label', (num ? num + ', ' : '') + v.label(sq, p));
    }
    if (num) g.setAttribute('data-number', String(num));
    else g.removeAttribute('data-number');
    if (p) g.setAttribute('data-piece', p.o + ':' + p.l);
    else g.removeAttribute('data-piece');
    g.replaceChildren();
    el('rect', {x: c, y: r, width: 1, height: 1, class: 'cell'}, g);
    if (p) drawPiece(g, c + 0.5, r + 0.5, p, v.colours);
    if (targets.has(sq)) el('circle', {cx: c + 0.5, cy: r + 0.5, r: p ? 0.46 : 0.16, class: 'dot'}, g);
    // The number over the piece, never under it.
    if (num) el('text', {x: c + 0.04, y: r + 0.04 + Math.round(Number(fs) * 74) / 100, 'font-size': fs, class: 'num'}, g).textContent = String(num);
  });

  const marks = /** @type {SVGGElement} */ (svg.querySelector('g.marks'));
  marks.replaceChildren();
  if (v.last) {
    for (const s of (v.last.p || []).slice(1, -1)) {
      const q = centre(pos, s);
      if (q) el('circle', {cx: q[0], cy: q[1], r: 0.09, class: 'via'}, marks);
    }
    for (const s of v.last.x || []) {
      const q = centre(pos, s);
      if (!q) continue;
      el('path', {d: `M${q[0] - 0.2} ${q[1] - 0.2}L${q[0] + 0.2} ${q[1] + 0.2}M${q[0] + 0.2} ${q[1] - 0.2}L${q[0] - 0.2} ${q[1] + 0.2}`, class: 'cross'}, marks);
    }
  }
  if (v.best) drawArrow(marks, pos, v.best);
  (v.choices || []).forEach((m, i) => {
    const pts = /** @type {number[][]} */ ((m.p && m.p.length ? m.p : [m.f, m.to]).map(s => centre(pos, s)).filter(Boolean));
    el('polyline', {points: pts.map(q => q.join(',')).join(' '), class: 'choice choice-' + (i % 4)}, marks);
    const end = pts[Math.max(0, pts.length - 2)] || pts[0];
    if (end) {
      el('circle', {cx: end[0], cy: end[1], r: 0.2, class: 'choice-tag choice-' + (i % 4)}, marks);
      el('text', {x: end[0], y: end[1] + 0.1, class: 'choice-n'}, marks).textContent = String(i + 1);
    }
  });
}

/**
 * drawCoords writes the coordinates below the board and on its left, as
 * on a real board: a line of squares is named by the file or rank its
 * squares share.
 * @param {SVGSVGElement} svg
 * @param {string[][]} rows
 */
function drawCoords(svg, rows) {
  const n = rows.length;
  const coords = el('g', {class: 'coords', 'aria-hidden': 'true'}, svg);
  /** @type {(a: string, b: string) => string} */
  const lineName = (a, b) => (a[0] === b[0] ? a[0] : a.slice(1));
  for (let c = 0; c < n; c++) {
    const t = lineName(rows[0][c], rows[n - 1][c]);
    el('text', {x: c + 0.5, y: n + 0.35}, coords).textContent = t;
  }
  for (let r = 0; r < n; r++) {
    const t = lineName(rows[r][0], rows[r][n - 1]);
    el('text', {x: -0.25, y: r + 0.6}, coords).textContent = t;
  }
}

/**
 * drawPiece draws a piece as in the pictures: a disc in its seat's
 * colour, two for a king with a crown, a stack's level, a carried piece.
 * @param {Element} g
 * @param {number} x
 * @param {number} y
 * @param {Piece} p
 * @param {string[]} colours
 */
function drawPiece(g, x, y, p, colours) {
  const colour = 'p-' + (colours[p.o] || 'seat' + p.o);
  const grp = el('g', {class: 'piece ' + colour}, g);
  if (p.l >= 2) el('circle', {cx: x, cy: y + 0.05, r: 0.37, class: 'disc under'}, grp);
  el('circle', {cx: x, cy: p.l >= 2 ? y - 0.03 : y, r: 0.37, class: 'disc'}, grp);
  if (p.l === 2) {
    el('path', {d: `M${x - 0.17} ${y + 0.07}L${x - 0.2} ${y - 0.14}L${x - 0.08} ${y - 0.04}L${x} ${y - 0.18}L${x + 0.08} ${y - 0.04}L${x + 0.2} ${y - 0.14}L${x + 0.17} ${y + 0.07}Z`, class: 'crown'}, grp);
  } else if (p.l >= 3) {
    el('text', {x: x, y: y + 0.1, class: 'level'}, grp).textContent = String(p.l);
  }
  if (p.c) {
    el('circle', {cx: x + 0.27, cy: y - 0.27, r: 0.13, class: 'disc carried'}, grp);
    el('text', {x: x + 0.27, y: y - 0.22, class: 'level small'}, grp).textContent = String(p.c);
  }
}

/**
 * squareOf is the square an event's target is on, or null.
 * @param {EventTarget | null} target
 * @returns {string | null}
 */
function squareOf(target) {
  const g = target instanceof Element ? target.closest('[data-square]') : null;
  return g instanceof SVGElement && g.dataset.square || null;
}

/**
 * focusSquare gives a square the keyboard's focus.
 * @param {SVGSVGElement} svg
 * @param {string} sq
 * @param {FocusOptions} [opts]
 */
function focusSquare(svg, sq, opts) {
  const f = svg.querySelector(`[data-square="${sq}"]`);
  if (f instanceof SVGElement) f.focus(opts);
}

/**
 * listen turns the user's input on svg into intentions: a square pressed
 * is a tap, a piece dragged onto another square a tap there, the arrow
 * keys move the focus, Enter or Space taps the focused square. current
 * is the view last drawn (null before the first).
 * @param {SVGSVGElement} svg
 * @param {() => View | null} current
 * @param {Events} events
 */
export function listen(svg, current, events) {
  /** @type {string | null} */
  let down = null;
  svg.addEventListener('pointerdown', e => {
    const sq = squareOf(e.target);
    if (!sq) return;
    e.preventDefault(); // no native drag, no selection: the drag is the board's
    down = sq;
    focusSquare(svg, sq, {preventScroll: true});
    events.tap(sq);
  });
  svg.addEventListener('pointerup', e => {
    // a drag: released over another square than it started on
    const sq = squareOf(document.elementFromPoint(e.clientX, e.clientY));
    const v = current();
    if (down && sq && sq !== down && v && v.sel === down) events.tap(sq);
    down = null;
  });
  /** @type {Object<string, number[]>} */
  const arrows = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  svg.addEventListener('keydown', e => {
    const v = current();
    if (!v || !v.rows.length) return;
    const cur = v.focus;
    if (arrows[e.key] && v.arrows) {
      const to = step(v, cur, arrows[e.key]);
      events.focus(to);
      focusSquare(svg, to);
      e.preventDefault();
    } else if (e.key === 'Enter' || e.key === ' ') {
      events.tap(cur);
      focusSquare(svg, cur);
      e.preventDefault();
    }
  });
}

/**
 * step is the playable square an arrow key moves the focus to from cur:
 * up and down, the row above or below, on the same column where it is
 * playable, else the nearest playable column (the left one first); left
 * and right, the next playable square of the row. The focus stays where
 * there is none.
 * @param {View} v
 * @param {string} cur
 * @param {number[]} d rows and columns to move
 * @returns {string}
 */
function step(v, cur, d) {
  const rows = v.rows;
  const p = v.playable ? new Set(v.playable) : null;
  /** @param {number} r @param {number} c */
  const ok = (r, c) => r >= 0 && r < rows.length && c >= 0 && c < rows[r].length && (!p || p.has(rows[r][c]));
  let r = rows.findIndex(row => row.includes(cur)), c = r >= 0 ? rows[r].indexOf(cur) : 0;
  if (r < 0) r = rows.length - 1;
  if (d[0]) {
    const nr = r + d[0];
    for (let k = 0; k < rows.length; k++) {
      if (ok(nr, c - k)) return rows[nr][c - k];
      if (ok(nr, c + k)) return rows[nr][c + k];
    }
    return cur;
  }
  for (let nc = c + d[1]; nc >= 0 && nc < rows[r].length; nc += d[1]) if (ok(r, nc)) return rows[r][nc];
  return cur;
}

/**
 * drawArrow draws a move as an arrow from its first square to its last
 * (through its path's squares).
 * @param {Element} marks
 * @param {Map<string, number[]>} pos
 * @param {Move} m
 */
function drawArrow(marks, pos, m) {
  const pts = /** @type {number[][]} */ ((m.p && m.p.length ? m.p : [m.f, m.to]).map(s => centre(pos, s)).filter(Boolean));
  if (pts.length < 2) return;
  const g = el('g', {class: 'best', 'data-from': m.f, 'data-to': m.to}, marks);
  const [a, b] = [pts[pts.length - 2], pts[pts.length - 1]];
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
  const ux = (b[0] - a[0]) / len, uy = (b[1] - a[1]) / len;
  const tip = [b[0] - ux * 0.12, b[1] - uy * 0.12];
  const base = [tip[0] - ux * 0.3, tip[1] - uy * 0.3];
  const line = pts.slice(0, -1).concat([base]);
  el('polyline', {points: line.map(q => q.join(',')).join(' '), class: 'best-line'}, g);
  el('polygon', {points: [tip, [base[0] - uy * 0.18, base[1] + ux * 0.18], [base[0] + uy * 0.18, base[1] - ux * 0.18]].map(q => q.join(',')).join(' '), class: 'best-head'}, g);
}
