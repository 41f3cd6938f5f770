// @ts-check
// board.js runs a board page: it shows the states the server sends (on
// the board of draw.js), turns the board's taps into the moves the server
// listed, and sends them with the link's token. It never decides what is
// legal. The server's API and stream are api.js's, the buttons
// controls.js's, the stepping through a finished game replay.js's, its
// review review.js's, the Telegram Mini App's glue miniapp.js's.
import {drawBoard, listen, firstSquare} from './draw.js';
import * as api from './api.js';
import {controls} from './controls.js';
import * as replay from './replay.js';
import * as review from './review.js';
import * as telegram from './miniapp.js';

/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Move} Move */
/** @typedef {import('./types.js').Piece} Piece */
/** @typedef {import('./draw.js').View} View */

/**
 * $ is the page's element with id.
 * @param {string} id
 * @returns {HTMLElement}
 */
const $ = id => /** @type {HTMLElement} */ (document.getElementById(id));
const app = $('app');
const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($('board')));
/** @type {Object<string, string>} */
let words = JSON.parse(app.dataset.words || '{}');
/**
 * say words the message id with vars.
 * @param {string} id
 * @param {Object<string, string | number>} [vars]
 */
const say = (id, vars) => (words[id] || id).replace(/\{\{\.(\w+)\}\}/g, (_, k) => (vars && k in vars ? String(vars[k]) : ''));

/**
 * linkToken takes the link's token from the page's address: its fragment
 * (#t=, which the browser never sends), or an old link's query (?t=), else
 * the view token (?v=, a watch token: the game as its watchers see it);
 * and takes t out of the address at once, so that no token that acts
 * stays in the history, a bookmark or a screenshot (v stays: it only
 * watches, and a reload draws the board from it).
 * @returns {string}
 */
function linkToken() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  // A play link whose fragment became a query reads ?v=<view>?t=<token>.
  const [view, old] = (query.get('v') || '').split('?t=');
  if (old) query.set('v', view);
  const token = hash.get('t') || query.get('t') || old || view || '';
  if (hash.has('t') || query.has('t') || old) {
    hash.delete('t');
    query.delete('t');
    const q = query.toString(), h = hash.toString();
    history.replaceState(history.state, '', location.pathname + (q ? '?' + q : '') + (h ? '#' + h : ''));
  }
  return token;
}

/** @type {api.Link} */
const link = {token: app.dataset.mode === 'tg' ? '' : linkToken(), ref: app.dataset.ref || '', lang: app.dataset.lang || ''};
let mode = app.dataset.mode || ''; // play, watch or tg (the Mini App, before its sign-in)
const inTelegram = mode === 'tg'; // the page is Telegram's Mini App
/** @type {State | null} */
let state = null;
/** @type {api.Stream | null} */
let live = null;
let offset = 0; // the server's clock minus ours
/** @type {View | null} */
let drawn = null; // the view last drawn
const ui = {
  /** @type {string | null} */ sel: null,
  /** @type {Move[] | null} */ choices: null,
  flip: false,
  /** @type {string | null} */ focus: null,
  confirm: false,
  painted: false,
  pick: -1, // the path picked among the choices, in the Mini App (its MainButton plays it)
};
const rp = replay.newReplay(m => announce(m.t), () => render());
const rv = review.newReview();

/**
 * mark marks a moment of the page for the Performance API (a board shown,
 * a move sent: what the browser tests measure), with the game's version;
 * a mark replaces the one before of its name.
 * @param {string} name
 * @param {number} v
 */
function mark(name, v) {
  performance.clearMarks(name);
  performance.mark(name, {detail: {v}});
}

/** @param {string} text */
function notice(text) {
  $('notice').textContent = text || '';
}

/** @param {string | undefined} text */
function announce(text) {
  if (text) $('announce').textContent = text;
}

/** @param {string} text */
function fail(text) {
  app.dataset.error = text;
  $('status').textContent = text;
  svg.dataset.phase = 'refused';
}

// ---- the server ----

/** @param {State} st */
function setState(st) {
  const prev = state;
  state = st;
  // The Mini App shows its page with the first state (till then hidden:
  // nothing moves as it fills in).
  if (app.dataset.mode !== mode) app.dataset.mode = mode;
  offset = Date.parse(st.now) - Date.now();
  if (!prev || prev.v !== st.v) {
    ui.sel = null;
    ui.choices = null;
    ui.confirm = false;
    ui.pick = -1;
  }
  if (inTelegram && prev && prev.v !== st.v) feel(prev, st);
  if (prev && st.words.last && st.words.last !== prev.words.last) announce(st.words.last);
  if (st.phase === 'finished' && !rp.frames) loadFrames();
  render();
  mark('board-shown', st.v);
}

/**
 * feel is Telegram's haptic feedback for what changed from prev to st: a
 * move, a capture, the game's end for the user.
 * @param {State} prev
 * @param {State} st
 */
function feel(prev, st) {
  if (st.phase === 'finished' && prev.phase !== 'finished') {
    const you = st.you || prev.you || [];
    telegram.haptic(st.winner < 0 ? 'drawn' : you.includes(st.winner) ? 'won' : you.length ? 'lost' : 'drawn');
  } else if (st.last && st.history.length > prev.history.length) {
    telegram.haptic(st.last.x && st.last.x.length ? 'capture' : 'move');
  }
}

/** @type {api.StreamEvents} */
const events = {
  state: setState,
  lost(lost) {
    const n = $('notice');
    if (lost) {
      notice(say('WebReconnecting'));
      n.dataset.lost = '1';
    } else if (n.dataset.lost) {
      notice('');
      delete n.dataset.lost;
    }
  },
  refused: f => fail(f.error),
};

async function loadFrames() {
  const r = await api.fetchFrames(link);
  if ('value' in r) {
    rv.data = r.value.review || null;
    replay.load(rp, r.value);
  }
}

/**
 * act sends an action and shows the server's refusal, if any.
 * @param {string} action
 * @param {string} [arg]
 */
async function act(action, arg) {
  const j = await api.act(link, action, arg);
  if (!j) {
    notice(say('WebReconnecting'));
    return;
  }
  if (!j.ok) {
    notice(j.error || '');
    $('notice').dataset.refused = '1';
    render();
  } else {
    notice('');
    delete $('notice').dataset.refused;
  }
  if (!live || !live.open()) api.poll(link, events);
}

/** @param {Move} m */
function play(m) {
  if (review.trial(rv)) {
    ui.sel = null;
    ui.choices = null;
    review.submit(rv, link, m, i => replay.step(rp, i), say, () => render());
    return;
  }
  if (state) mark('move-sent', state.v + 1);
  ui.sel = null;
  ui.choices = null;
  act('move', m.t);
}

// ---- the board's intentions ----

/**
 * myTurn is whether the user is to move now (on the live board, or in a
 * reviewed game's position where they look for the better move).
 */
function myTurn() {
  if (review.trial(rv)) return true;
  return !!state && state.phase === 'playing' && (state.you || []).includes(state.turn) && (state.moves || []).length > 0 && !replay.replaying(rp);
}

/**
 * tap is a tap (click, drag end, Enter) on a square: pick a piece that
 * can move, then one of its targets; where several moves of the piece
 * end there, the page shows them to choose from.
 * @param {string} sq
 */
function tap(sq) {
  ui.focus = sq;
  if (!state || !myTurn()) {
    render();
    return;
  }
  const moves = (review.trial(rv) || state.moves || []).filter(m => !m.pass);
  if (ui.sel) {
    const ms = moves.filter(m => m.f === ui.sel && m.to === sq);
    if (ms.length === 1) return play(ms[0]);
    if (ms.length > 1) {
      ui.choices = ms;
      notice(say('WebChoosePath'));
      return render();
    }
  }
  ui.choices = null;
  ui.sel = moves.some(m => m.f === sq) && ui.sel !== sq ? sq : null;
  render();
}

listen(svg, () => drawn, {
  tap,
  focus(sq) {
    ui.focus = sq;
    render();
  },
});

// ---- drawing ----

/**
 * view is what the board draws of st.
 * @param {State} st
 * @returns {View}
 */
function view(st) {
  /** @type {Piece[]} */
  let pieces = st.pieces;
  let last = st.last;
  if (rp.frames && rp.frame >= 0) {
    pieces = rp.frames.pieces[rp.frame] || pieces;
    last = rp.frame > 0 ? rp.frames.moves[rp.frame - 1] : undefined;
  }
  let rows = st.rows || [];
  if (ui.flip) rows = rows.slice().reverse().map(r => r.slice().reverse());
  const mine = myTurn();
  const trial = review.trial(rv);
  const moves = mine ? (trial || st.moves || []).filter(m => !m.pass) : [];
  const targets = ui.sel ? moves.filter(m => m.f === ui.sel).map(m => m.to) : [];
  return {
    rows, pieces, last, numbers: st.numbers, playable: st.playable, camps: st.camps,
    colours: st.seats.map(s => s.colour),
    movable: replay.replaying(rp) && !trial ? [] : (mine ? [...new Set(moves.map(m => m.f))] : st.movable),
    best: review.arrow(rv, rp.frame),
    targets, sel: ui.sel, focus: ui.focus || firstSquare(rows, st.playable), choices: ui.choices,
    arrows: st.phase !== 'finished',
    label: (sq, p) => sq + ', ' + (p ? pieceName(st, p) : say('WebEmpty')),
  };
}

/**
 * pieceName names a piece for screen readers.
 * @param {State} st
 * @param {Piece} p
 */
function pieceName(st, p) {
  const seat = (st.seats[p.o] || {}).label || '';
  if (st.game === 'halma') return say('WebPiece', {Seat: seat});
  if (p.l === 1) return say('WebPieceMan', {Seat: seat});
  if (p.l === 2) return say('WebPieceKing', {Seat: seat});
  return say('WebPieceLevel', {Seat: seat, Level: p.l});
}

function render() {
  const st = state;
  if (!st) return;
  const focused = svg.contains(document.activeElement);
  if (rv.trying >= 0 && rp.frame !== rv.trying) {
    rv.trying = -1; // stepped away from the position being tried
    rv.line = '';
  }
  if (st.rows && st.rows.length) {
    drawn = view(st);
    drawBoard(svg, drawn);
  }
  svg.dataset.fen = st.fen;
  svg.dataset.turn = String(st.turn);
  svg.dataset.v = String(st.v);
  svg.dataset.phase = st.phase;
  if (focused && ui.focus) {
    const f = svg.querySelector(`[data-square="${ui.focus}"]`);
    if (f instanceof SVGElement) f.focus();
  }
  $('title').textContent = st.words.title || '';
  $('players').textContent = st.words.players || '';
  $('status').textContent = st.words.status || '';
  $('notes').replaceChildren(...(st.words.notes || []).map(t => Object.assign(document.createElement('p'), {textContent: t})));
  renderMoves(st);
  renderControls(st);
  renderClock(st);
  if (inTelegram) telegram.native(nativeFor());
  if (!ui.painted) {
    // The first board: marked once painted (the frame after this one),
    // at once in a hidden tab, which paints nothing.
    ui.painted = true;
    if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(() => performance.mark('board-painted')));
    else performance.mark('board-painted');
  }
}

/** @param {State} st */
function renderMoves(st) {
  const items = st.history.map((m, i) => {
    const li = document.createElement('li');
    const sign = review.mark(rv, i);
    li.textContent = m.t + sign;
    li.dataset.ply = String(i + 1);
    if (sign) li.dataset.mark = sign;
    li.title = (st.seats[m.seat] || {}).label || '';
    if (rp.frames) {
      li.tabIndex = 0;
      li.addEventListener('click', () => replay.step(rp, i + 1));
      if (rp.frame === i + 1) li.setAttribute('aria-current', 'step');
    }
    return li;
  });
  $('moves').replaceChildren(...items);
}

/** resignAsked asks to confirm a resignation (on) or calls it off. @param {boolean} on */
function resignAsked(on) {
  ui.confirm = on;
  render();
  const no = $('controls').querySelector('.resign-no');
  if (on && no instanceof HTMLElement) no.focus();
}

function resign() {
  ui.confirm = false;
  act('resign');
}

/**
 * nativeFor is what Telegram's buttons do now: the BackButton steps back
 * (calls off a resignation, a piece picked or a choice of paths; steps
 * back a move in a finished game), the MainButton confirms (the
 * resignation, the path picked).
 * @returns {telegram.Native}
 */
function nativeFor() {
  /** @type {telegram.Native} */
  const n = {back: null, main: null};
  if (ui.confirm) {
    n.back = () => resignAsked(false);
    n.main = {text: say('WebYesResign'), run: resign};
  } else if (ui.choices || ui.sel) {
    n.back = () => {
      ui.sel = null;
      ui.choices = null;
      ui.pick = -1;
      notice('');
      render();
    };
    const m = ui.choices && ui.choices[ui.pick];
    if (m) n.main = {text: `${ui.pick + 1}. ${m.t}`, run: () => play(m)};
  } else if (rp.frames && rp.frame > 0) {
    n.back = () => replay.step(rp, rp.frame - 1);
  }
  return n;
}

/** @param {State} st */
function renderControls(st) {
  const c = $('controls');
  c.replaceChildren(...controls({
    state: st, mode, mine: myTurn(), confirm: ui.confirm, choices: ui.choices, say, act, play,
    confirmResign: resignAsked,
    resign,
    picked: ui.pick,
    pick: inTelegram ? i => {
      ui.pick = i;
      render();
    } : undefined,
    fullscreen: inTelegram && telegram.canFullscreen() ? telegram.fullscreen : undefined,
    flip() {
      ui.flip = !ui.flip;
      render();
    },
    copy: copyFEN,
  }));
  $('watching').hidden = mode === 'play' || st.phase === 'finished';
  replay.show(rp, $('replay'), say);
  review.show(rv, $('review'), {frame: rp.frame, seats: st.seats, played: st.history.map(m => m.t), say,
    step: i => replay.step(rp, i), changed: () => render()});
  if (rp.frames) {
    const dl = /** @type {HTMLAnchorElement} */ ($('download'));
    dl.hidden = !st.gameId;
    // The stream token of the moment (it is renewed every few minutes).
    const href = () => `/g/${link.ref}/record?t=${encodeURIComponent(link.pass || '')}&lang=${encodeURIComponent(link.lang)}`;
    dl.href = href();
    dl.onclick = () => { dl.href = href(); };
  }
}

/** @param {State} st */
function renderClock(st) {
  const el = $('clock');
  if (!st.deadline || st.phase === 'finished') {
    el.textContent = '';
    return;
  }
  const left = Math.max(0, Date.parse(st.deadline) - (Date.now() + offset));
  const s = Math.floor(left / 1000), h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
  el.textContent = (h ? h + ':' + String(m).padStart(2, '0') : m) + ':' + String(s % 60).padStart(2, '0');
  el.dataset.left = String(s);
}

async function copyFEN() {
  if (!state) return;
  try {
    await navigator.clipboard.writeText(state.fen);
  } catch (e) {
    const ta = document.createElement('textarea');
    ta.value = state.fen;
    document.body.appendChild(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
  notice(say('WebCopied'));
}

replay.listen(rp, $('replay'), () => !replay.replaying(rp) && !!state && state.phase !== 'finished');

setInterval(() => { if (state) renderClock(state); }, 1000);

// signIn signs the Mini App's user in with Telegram's launch data and
// takes the link's token for their game.
async function signIn() {
  const {init, g} = telegram.launch(() => render());
  const r = await api.signIn(init, g);
  if (!r) {
    fail(say('WebReconnecting'));
    return false;
  }
  const j = r.login;
  if (j.words) words = j.words;
  if (j.lang) {
    link.lang = j.lang;
    document.documentElement.lang = j.lang;
  }
  if (!r.ok || !j.token) {
    fail(j.error || say('WebBadLink'));
    return false;
  }
  link.token = j.token;
  link.ref = j.ref || '';
  mode = j.mode || '';
  return true;
}

async function start() {
  if (app.dataset.error) return;
  // The page carries its first state when its address named the game
  // (the link's view token, ?v=: the game as its watchers see it) and the
  // server drew its board: the script takes over from it, and the stream
  // follows with the state of the page's own token.
  const first = document.getElementById('state');
  if (first && first.textContent) setState(JSON.parse(first.textContent));
  const telegram = mode === 'tg';
  if (telegram && !(await signIn())) return;
  if (!link.token) {
    fail(say('WebNoToken'));
    return;
  }
  // The stream token: for the stream and the downloads, whose addresses
  // carry it; the link's own token stays in headers.
  const r = await api.renewPass(link);
  if ('failure' in r) {
    if (r.failure.status !== 0) {
      fail(r.failure.error || say('WebBadLink'));
      return;
    }
  } else {
    mode = r.value.mode;
    // The Mini App's page keeps its own layout (data-mode tg) throughout.
    if (!telegram) app.dataset.mode = mode;
    if (!telegram && r.value.lang && r.value.lang !== link.lang) {
      // The page was served before its token was seen: it speaks the
      // link's user's language from now on.
      words = r.value.words || words;
      link.lang = r.value.lang;
      document.documentElement.lang = r.value.lang;
    }
  }
  live = api.stream(link, events);
}
start();
