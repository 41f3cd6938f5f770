// @ts-check
// controls.js makes the page's buttons for a state: answer a challenge,
// choose a formation, offer a draw, ask a takeback, resign (asked twice),
// pass, huff, choose between paths, turn the board, copy the position.
// A button reports its intention; it sends nothing itself.

/** @typedef {import('./types.js').State} State */
/** @typedef {import('./types.js').Move} Move */

/**
 * Controls is what the buttons are made from, and where they report.
 * @typedef {object} Controls
 * @property {State} state
 * @property {string} mode play, watch or tg
 * @property {boolean} mine whether it is the user's move
 * @property {boolean} confirm whether the page asks to confirm a resignation
 * @property {Move[] | null} choices moves to choose between
 * @property {(id: string, vars?: Object<string, string | number>) => string} say
 * @property {(action: string, arg?: string) => void} act an action for the server
 * @property {(m: Move) => void} play a move
 * @property {(on: boolean) => void} confirmResign resigning asked (true) or called off (false)
 * @property {() => void} resign resigning confirmed
 * @property {() => void} flip turn the board
 * @property {() => void} copy copy the position (FEN)
 * @property {((i: number) => void) | undefined} [pick] pick a path among the choices, to confirm elsewhere (the Mini App's MainButton); absent, a path's button plays it
 * @property {number} [picked] the path picked
 * @property {(() => void) | undefined} [fullscreen] show the page full screen (where Telegram can)
 */

/**
 * button is a button that calls onclick.
 * @param {string} label
 * @param {() => void} onclick
 * @param {string} cls
 * @returns {HTMLButtonElement}
 */
function button(label, onclick, cls) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.className = cls;
  b.addEventListener('click', onclick);
  return b;
}

/**
 * controls makes the buttons for c, in order.
 * @param {Controls} c
 * @returns {HTMLElement[]}
 */
export function controls(c) {
  const {state, say} = c;
  /** @type {HTMLElement[]} */
  const out = [];
  const you = state.you || [];
  const offered = (state.drawOffer || []).some(s => you.includes(s));
  const others = (state.drawOffer || []).length > 0 && !offered;
  const asked = (state.takeback || []).length > 0 && !(state.takeback || []).some(s => you.includes(s));
  const answer = () => [button(say('WebAccept'), () => c.act('accept'), 'accept'), button(say('WebDecline'), () => c.act('decline'), 'decline')];
  if (c.mode === 'play' && state.phase === 'challenge') out.push(...answer());
  if (c.mode === 'play' && state.phase === 'setup' && (state.pending || []).some(s => you.includes(s))) {
    out.push(button(say('WebDefaultFormation'), () => c.act('setup'), 'setup'));
  }
  if (c.mode === 'play' && state.phase === 'playing' && you.length) {
    if (others || asked) out.push(...answer());
    else if (!offered) out.push(button(say('WebDraw'), () => c.act('draw'), 'draw'));
    out.push(button(say('WebTakeback'), () => c.act('takeback'), 'takeback'));
    if (c.confirm) {
      const q = document.createElement('span');
      q.textContent = say('WebResignConfirm');
      out.push(q, button(say('WebYesResign'), c.resign, 'resign-yes'),
        button(say('WebNoPlayOn'), () => c.confirmResign(false), 'resign-no'));
    } else {
      out.push(button(say('WebResign'), () => c.confirmResign(true), 'resign'));
    }
    const pass = (state.moves || []).find(m => m.pass);
    if (c.mine && pass) out.push(button(say('WebPass'), () => c.play(pass), 'pass'));
    if (c.mine) for (const sq of state.huffable || []) out.push(button(say('WebHuff', {Square: sq}), () => c.act('huff', sq), 'huff'));
  }
  for (const [i, m] of (c.choices || []).entries()) {
    const pick = c.pick;
    const b = button(`${i + 1}. ${m.t}`, pick ? () => pick(i) : () => c.play(m), 'choice');
    b.dataset.move = m.t;
    if (pick) b.setAttribute('aria-pressed', String(c.picked === i));
    out.push(b);
  }
  out.push(button(say('WebFlip'), c.flip, 'flip'), button(say('WebCopyFEN'), c.copy, 'copy'));
  if (c.fullscreen) out.push(button(say('WebFullscreen'), c.fullscreen, 'fullscreen'));
  return out;
}
