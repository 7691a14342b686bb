import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { index: 'src/index.ts', 'sim/index': 'src/sim/index.ts' },
  format: ['esm'],
  target: 'node20',
  sourcemap: true,
  clean: true,
})
