import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node20',
  // one bundled index.d.ts for `exports.types`; the workspace itself reads
  // src/ through the `@dn/source` condition and never needs it
  dts: true,
  tsconfig: 'tsconfig.build.json',
  sourcemap: true,
  clean: true,
})
