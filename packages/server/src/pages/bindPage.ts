/** Where the binding page loads its script and styles (this server). */
export const BIND_SCRIPT_PATH = '/assets/bind.js'
export const BIND_STYLE_PATH = '/assets/bind.css'

const escapeAttr = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[
        c
      ] as string,
  )

/**
 * The browser binding page. The script (`web/bind/main.ts`) fills the
 * steps in; the page itself only carries the service's binding auth domain
 * (the label every wallet message names, `BINDING_AUTH_DOMAIN`). URLs are
 * relative to `/bind`, so the page also works behind a proxy that mounts
 * the service under a prefix.
 */
export function bindPageHtml(authDomain: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="dn-auth-domain" content="${escapeAttr(authDomain)}">
<title>Bind your venue accounts · dn</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="assets/bind.css">
</head>
<body>
<main>
<h1>Bind your venue accounts</h1>
<p class="lead">Connect the wallet that owns your accounts on Hyperliquid,
Aster and Lighter. Each signature gives this service a trading key of its
own for one venue. Your wallet key never leaves your wallet, and nothing you
sign here lets the service withdraw or transfer your funds.</p>
<div id="alert" class="alert" role="alert" hidden></div>

<section id="connect-step" aria-labelledby="connect-title">
<h2 id="connect-title">1. Connect your wallet</h2>
<p id="wallet-status" role="status">Not connected.</p>
<button id="connect" type="button">Connect wallet</button>
</section>

<section id="venue-step" aria-labelledby="venue-title" hidden>
<h2 id="venue-title">2. Choose venues</h2>
<div id="venue-list"></div>
<p class="hint">Lighter names each account by a number (its account index).
Look them up to pick yours: your wallet signs a message that only lets this
page read which Lighter accounts belong to your address.</p>
<button id="lookup" type="button" class="secondary">Look up my Lighter accounts</button>
<p><label><input id="rebind" type="checkbox"> Replace a binding that no longer works (rebind)</label></p>
<button id="bind" type="button">Bind selected venues</button>
</section>

<section id="sign-step" aria-labelledby="sign-title" hidden>
<h2 id="sign-title">3. Sign and bind</h2>
<div id="sign-card" class="card" aria-live="polite" hidden></div>
<table id="progress">
<thead><tr><th scope="col">Venue</th><th scope="col">Progress</th><th scope="col">Details</th></tr></thead>
<tbody></tbody>
</table>
</section>

<section id="key-step" aria-labelledby="key-title" hidden>
<h2 id="key-title">4. Create an API key</h2>
<p>An API key lets your programs (or the <code>dn</code> command) trade
through this service on the venues you grant, up to a size per order or
leg. It cannot withdraw. You need at least two bound venues.</p>
<div id="key-venues"></div>
<p><label>Largest size per order or leg, USD <input id="max-size" type="number" min="1" step="1" value="1000"></label></p>
<p><label>Label (optional) <input id="key-label" type="text" maxlength="64" placeholder="my bot"></label></p>
<button id="create-key" type="button">Create API key</button>
<div id="secret-box" class="card secret" hidden>
<p><strong>Your API key.</strong> Copy it now: it is shown only this once.
This page does not keep it; leaving or reloading the page loses it, and the
service stores only a hash, so nobody can show it to you again.</p>
<p><code id="secret"></code></p>
<button id="copy-secret" type="button">Copy</button>
<button id="hide-secret" type="button" class="secondary">I saved it, hide it</button>
<span id="copy-status" role="status"></span>
</div>
</section>
</main>
<script src="assets/bind.js"></script>
</body>
</html>
`
}

/** The page's styles, served as a file so the CSP needs no inline style. */
export const BIND_CSS = `:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--bg:#fff;--card:#f6f8fa;--line:#d0d7de;--accent:#0969da;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--bg:#0d1117;--card:#161b22;--line:#30363d;--accent:#4493f8;--ok:#3fb950;--bad:#f85149;--warn:#d29922}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:760px;margin:0 auto;padding:24px 16px 64px}
h1{font-size:1.6rem;margin:0 0 8px}
h2{font-size:1.15rem;margin:28px 0 8px}
.lead,.hint{color:var(--muted)}
section{border-top:1px solid var(--line)}
button{font:inherit;padding:8px 16px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;margin:4px 8px 4px 0}
button.secondary{background:transparent;color:var(--accent)}
button:disabled{opacity:.5;cursor:not-allowed}
input[type=number],input[type=text],select{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.venue{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:8px 0;border-bottom:1px dashed var(--line)}
.venue .name{min-width:220px}
.venue .account,.venue .what{color:var(--muted)}
.venue .account-note{flex-basis:100%;padding-left:24px;color:var(--muted);font-size:.9em}
.venue .account-note:empty{display:none}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:12px 0}
.card h3{margin:0 0 6px;font-size:1rem}
.card .cannot{color:var(--ok)}
.card .waiting{color:var(--muted)}
.card .declined{color:var(--warn);font-weight:600}
.alert{border:1px solid var(--bad);color:var(--bad);border-radius:8px;padding:10px 14px;margin:12px 0}
.alert.info{border-color:var(--warn);color:var(--warn)}
table{width:100%;border-collapse:collapse;margin-top:12px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
td.state{font-weight:600}
tr[data-state=bound] td.state,tr[data-state=already_bound] td.state{color:var(--ok)}
tr[data-state=failed] td.state,tr[data-state=expired] td.state,tr[data-state=stopped] td.state{color:var(--bad)}
.secret code{display:block;word-break:break-all;padding:8px;background:var(--bg);border:1px solid var(--line);border-radius:6px;user-select:all}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
`
