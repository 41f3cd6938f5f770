// @ts-check
// miniapp.js is the page's glue to Telegram's Mini App: the launch data
// Telegram puts in the page's address, its theme, and Telegram's script,
// loaded once the page has loaded (a script that cannot load holds
// nothing up).

/**
 * TelegramWebApp is the part of Telegram's window.Telegram.WebApp the
 * page uses.
 * @typedef {object} TelegramWebApp
 * @property {() => void} ready
 * @property {() => void} expand
 * @property {Object<string, string>} themeParams
 * @property {string} [initData]
 * @property {(name: string, f: () => void) => void} onEvent
 */

/**
 * themeFrom sets the page's colours to Telegram's (its theme parameters).
 * @param {Object<string, string> | null | undefined} p
 */
export function themeFrom(p) {
  if (!p) return;
  const root = document.documentElement.style;
  /** @type {Object<string, string>} */
  const map = {bg_color: '--bg', text_color: '--fg', hint_color: '--hint', button_color: '--accent',
    button_text_color: '--accent-fg', secondary_bg_color: '--panel'};
  // Colours only as #rrggbb: a theme is data, never CSS of its own.
  for (const k in map) if (typeof p[k] === 'string' && /^#[0-9a-fA-F]{6}$/.test(p[k])) root.setProperty(map[k], p[k]);
  document.documentElement.classList.add('telegram');
}

/**
 * telegram loads Telegram's script, then tells Telegram the board is
 * ready and follows its theme.
 */
function telegram() {
  const s = document.createElement('script');
  s.src = 'https://telegram.org/js/telegram-web-app.js';
  s.async = true;
  s.onload = () => {
    /** @type {TelegramWebApp | undefined} */
    const tg = /** @type {any} */ (window).Telegram?.WebApp;
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

/**
 * launch starts the Mini App's glue (Telegram's script once the page has
 * loaded, Telegram's theme now) and returns its launch data: the signed
 * init data and the game the link names (g).
 * @returns {{init: string, g: string}}
 */
export function launch() {
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
