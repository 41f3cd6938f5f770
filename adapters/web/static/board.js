// board.js runs a board page: it shows the states the server sends, turns
// taps (clicks, drags, keys) into the moves the server listed, and sends
// them with the link's token. It never decides what is legal.
import {drawBoard} from './draw.js';

const $ = id => document.getElementById(id);
const app = $('app');
const svg = $('board');
let words = JSON.parse(app.dataset.words || '{}');
const say = (id, vars) => (words[id] || id).replace(/\{\{\.(\w+)\}\}/g, (_, k) => (vars && k in vars ? vars[k] : ''));

let token = new URLSearchParams(location.search).get('t') || '';
let ref = app.dataset.ref;
let mode = app.dataset.mode; // play, watch or tg (the Mini App, before its sign-in)
let lang = app.dataset.lang;
let state = null;
let frames = null; // a finished game's positions
let stream = null;
let ended = false;
let offset = 0; // the server's clock minus ours
const ui = {sel: null, choices: null, flip: false, focus: null, frame: -1, confirm: false, auto: null, painted: false};

// mark marks a moment of the page for the Performance API (a board shown,
// a move sent: what the browser tests measure), with the game's version;
// a mark replaces the one before of its name.
function mark(name, v) {
  performance.clearMarks(name);
  performance.mark(name, {detail: {v}});
}

function notice(text) {
  $('notice').textContent = text || '';
}

function announce(text) {
  if (text) $('announce').textContent = text;
}

// ---- the Telegram Mini App ----

// themeFrom sets the page's colours to Telegram's (its theme parameters).
function themeFrom(p) {
  if (!p) return;
  const root = document.documentElement.style;
  const map = {bg_color: '--bg', text_color: '--fg', hint_color: '--hint', button_color: '--accent',
    button_text_color: '--accent-fg', secondary_bg_color: '--panel'};
  for (const k in map) if (p[k]) root.setProperty(map[k], p[k]);
  document.documentElement.classList.add('telegram');
}

// telegram loads Telegram's script once the page has loaded (so that a
// script that cannot load holds nothing up), then tells Telegram the
// board is ready and follows its theme.
function telegram() {
  const s = document.createElement('script');
  s.src = 'https://telegram.org/js/telegram-web-app.js';
  s.async = true;
  s.onload = () => {
    const tg = window.Telegram && window.Telegram.WebApp;
    if (!tg) return;
    try {
      tg.ready();
      tg.expand();
      themeFrom(tg.themeParams);
      tg.onEvent('themeChanged', () => themeFrom(tg.themeParams));
    } catch (e) { /* an old client */ }
  };
  document.head.appendChild(s);
}

// signIn sends Telegram's signed launch data (Telegram puts it in the
// page's address) and gets the link's token for this user's game.
async function signIn() {
  if (document.readyState === 'complete') telegram();
  else addEventListener('load', telegram);
  const hash = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const init = hash.get('tgWebAppData') || query.get('tgWebAppData') || '';
  try {
    themeFrom(JSON.parse(hash.get('tgWebAppThemeParams') || query.get('tgWebAppThemeParams') || 'null'));
  } catch (e) { /* no theme: the page's own */ }
  const g = query.get('g') || '';
  const res = await fetch('/tg/login', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({init, g})}).catch(() => null);
  if (!res) {
    fail(say('WebReconnecting'));
    return false;
  }
  const j = await res.json().catch(() => ({}));
  if (j.words) words = j.words;
  if (j.lang) {
    lang = j.lang;
    document.documentElement.lang = lang;
  }
  if (!res.ok || !j.token) {
    fail(j.error || say('WebBadLink'));
    return false;
  }
  token = j.token;
  ref = j.ref;
  mode = j.mode;
  app.dataset.mode = mode;
  return true;
}

function fail(text) {
  app.dataset.error = text;
  $('status').textContent = text;
  svg.dataset.phase = 'refused';
}

// ---- the live stream ----

function connect() {
  const url = `/g/${ref}/events?t=${encodeURIComponent(token)}&lang=${encodeURIComponent(lang)}`;
  stream = new EventSource(url);
  stream.addEventListener('state', e => setState(JSON.parse(e.data)));
  stream.addEventListener('end', () => {
    ended = true;
    stream.close();
  });
  stream.onopen = () => { if ($('notice').dataset.lost) { notice(''); delete $('notice').dataset.lost; } };
  stream.onerror = () => {
    if (ended) return;
    if (stream.readyState === EventSource.CLOSED) {
      // Refused (the server full, the link gone bad): the state, or why,
      // by a plain request, and a new stream later when the link is good.
      refresh().then(ok => { if (ok && !ended) setTimeout(connect, 5000); });
    } else {
      notice(say('WebReconnecting'));
      $('notice').dataset.lost = '1';
    }
  };
}

async function refresh() {
  const res = await fetch(`/g/${ref}/state?lang=${encodeURIComponent(lang)}`, {headers: {'X-Board-Token': token}}).catch(() => null);
  if (!res) return true; // the network: try the stream again later
  const j = await res.json().catch(() => ({}));
  if (!res.ok) {
    fail(j.error || '');
    return false;
  }
  setState(j);
  return true;
}

function setState(st) {
  const prev = state;
  state = st;
  offset = Date.parse(st.now) - Date.now();
  if (!prev || prev.v !== st.v) {
    ui.sel = null;
    ui.choices = null;
    ui.confirm = false;
  }
  if (prev && st.words.last && st.words.last !== prev.words.last) announce(st.words.last);
  if (st.phase === 'finished' && !frames) loadFrames();
  render();
  mark('board-shown', st.v);
}

async function loadFrames() {
  const res = await fetch(`/g/${ref}/frames`, {headers: {'X-Board-Token': token}}).catch(() => null);
  if (!res || !res.ok) return;
  frames = await res.json();
  ui.frame = frames.pieces.length - 1;
  render();
}

// ---- actions ----

function requestID() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, x => x.toString(16).padStart(2, '0')).join('');
}

// act sends an action with a request id of its own, again with the same
// id when the network failed (the server applies it once).
async function act(action, arg) {
  const id = requestID();
  const body = JSON.stringify(arg ? {id, arg} : {id});
  for (let attempt = 0; attempt < 3; attempt++) {
    let res;
    try {
      res = await fetch(`/g/${ref}/${action}?lang=${encodeURIComponent(lang)}`, {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-Board-Token': token}, body});
    } catch (e) {
      await new Promise(r => setTimeout(r, 500 * (attempt + 1)));
      continue;
    }
    const j = await res.json().catch(() => ({}));
    if (!j.ok) {
      notice(j.error || '');
      $('notice').dataset.refused = '1';
      render();
    } else {
      notice('');
      delete $('notice').dataset.refused;
    }
    if (!stream || stream.readyState !== EventSource.OPEN) refresh();
    return;
  }
  notice(say('WebReconnecting'));
}

function play(m) {
  mark('move-sent', state.v + 1);
  ui.sel = null;
  ui.choices = null;
  act('move', m.t);
}

function myTurn() {
  return state && state.phase === 'playing' && (state.you || []).includes(state.turn) && (state.moves || []).length > 0 && !replaying();
}

function replaying() {
  return frames && ui.frame >= 0 && ui.frame < frames.pieces.length - 1;
}

// tap is a tap (click, drag end, Enter) on a square: pick a piece that can
// move, then one of its targets; where several moves of the piece end
// there, the page shows them to choose from.
function tap(sq) {
  ui.focus = sq;
  if (!myTurn()) {
    render();
    return;
  }
  const moves = state.moves.filter(m => !m.pass);
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

// ---- drawing ----

function view() {
  let pieces = state.pieces, last = state.last;
  if (frames && ui.frame >= 0) {
    pieces = frames.pieces[ui.frame] || pieces;
    last = ui.frame > 0 ? frames.moves[ui.frame - 1] : null;
  }
  let rows = state.rows || [];
  if (ui.flip) rows = rows.slice().reverse().map(r => r.slice().reverse());
  const mine = myTurn();
  const moves = mine ? state.moves.filter(m => !m.pass) : [];
  const targets = ui.sel ? moves.filter(m => m.f === ui.sel).map(m => m.to) : [];
  return {
    rows, pieces, last, numbers: state.numbers, camps: state.camps,
    colours: state.seats.map(s => s.colour),
    movable: replaying() ? [] : (mine ? [...new Set(moves.map(m => m.f))] : state.movable),
    targets, sel: ui.sel, focus: ui.focus || (rows[rows.length - 1] || [])[0], choices: ui.choices,
    label: (sq, p) => sq + ', ' + (p ? pieceName(p) : say('WebEmpty')),
  };
}

function pieceName(p) {
  const seat = (state.seats[p.o] || {}).label || '';
  if (state.game === 'halma') return say('WebPiece', {Seat: seat});
  if (p.l === 1) return say('WebPieceMan', {Seat: seat});
  if (p.l === 2) return say('WebPieceKing', {Seat: seat});
  return say('WebPieceLevel', {Seat: seat, Level: p.l});
}

function button(label, onclick, cls) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  if (cls) b.className = cls;
  b.addEventListener('click', onclick);
  return b;
}

function render() {
  if (!state) return;
  const focused = svg.contains(document.activeElement);
  if (state.rows && state.rows.length) drawBoard(svg, view());
  svg.dataset.fen = state.fen;
  svg.dataset.turn = state.turn;
  svg.dataset.v = state.v;
  svg.dataset.phase = state.phase;
  if (focused && ui.focus) {
    const f = svg.querySelector(`[data-square="${ui.focus}"]`);
    if (f) f.focus();
  }
  $('title').textContent = state.words.title || '';
  $('players').textContent = state.words.players || '';
  $('status').textContent = state.words.status || '';
  $('notes').replaceChildren(...(state.words.notes || []).map(t => Object.assign(document.createElement('p'), {textContent: t})));
  renderMoves();
  renderControls();
  renderClock();
  if (!ui.painted) {
    // The first board: marked once painted (the frame after this one),
    // at once in a hidden tab, which paints nothing.
    ui.painted = true;
    if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(() => performance.mark('board-painted')));
    else performance.mark('board-painted');
  }
}

function renderMoves() {
  const list = $('moves');
  const items = state.history.map((m, i) => {
    const li = document.createElement('li');
    li.textContent = m.t;
    li.dataset.ply = i + 1;
    li.title = (state.seats[m.seat] || {}).label || '';
    if (frames) {
      li.tabIndex = 0;
      li.addEventListener('click', () => step(i + 1));
      if (ui.frame === i + 1) li.setAttribute('aria-current', 'step');
    }
    return li;
  });
  list.replaceChildren(...items);
}

function renderControls() {
  const c = $('controls');
  const out = [];
  const you = state.you || [];
  const offered = (state.drawOffer || []).some(s => you.includes(s));
  const others = (state.drawOffer || []).length > 0 && !offered;
  const asked = (state.takeback || []).length > 0 && !(state.takeback || []).some(s => you.includes(s));
  if (mode === 'play' && state.phase === 'challenge') {
    out.push(button(say('WebAccept'), () => act('accept'), 'accept'), button(say('WebDecline'), () => act('decline'), 'decline'));
  }
  if (mode === 'play' && state.phase === 'setup' && (state.pending || []).some(s => you.includes(s))) {
    out.push(button(say('WebDefaultFormation'), () => act('setup'), 'setup'));
  }
  if (mode === 'play' && state.phase === 'playing' && you.length) {
    if (others || asked) {
      out.push(button(say('WebAccept'), () => act('accept'), 'accept'), button(say('WebDecline'), () => act('decline'), 'decline'));
    } else if (!offered) {
      out.push(button(say('WebDraw'), () => act('draw'), 'draw'));
    }
    out.push(button(say('WebTakeback'), () => act('takeback'), 'takeback'));
    if (ui.confirm) {
      const q = document.createElement('span');
      q.textContent = say('WebResignConfirm');
      out.push(q, button(say('WebYesResign'), () => { ui.confirm = false; act('resign'); }, 'resign-yes'),
        button(say('WebNoPlayOn'), () => { ui.confirm = false; render(); }, 'resign-no'));
    } else {
      out.push(button(say('WebResign'), () => { ui.confirm = true; render(); c.querySelector('.resign-no').focus(); }, 'resign'));
    }
    if (myTurn() && state.moves.some(m => m.pass)) out.push(button(say('WebPass'), () => play(state.moves.find(m => m.pass)), 'pass'));
    if (myTurn()) for (const sq of state.huffable || []) out.push(button(say('WebHuff', {Square: sq}), () => act('huff', sq), 'huff'));
  }
  for (const [i, m] of (ui.choices || []).entries()) {
    const b = button(`${i + 1}. ${m.t}`, () => play(m), 'choice');
    b.dataset.move = m.t;
    out.push(b);
  }
  out.push(button(say('WebFlip'), () => { ui.flip = !ui.flip; render(); }, 'flip'),
    button(say('WebCopyFEN'), copyFEN, 'copy'));
  c.replaceChildren(...out);
  $('watching').hidden = mode === 'play' || state.phase === 'finished';
  const r = $('replay');
  r.hidden = !frames;
  if (frames) {
    const last = frames.pieces.length - 1;
    r.querySelector('.first').disabled = r.querySelector('.back').disabled = ui.frame <= 0;
    r.querySelector('.forward').disabled = r.querySelector('.last').disabled = ui.frame >= last;
    r.querySelector('.auto').textContent = ui.auto ? say('WebPause') : say('WebAutoplay');
    r.dataset.frame = ui.frame;
    const dl = $('download');
    dl.hidden = !state.gameId;
    dl.href = `/g/${ref}/record?t=${encodeURIComponent(token)}&lang=${encodeURIComponent(lang)}`;
  }
}

function renderClock() {
  const el = $('clock');
  if (!state.deadline || state.phase === 'finished') {
    el.textContent = '';
    return;
  }
  const left = Math.max(0, Date.parse(state.deadline) - (Date.now() + offset));
  const s = Math.floor(left / 1000), h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
  el.textContent = (h ? h + ':' + String(m).padStart(2, '0') : m) + ':' + String(s % 60).padStart(2, '0');
  el.dataset.left = s;
}

async function copyFEN() {
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

// ---- stepping through a finished game ----

function step(i) {
  if (!frames) return;
  ui.frame = Math.max(0, Math.min(frames.pieces.length - 1, i));
  if (ui.frame > 0) announce(frames.moves[ui.frame - 1].t);
  render();
}

function autoplay() {
  if (ui.auto) {
    clearInterval(ui.auto);
    ui.auto = null;
  } else {
    if (ui.frame >= frames.pieces.length - 1) ui.frame = 0;
    ui.auto = setInterval(() => {
      if (ui.frame >= frames.pieces.length - 1) autoplay();
      else step(ui.frame + 1);
    }, 900);
  }
  render();
}

// ---- input ----

function squareOf(target) {
  const g = target && target.closest && target.closest('[data-square]');
  return g ? g.dataset.square : null;
}

let down = null;
svg.addEventListener('pointerdown', e => {
  const sq = squareOf(e.target);
  if (!sq) return;
  e.preventDefault(); // no native drag, no selection: the drag is the page's
  down = sq;
  const f = svg.querySelector(`[data-square="${sq}"]`);
  if (f) f.focus({preventScroll: true});
  tap(sq);
});
svg.addEventListener('pointerup', e => {
  // a drag: released over another square than it started on
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const sq = squareOf(under);
  if (down && sq && sq !== down && ui.sel === down) tap(sq);
  down = null;
});

svg.addEventListener('keydown', e => {
  if (!state || !state.rows) return;
  let rows = state.rows;
  if (ui.flip) rows = rows.slice().reverse().map(r => r.slice().reverse());
  const cur = ui.focus || rows[rows.length - 1][0];
  let r = rows.findIndex(row => row.includes(cur)), c = r >= 0 ? rows[r].indexOf(cur) : 0;
  if (r < 0) r = rows.length - 1;
  const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  if (moves[e.key] && state.phase !== 'finished') {
    r = Math.max(0, Math.min(rows.length - 1, r + moves[e.key][0]));
    c = Math.max(0, Math.min(rows[r].length - 1, c + moves[e.key][1]));
    ui.focus = rows[r][c];
    render();
    const f = svg.querySelector(`[data-square="${ui.focus}"]`);
    if (f) f.focus();
    e.preventDefault();
  } else if (e.key === 'Enter' || e.key === ' ') {
    tap(cur);
    const f = svg.querySelector(`[data-square="${ui.focus}"]`);
    if (f) f.focus();
    e.preventDefault();
  }
});

document.addEventListener('keydown', e => {
  if (!frames || e.target.closest('#board') && !replaying() && state.phase !== 'finished') return;
  const keys = {ArrowLeft: ui.frame - 1, ArrowRight: ui.frame + 1, Home: 0, End: frames.pieces.length - 1};
  if (e.key in keys && !(e.target instanceof HTMLInputElement)) {
    step(keys[e.key]);
    e.preventDefault();
  }
});

$('replay').addEventListener('click', e => {
  const b = e.target.closest('button');
  if (!b || !frames) return;
  const last = frames.pieces.length - 1;
  const to = {first: 0, back: ui.frame - 1, forward: ui.frame + 1, last}[b.className];
  if (b.className === 'auto') autoplay();
  else if (to !== undefined) step(to);
});

setInterval(() => { if (state) renderClock(); }, 1000);

async function start() {
  if (app.dataset.error) return;
  if (mode === 'tg' && !(await signIn())) return;
  connect();
}
start();
