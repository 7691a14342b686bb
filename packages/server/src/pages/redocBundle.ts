import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

/**
 * The one resource the bundle loads from elsewhere: the logo of its
 * sidebar footer ("API docs by Redocly"), which Redoc has no option to
 * hide. An empty inline SVG takes its place; the footer and its link stay.
 */
const REDOCLY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg'
const NO_LOGO =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"

/**
 * Reads Redoc's standalone bundle from node_modules, without its one
 * third-party URL. Resolved from this module's URL, so it works from the
 * sources, tsup's `dist/` and a CLI bundled elsewhere in the workspace
 * alike (node_modules is searched upwards from each).
 */
export async function readRedocBundle(): Promise<Buffer> {
  const require = createRequire(import.meta.url)
  // the renderer's self-contained browser bundle
  const path = require.resolve('redoc/bundles/redoc.standalone.js')
  const text = await readFile(path, 'utf8')
  return Buffer.from(text.replaceAll(REDOCLY_LOGO, NO_LOGO))
}
