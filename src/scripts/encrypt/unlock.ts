/**
 * The unlock page of an encrypted site (`<base>unlock/unlock.js`, bundled by
 * src/integrations/encrypt.ts). It gets the site key from one of three
 * places: this tab's session storage (a reload, a page the restarted service
 * worker could not open yet), a `#k=` link (the link slot; the key leaves the
 * address bar at once), or the password typed into the form (Argon2id in a
 * worker, then the password slot). Then it registers the service worker,
 * hands it the key and opens the page asked for. The key is kept in session
 * storage only: never local storage, never a cookie.
 */
import { fromBase64Url, linkKeyOf, passwordSlot, toBase64Url, unlockWithLink, unlockWithMaster, type KeySlots } from '../../lib/encrypt/crypto';
import { ARGON2_WORKER, keyItem, KEYS_FILE, SERVICE_WORKER, UNLOCK_DIR } from '../../lib/encrypt/layout';

const script = document.querySelector<HTMLScriptElement>('script[data-unlock]');
const base = new URL('../', script?.src ?? location.href).pathname;
const form = document.querySelector<HTMLFormElement>('[data-unlock-form]')!;
const input = document.querySelector<HTMLInputElement>('[data-unlock-password]')!;
const button = form.querySelector<HTMLButtonElement>('button')!;
const status = document.querySelector<HTMLElement>('[data-unlock-status]')!;

function say(text: string, kind: 'info' | 'error' = 'info'): void {
  status.textContent = text;
  status.dataset.kind = kind;
}

/** Where to go once unlocked: the `to` of the unlock page's own address (checked to stay on this site), or the page asked for. */
function destination(fragment: string): string {
  const here = location.pathname;
  let path = here;
  if (here.startsWith(`${base}${UNLOCK_DIR}/`)) {
    const to = new URLSearchParams(location.search).get('to') ?? base;
    const url = new URL(to, location.origin);
    path = url.origin === location.origin && url.pathname.startsWith(base) && !url.pathname.startsWith(`${base}${UNLOCK_DIR}/`) ? url.pathname + url.search : base;
  } else path = here + location.search;
  return fragment ? `${path}#${fragment}` : path;
}

async function loadSlots(): Promise<KeySlots> {
  const res = await fetch(`${base}${KEYS_FILE}`, { cache: 'no-cache' });
  if (!res.ok) throw new Error(`the key slots could not be loaded (${res.status})`);
  return (await res.json()) as KeySlots;
}

/** Whether a key from session storage still opens this site (the password may have changed since). */
async function stillValid(slots: KeySlots, raw: string): Promise<boolean> {
  try {
    const siteKey = fromBase64Url(raw);
    const back = await unlockWithLink(slots, await linkKeyOf(siteKey));
    return !!back && toBase64Url(back) === raw;
  } catch {
    return false;
  }
}

/** Registers the service worker (scope: the whole site), hands it the key and waits for it to take it. */
async function handOver(raw: string): Promise<void> {
  if (!('serviceWorker' in navigator)) throw new Error('this browser does not run service workers here (a private window of Firefox, or an address without HTTPS), and an encrypted site needs one');
  await navigator.serviceWorker.register(`${base}${SERVICE_WORKER}`, { scope: base });
  const registration = await navigator.serviceWorker.ready;
  const worker = registration.active!;
  await new Promise<void>((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error('the service worker did not answer')), 10_000);
    channel.port1.onmessage = (e) => {
      clearTimeout(timer);
      if (e.data?.ok) resolve();
      else reject(new Error('the service worker could not use the key'));
    };
    worker.postMessage({ type: 'sessionpress-key', key: raw }, [channel.port2]);
  });
}

async function open(raw: string, fragment: string): Promise<void> {
  sessionStorage.setItem(keyItem(base), raw);
  await handOver(raw);
  const to = destination(fragment);
  // The same address but for its fragment would only scroll this page: load it again, now through the worker.
  if (to.split('#')[0] === location.pathname + location.search) {
    history.replaceState(history.state, '', to);
    location.reload();
  } else location.replace(to);
}

/** Argon2id of the password in a worker. */
function derive(password: string, slots: KeySlots): Promise<Uint8Array> {
  const slot = passwordSlot(slots);
  if (!slot) return Promise.reject(new Error('this site has no password slot'));
  return new Promise((resolve, reject) => {
    const worker = new Worker(`${base}${ARGON2_WORKER}`);
    worker.onmessage = (e: MessageEvent<{ ok: boolean; master?: Uint8Array; error?: string }>) => {
      worker.terminate();
      if (e.data.ok && e.data.master) resolve(e.data.master);
      else reject(new Error(e.data.error ?? 'the key could not be derived'));
    };
    worker.onerror = () => {
      worker.terminate();
      reject(new Error('the key could not be derived (the worker failed)'));
    };
    worker.postMessage({ password, salt: fromBase64Url(slot.salt), params: { memory: slot.memory, iterations: slot.iterations, parallelism: slot.parallelism } });
  });
}

async function main(): Promise<void> {
  // A `#k=` link: the key leaves the address bar before anything else happens (the fragment never reached the server).
  const hash = location.hash;
  let linkKey: string | undefined;
  let fragment = hash.replace(/^#/, '');
  if (hash.startsWith('#k=')) {
    const [k, ...rest] = hash.slice(3).split('&');
    linkKey = k;
    fragment = rest.join('&');
    history.replaceState(history.state, '', `${location.pathname}${location.search}${fragment ? `#${fragment}` : ''}`);
  }
  let slots: KeySlots;
  try {
    slots = await loadSlots();
  } catch (err) {
    say(`This site cannot be unlocked: ${(err as Error).message}.`, 'error');
    return;
  }
  try {
    const stored = sessionStorage.getItem(keyItem(base));
    if (linkKey) {
      say('Opening with the key of the link…');
      let siteKey: Uint8Array | undefined;
      try {
        siteKey = await unlockWithLink(slots, fromBase64Url(linkKey));
      } catch {
        siteKey = undefined;
      }
      if (siteKey) return await open(toBase64Url(siteKey), fragment);
      say('The key in this link does not open this site (the password may have changed since the link was made). Enter the password instead.', 'error');
    } else if (stored) {
      if (await stillValid(slots, stored)) {
        say('Opening…');
        return await open(stored, fragment);
      }
      sessionStorage.removeItem(keyItem(base));
    }
  } catch (err) {
    say(`This site cannot be opened: ${(err as Error).message}.`, 'error');
    return;
  }
  form.hidden = false;
  input.focus();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const password = input.value;
    if (!password) {
      say('Enter the password.', 'error');
      return;
    }
    button.disabled = true;
    input.setAttribute('aria-busy', 'true');
    say('Checking the password…');
    try {
      const siteKey = await unlockWithMaster(slots, await derive(password, slots));
      if (!siteKey) {
        say('Wrong password. Try again.', 'error');
        input.select();
        return;
      }
      say('Unlocked. Opening…');
      await open(toBase64Url(siteKey), fragment);
    } catch (err) {
      say(`This site cannot be opened: ${(err as Error).message}.`, 'error');
    } finally {
      button.disabled = false;
      input.removeAttribute('aria-busy');
    }
  });
}

void main();
