import { UNLOCK_SCRIPT } from './layout.js';

/**
 * The unlock page of an encrypted site: published in plaintext (at the base,
 * as `404.html` so a host answers any unknown address with it, and at
 * `unlock/`), so it holds nothing of the site: not its title (a title often
 * names the project), not a session, only a password field. Its script is
 * `unlock/unlock.js` (src/scripts/encrypt/unlock.ts). Styles are inline: a
 * stylesheet of the site is encrypted and cannot be read before unlocking.
 * Fits a phone, follows the reader's light or dark setting.
 */
export function unlockPage(base: string): string {
  const b = base.endsWith('/') ? base : `${base}/`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>Private archive</title>
<style>
:root{color-scheme:light dark;--bg:#f7f7f8;--card:#fff;--fg:#1c1d21;--muted:#5b5e66;--line:#d4d6dc;--accent:#5b3fc4;--accent-fg:#fff;--error:#b42318}
@media (prefers-color-scheme:dark){:root{--bg:#111214;--card:#1b1c20;--fg:#e9eaee;--muted:#a3a6ae;--line:#3a3c43;--accent:#a18cff;--accent-fg:#111214;--error:#ff8a80}}
*{box-sizing:border-box}
html,body{margin:0;min-height:100%;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{min-height:100vh;display:grid;place-items:center;padding:1.5rem}
.card{width:100%;max-width:24rem;background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1.75rem 1.5rem}
h1{font-size:1.3rem;margin:0 0 .25rem}
p{margin:0 0 1.25rem;color:var(--muted)}
label{display:block;font-weight:600;margin-bottom:.35rem}
input{width:100%;font:inherit;padding:.65rem .75rem;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg)}
input:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
button{margin-top:1rem;width:100%;font:inherit;font-weight:600;padding:.65rem;border:0;border-radius:8px;background:var(--accent);color:var(--accent-fg);cursor:pointer}
button:disabled{opacity:.6;cursor:progress}
[data-unlock-status]{min-height:1.5rem;margin:1rem 0 0;color:var(--muted)}
[data-unlock-status][data-kind=error]{color:var(--error);font-weight:600}
</style>
</head>
<body>
<main>
<div class="card">
<h1>Private archive</h1>
<p>This site is encrypted. Enter its password to read it.</p>
<form data-unlock-form hidden>
<input type="text" name="username" autocomplete="username" value="sessionpress" hidden>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required data-unlock-password>
<button type="submit">Unlock</button>
</form>
<p data-unlock-status role="status" aria-live="polite"></p>
<noscript><p>Reading this site needs JavaScript: it is decrypted in your browser.</p></noscript>
</div>
</main>
<script type="module" data-unlock src="${b}${UNLOCK_SCRIPT}"></script>
</body>
</html>
`;
}
