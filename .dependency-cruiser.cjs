/**
 * The layering `docs/architecture.md` describes, checked by `npm run lint`:
 * data flows down (cli → server → core, cli → venues → core), never up,
 * and no module imports itself back through others.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'a cycle makes two modules one: split the shared part out',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-stays-core',
      severity: 'error',
      comment:
        'core knows nothing of HTTP, the CLI, venues or a database driver (the kysely store sits behind @dn/core/sqlite and /postgres)',
      from: { path: '^packages/core/src' },
      to: {
        path: [
          '^packages/(server|cli|venues|client)/',
          '^@dn/(server|cli|venues|client)',
          '^node_modules/(undici|commander|ws)/',
          '^node:http$',
          '^http$',
        ],
      },
    },
    {
      name: 'venues-below-server-and-cli',
      severity: 'error',
      from: { path: '^packages/venues/src' },
      to: {
        path: ['^packages/(server|cli|client)/', '^@dn/(server|cli|client)'],
      },
    },
    {
      name: 'adapters-without-the-simulator',
      severity: 'error',
      comment:
        'the production adapters (@dn/venues) never load the simulator, its fakes or test beds (@dn/venues/sim)',
      from: { path: '^packages/venues/src/(?!sim/)' },
      to: { path: '^packages/venues/src/sim/' },
    },
    {
      name: 'server-below-cli',
      severity: 'error',
      from: { path: '^packages/server/src' },
      to: { path: ['^packages/(cli|client)/', '^@dn/(cli|client)'] },
    },
    {
      name: 'client-stands-alone',
      severity: 'error',
      comment: 'the typed client is published on its own',
      from: { path: '^packages/client/src' },
      to: { path: ['^packages/(core|venues|server|cli)/', '^@dn/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: '(^|/)(dist|node_modules)/|\\.test\\.ts$|\\.contract\\.ts$',
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      conditionNames: ['@dn/source', 'import', 'types', 'node', 'default'],
    },
  },
}
