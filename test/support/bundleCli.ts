import { mkdirSync, mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('../../', import.meta.url))
const ENTRIES: Record<string, string> = {
  '@dn/core': 'packages/core/src/index.ts',
  '@dn/core/sqlite': 'packages/core/src/store/sqlite.ts',
  '@dn/core/postgres': 'packages/core/src/store/postgres.ts',
  '@dn/server': 'packages/server/src/index.ts',
  '@dn/venues': 'packages/venues/src/index.ts',
  '@dn/venues/sim': 'packages/venues/src/sim/index.ts',
  '@dn/client': 'packages/client/src/index.ts',
}

/**
 * Bundles the `dn` CLI from the current sources into one ESM file, so tests
 * can run real `dn worker` processes (and kill them) without a prior build.
 * Third-party packages stay external and load from node_modules.
 */
export async function bundleCli(): Promise<string> {
  // inside the cli package so external imports resolve as dist/main.js's do
  // (its own node_modules first: commander 14, not a hoisted older copy)
  const dir = join(root, 'packages', 'cli', 'node_modules', '.cache', 'dn-test')
  mkdirSync(dir, { recursive: true })
  const outfile = join(mkdtempSync(join(dir, 'cli-')), 'dn.mjs')
  await build({
    entryPoints: [join(root, 'packages/cli/src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    plugins: [
      {
        name: 'workspace-sources',
        setup(b) {
          b.onResolve({ filter: /^@dn\// }, (args) => {
            const entry = ENTRIES[args.path]
            return entry ? { path: join(root, entry) } : undefined
          })
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@dn/')
              ? undefined
              : { path: args.path, external: true },
          )
        },
      },
    ],
  })
  return outfile
}
