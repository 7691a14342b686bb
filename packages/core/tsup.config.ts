import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/store/sqlite.ts', 'src/store/postgres.ts'],
  format: ['esm'],
  target: 'node20',
  sourcemap: true,
  clean: true,
})
