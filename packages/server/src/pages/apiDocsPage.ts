/** Where the page loads the renderer from (served by this server). */
export const REDOC_ASSET_PATH = '/docs/assets/redoc.standalone.js'

/**
 * The API reference page. Redoc's standalone bundle renders every
 * `<redoc spec-url>` element it finds when it loads, so the page needs no
 * inline script. URLs are relative to `/docs`, so the page also works
 * behind a proxy that mounts the service under a prefix. The empty icon
 * spares the browser a `/favicon.ico` request (a 404).
 */
export const API_DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>dn API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<redoc spec-url="openapi.json"></redoc>
<script src="docs/assets/redoc.standalone.js"></script>
</body>
</html>
`

/**
 * What the page may load: only this server. Redoc needs two more things:
 * `style-src 'unsafe-inline'` because styled-components writes its CSS
 * into `<style>` elements at run time (no nonce or hash can name CSS made
 * in the browser), and `worker-src blob:` for its search index, which runs
 * in a worker built from a Blob. `img-src data:` covers the small icons
 * inlined in its CSS. No inline or eval'd script, no third-party origin.
 */
export const API_DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')
