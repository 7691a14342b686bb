import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** Where the page loads its script and stylesheet from (this server). */
export const DASHBOARD_SCRIPT_PATH = '/assets/dashboard.js'
export const DASHBOARD_STYLE_PATH = '/assets/dashboard.css'

/**
 * The read-only dashboard at `/`: an empty shell the script fills in. Asset
 * URLs are relative, so the page also works behind a proxy that mounts the
 * service under a prefix. The empty icon spares the browser a
 * `/favicon.ico` request (a 404).
 */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>dn dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="assets/dashboard.css">
</head>
<body>
<header class="top"><h1>dn dashboard</h1><span class="muted">read-only</span><a href="docs">API reference</a></header>
<main id="app"><noscript>The dashboard needs JavaScript.</noscript></main>
<script src="assets/dashboard.js"></script>
</body>
</html>
`

/** The stylesheet, from `packages/server/web/dashboard/` of this package. */
export async function readDashboardStyle(): Promise<Buffer> {
  const require = createRequire(import.meta.url)
  const root = dirname(require.resolve('@dn/server/package.json'))
  return readFile(join(root, 'web', 'dashboard', 'dashboard.css'))
}
