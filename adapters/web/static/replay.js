// @ts-check
// replay.js steps through a finished game: its frames (the positions
// before and after each move), the buttons, the arrow keys and the
// autoplay.

/** @typedef {import('./types.js').Frames} Frames */
/** @typedef {import('./types.js').Move} Move */

/**
 * Replay is where the stepping stands: the frames (null until loaded),
 * the frame shown, the autoplay's timer.
 * @typedef {object} Replay
 * @property {Frames | null} frames
 * @property {number} frame
 * @property {number | null} auto
 * @property {(m: Move) => void} announce tells a screen reader the move stepped to
 * @property {() => void} changed redraws the page
 */

/**
 * newReplay is a replay with no frames yet.
 * @param {(m: Move) => void} announce
 * @param {() => void} changed
 * @returns {Replay}
 */
export function newReplay(announce, changed) {
  return {frames: null, frame: -1, auto: null, announce, changed};
}

/**
 * load gives the replay its frames and shows the last.
 * @param {Replay} r
 * @param {Frames} frames
 */
export function load(r, frames) {
  r.frames = frames;
  r.frame = frames.pieces.length - 1;
  r.changed();
}

/**
 * replaying is whether a frame before the game's end is shown.
 * @param {Replay} r
 */
export function replaying(r) {
  return !!r.frames && r.frame >= 0 && r.frame < r.frames.pieces.length - 1;
}

/**
 * step shows frame i (held to the frames there are).
 * @param {Replay} r
 * @param {number} i
 */
export function step(r, i) {
  if (!r.frames) return;
  r.frame = Math.max(0, Math.min(r.frames.pieces.length - 1, i));
  if (r.frame > 0) r.announce(r.frames.moves[r.frame - 1]);
  r.changed();
}

/**
 * autoplay starts stepping a frame every 900 ms (from the start when at
 * the end), or stops it.
 * @param {Replay} r
 */
function autoplay(r) {
  const frames = r.frames;
  if (!frames) return;
  if (r.auto) {
    clearInterval(r.auto);
    r.auto = null;
  } else {
    if (r.frame >= frames.pieces.length - 1) r.frame = 0;
    r.auto = setInterval(() => {
      if (r.frame >= frames.pieces.length - 1) autoplay(r);
      else step(r, r.frame + 1);
    }, 900);
  }
  r.changed();
}

/**
 * listen steps r by the panel's buttons and by the keys (the arrows,
 * Home and End), except the arrows on a board that takes them (live):
 * boardKeys says whether it does.
 * @param {Replay} r
 * @param {HTMLElement} panel
 * @param {() => boolean} boardKeys
 */
export function listen(r, panel, boardKeys) {
  document.addEventListener('keydown', e => {
    const frames = r.frames;
    if (!frames || e.target instanceof Element && e.target.closest('#board') && boardKeys()) return;
    /** @type {Object<string, number>} */
    const keys = {ArrowLeft: r.frame - 1, ArrowRight: r.frame + 1, Home: 0, End: frames.pieces.length - 1};
    if (e.key in keys && !(e.target instanceof HTMLInputElement)) {
      step(r, keys[e.key]);
      e.preventDefault();
    }
  });
  panel.addEventListener('click', e => {
    const b = e.target instanceof Element && e.target.closest('button');
    if (!b || !r.frames) return;
    /** @type {Object<string, number>} */
    const to = {first: 0, back: r.frame - 1, forward: r.frame + 1, last: r.frames.pieces.length - 1};
    if (b.className === 'auto') autoplay(r);
    else if (Object.hasOwn(to, b.className)) step(r, to[b.className]);
  });
}

/**
 * show sets the panel's buttons to where r stands; say words the
 * autoplay button.
 * @param {Replay} r
 * @param {HTMLElement} panel
 * @param {(id: string) => string} say
 */
export function show(r, panel, say) {
  panel.hidden = !r.frames;
  if (!r.frames) return;
  const last = r.frames.pieces.length - 1;
  /** @param {string} cls @param {boolean} off */
  const disable = (cls, off) => { const b = panel.querySelector('.' + cls); if (b instanceof HTMLButtonElement) b.disabled = off; };
  disable('first', r.frame <= 0);
  disable('back', r.frame <= 0);
  disable('forward', r.frame >= last);
  disable('last', r.frame >= last);
  const auto = panel.querySelector('.auto');
  if (auto) auto.textContent = r.auto ? say('WebPause') : say('WebAutoplay');
  panel.dataset.frame = String(r.frame);
}
