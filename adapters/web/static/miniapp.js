// @ts-check
// miniapp.js is the page's glue to Telegram's Mini App: the launch data
// Telegram puts in the page's address, its theme, and Telegram's own
// controls (BackButton, MainButton, haptics, swipes, full screen) through
// its script, loaded once the page has loaded. A script that cannot load
// holds nothing up: every call here is then a no-op and the page works
// with its own buttons.

/**
 * TelegramWebApp is the part of Telegram's window.Telegram.WebApp the
 * page uses.
 * @typedef {object} TelegramWebApp
 * @property {() => void} ready
 * @property {() => void} expand
 * @property {Object<string, string>} themeParams
 * @property {string} [colorScheme]
 * @property {string} [initData]
 * @property {(name: string, f: () => void) => void} onEvent
 * @property {(v: string) => boolean} [isVersionAtLeast]
 * @property {() => void} [disableVerticalSwipes]
 * @property {() => void} [enableVerticalSwipes]
 * @property {() => void} [requestFullscreen]
 * @property {boolean} [isFullscreen]
 * @property {{show: () => void, hide: () => void, onClick: (f: () => void) => void}} [BackButton]
 * @property {{setText: (t: string) => void, show: () => void, hide: () => void, onClick: (f: () => void) => void}} [MainButton]
 * @property {{impactOccurred: (s: string) => void, notificationOccurred: (s: string) => void}} [HapticFeedback]
 */

/**
 * Native is what the page asks of Telegram's controls: a back (the
 * BackButton shown, calling back) and a confirmation (the MainButton
 * with its text), or none of each.
 * @typedef {object} Native
 * @property {(() => void) | null} back
 * @property {{text: string, run: () => void} | null} main
 */

/** @type {TelegramWebApp | null} */
let tg = null;
/** @type {Native} */
let wanted = {back: null, main: null};
/** @type {() => void} */
let onReady = () => {};

/**
 * themeFrom sets the page's colours to Telegram's (its theme parameters)
 * and its scheme (light or dark: the board's colours).
 * @param {Object<string, string> | null | undefined} p
 * @param {string} [scheme]
 */
export function themeFrom(p, scheme) {
  if (!p) return;
  const root = document.documentElement.style;
  /** @type {Object<string, string>} */
  const map = {bg_color: '--bg', text_color: '--fg', hint_color: '--hint', button_color: '--accent',
    button_text_color: '--accent-fg', secondary_bg_color: '--panel'};
  // Colours only as #rrggbb: a theme is data, never CSS of its own.
  for (const k in map) if (typeof p[k] === 'string' && /^#[0-9a-fA-F]{6}$/.test(p[k])) root.setProperty(map[k], p[k]);
  document.documentElement.classList.add('telegram');
  if (scheme !== 'light' && scheme !== 'dark' && /^#[0-9a-f]{6}$/i.test(p.bg_color || '')) {
    // No scheme said (Telegram's script not there): the background's.
    const [r, g, b] = [1, 3, 5].map(i => parseInt(p.bg_color.slice(i, i + 2), 16));
    scheme = 0.2126 * r + 0.7152 * g + 0.0722 * b < 128 ? 'dark' : 'light';
  }
  if (scheme === 'light' || scheme === 'dark') document.documentElement.dataset.scheme = scheme;
}

/**
 * since is whether Telegram's client is at least version v.
 * @param {string} v
 */
function since(v) {
  try {
    return !!tg && !!tg.isVersionAtLeast && tg.isVersionAtLeast(v);
  } catch (e) {
    return false;
  }
}

/**
 * attach takes Telegram's WebApp: tells Telegram the board is ready,
 * follows its theme, keeps vertical swipes from closing the app while
 * the board is shown, and wires its buttons to what the page wants.
 * @param {TelegramWebApp} w
 */
function attach(w) {
  tg = w;
  try {
    w.ready();
    w.expand();
    themeFrom(w.themeParams, w.colorScheme);
    w.onEvent('themeChanged', () => themeFrom(w.themeParams, w.colorScheme));
    if (since('7.7') && w.disableVerticalSwipes) w.disableVerticalSwipes();
    if (w.BackButton) w.BackButton.onClick(() => { if (wanted.back) wanted.back(); });
    if (w.MainButton) w.MainButton.onClick(() => { if (wanted.main) wanted.main.run(); });
  } catch (e) { /* an old client */ }
  native(wanted);
  onReady();
}

/**
 * telegram takes Telegram's script's WebApp: the one already in the page,
 * or the script's, loaded now.
 */
function telegram() {
  /** @returns {TelegramWebApp | undefined} */
  const found = () => /** @type {any} */ (window).Telegram?.WebApp;
  const w = found();
  if (w) return attach(w);
  const s = document.createElement('script');
  s.src = 'https://telegram.org/js/telegram-web-app.js';
  s.async = true;
  s.onload = () => {
    const w = found();
    if (w) attach(w);
  };
  document.head.appendChild(s);
}

/**
 * native shows Telegram's BackButton and MainButton as the page wants
 * them now (the page's own buttons stay).
 * @param {Native} n
 */
export function native(n) {
  wanted = n;
  if (!tg) return;
  try {
    if (tg.BackButton) n.back ? tg.BackButton.show() : tg.BackButton.hide();
    if (tg.MainButton) {
      if (n.main) {
        tg.MainButton.setText(n.main.text);
        tg.MainButton.show();
      } else {
        tg.MainButton.hide();
      }
    }
  } catch (e) { /* an old client */ }
}

/**
 * haptic is Telegram's haptic feedback for what happened: a move, a
 * capture (a notification, which every client vibrates for), the game
 * won, lost or drawn.
 * @param {'move' | 'capture' | 'won' | 'lost' | 'drawn'} what
 */
export function haptic(what) {
  const h = tg && since('6.1') ? tg.HapticFeedback : null;
  if (!h) return;
  try {
    if (what === 'move') h.impactOccurred('light');
    else if (what === 'capture') h.notificationOccurred('warning');
    else h.notificationOccurred(what === 'won' ? 'success' : what === 'lost' ? 'error' : 'warning');
  } catch (e) { /* an old client */ }
}

/** canFullscreen is whether Telegram's client shows the app full screen on request. */
export function canFullscreen() {
  return !!tg && !!tg.requestFullscreen && since('8.0') && !tg.isFullscreen;
}

/** fullscreen asks Telegram to show the app full screen. */
export function fullscreen() {
  if (!canFullscreen() || !tg || !tg.requestFullscreen) return;
  try {
    tg.requestFullscreen();
  } catch (e) { /* refused */ }
}

/**
 * launch starts the Mini App's glue (Telegram's script once the page has
 * loaded, Telegram's theme now) and returns its launch data: the signed
 * init data and the game the link names (g). ready is called once
 * Telegram's controls are there.
 * @param {() => void} ready
 * @returns {{init: string, g: string}}
 */
export function launch(ready) {
  onReady = ready;
  if (document.readyState === 'complete') telegram();
  else addEventListener('load', telegram);
  // Launch data from the fragment only (Telegram puts it there; the
  // query is anyone's to craft: a link signing a victim in as someone
  // else), or from Telegram's script once loaded.
  const hash = new URLSearchParams(location.hash.slice(1));
  try {
    themeFrom(JSON.parse(hash.get('tgWebAppThemeParams') || 'null'));
  } catch (e) { /* no theme: the page's own */ }
  /** @type {TelegramWebApp | undefined} */
  const tg = /** @type {any} */ (window).Telegram?.WebApp;
  const g = new URLSearchParams(location.search).get('g') || '';
  return {init: hash.get('tgWebAppData') || (tg && tg.initData) || '', g};
}
