import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (p: string) =>
  fileURLToPath(new URL(`./packages/${p}`, import.meta.url))

// Tests run against the TypeScript sources; the built dist is for `npm start`.
export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@dn\/core\/sqlite$/,
        replacement: src('core/src/store/sqlite.ts'),
      },
      {
        find: /^@dn\/core\/postgres$/,
        replacement: src('core/src/store/postgres.ts'),
      },
      { find: /^@dn\/core$/, replacement: src('core/src/index.ts') },
      {
        find: /^@dn\/venues\/sim$/,
        replacement: src('venues/src/sim/index.ts'),
      },
      { find: /^@dn\/venues$/, replacement: src('venues/src/index.ts') },
      { find: /^@dn\/server$/, replacement: src('server/src/index.ts') },
      { find: /^@dn\/client$/, replacement: src('client/src/index.ts') },
      { find: /^@dn\/cli$/, replacement: src('cli/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
