/**
 * The first script of every decrypted page (the service worker puts it at the
 * top of the page's head; it runs before anything is shown). The worker serves
 * every tab of the site, but the key belongs to the tab that unlocked it, in
 * that tab's session storage: a tab without it (a new tab, a link opened from
 * elsewhere) stops loading the page and goes to the unlock page, as does a
 * `#k=` link. A tab with it hands the key to the worker, and answers the
 * worker's request for it when the browser restarted the worker.
 * Bundled by src/integrations/encrypt.ts into `<base>unlock/guard.js`.
 */
import { keyItem, UNLOCK_DIR } from '../../lib/encrypt/layout';

const script = document.currentScript as HTMLScriptElement | null;
const base = new URL('../', script?.src ?? location.href).pathname;
const key = sessionStorage.getItem(keyItem(base));

if (!key || location.hash.startsWith('#k=')) {
  window.stop();
  document.documentElement.hidden = true;
  location.replace(`${base}${UNLOCK_DIR}/?to=${encodeURIComponent(location.pathname + location.search)}${location.hash}`);
} else if ('serviceWorker' in navigator) {
  navigator.serviceWorker.controller?.postMessage({ type: 'sessionpress-key', key });
  navigator.serviceWorker.addEventListener('message', (event) => {
    if ((event.data as { type?: string } | undefined)?.type === 'sessionpress-need-key') event.ports[0]?.postMessage({ key: sessionStorage.getItem(keyItem(base)) });
  });
  navigator.serviceWorker.startMessages();
}
