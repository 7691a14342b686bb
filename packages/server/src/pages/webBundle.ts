import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** The browser pages built from `packages/server/web/<name>/main.ts`. */
type WebEntry = 'dashboard' | 'bind'

/**
 * Bundles one browser page's script from the sources in this repository
 * (no CDN, nothing fetched): esbuild, minified, one self-contained IIFE.
 * Called once per server and entry (`staticHandler` keeps the bytes), so
 * the same code serves from the sources in tests, from tsup's `dist/` and
 * from a CLI bundled elsewhere in the workspace: the sources are found
 * through the `@dn/server` package, as node resolves it from here.
 */
export async function webBundle(entry: WebEntry): Promise<Buffer> {
  const require = createRequire(import.meta.url)
  const root = dirname(require.resolve('@dn/server/package.json'))
  // esbuild loads only when a page is first asked for: the API alone never pays for it
  const { build } = await import('esbuild')
  const out = await build({
    entryPoints: [join(root, 'web', entry, 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  })
  const file = out.outputFiles[0]
  if (!file) throw new Error(`web bundle ${entry}: esbuild wrote nothing`)
  return Buffer.from(file.contents)
}
