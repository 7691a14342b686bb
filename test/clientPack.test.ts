import { execFile } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { freePort } from './support/freePort.js'

const run = promisify(execFile)
const repo = fileURLToPath(new URL('..', import.meta.url))
const client = join(repo, 'packages/client')
const bin = (name: string) => join(repo, 'node_modules/.bin', name)

/** What a TypeScript user of the published package writes. */
const CONSUMER_TS = `
import {
  createDnClient,
  DnApiError,
  DnError,
  type Task,
  type TaskStatus,
} from '@dn/client'

export async function running(baseUrl: string): Promise<Task[]> {
  const dn = createDnClient({ baseUrl, apiKey: 'dn_test_x.y' })
  const out: Task[] = []
  for await (const t of dn.tasks.list({ status: 'running' })) out.push(t)
  const t = await dn.tasks.waitFor('id', { until: ['running', 'failed'] })
  const s: 'running' | 'failed' = t.status
  const any: TaskStatus = s
  void any
  // @ts-expect-error the status unions are narrow
  dn.tasks.list({ status: 'runing' })
  return out
}

export function explain(err: unknown): string {
  if (err instanceof DnApiError) return \`\${err.status} \${err.code}\`
  if (err instanceof DnError) return err.code
  return 'bug'
}
`

/** What a plain Node user runs. */
const CONSUMER_MJS = `
import * as dn from '@dn/client'
const client = dn.createDnClient({ baseUrl: process.argv[2], retryCount: 0 })
const err = await client.health().catch((e) => e)
console.log(JSON.stringify({
  network: err instanceof dn.DnNetworkError,
  base: err instanceof dn.DnError,
  reason: err.reason,
  lists: typeof client.tasks.list({})[Symbol.asyncIterator],
  codes: dn.DN_ERROR_CODES.length > 0,
}))
`

// Builds the client into a scratch copy (the repo's dist is left alone: the
// CLI's tests run it), packs it, installs the tarball into a fresh project
// without the network and uses it from TypeScript and from Node.
describe('@dn/client as published', () => {
  let tmp: string
  let tarball: string
  let files: string[]
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'dn-client-pack-'))
    const pkg = join(tmp, 'pkg')
    mkdirSync(pkg)
    copyFileSync(join(client, 'package.json'), join(pkg, 'package.json'))
    await run(bin('tsup'), ['--silent', '--out-dir', join(pkg, 'dist')], {
      cwd: client,
    })
    const { stdout } = await run(
      'npm',
      ['pack', '--json', '--pack-destination', tmp],
      { cwd: pkg },
    )
    const [packed] = JSON.parse(stdout) as {
      filename: string
      files: { path: string }[]
    }[]
    if (!packed) throw new Error(`npm pack said ${stdout}`)
    tarball = join(tmp, packed.filename)
    files = packed.files.map((f) => f.path).sort()
  }, 60_000)
  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true })
  })

  test('default: the tarball holds the build and the manifest only', () => {
    expect(files).toEqual([
      'dist/index.d.ts',
      'dist/index.js',
      'dist/index.js.map',
      'package.json',
    ])
  })

  test('default: installs offline, type-checks and runs', async () => {
    const app = join(tmp, 'app')
    mkdirSync(app)
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'app', private: true, type: 'module' }),
    )
    await run(
      'npm',
      ['install', tarball, '--offline', '--no-audit', '--no-fund'],
      { cwd: app },
    )
    writeFileSync(join(app, 'index.ts'), CONSUMER_TS)
    writeFileSync(join(app, 'run.mjs'), CONSUMER_MJS)
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          exactOptionalPropertyTypes: true,
          // the published .d.ts is checked too, against Node's own types
          skipLibCheck: false,
          typeRoots: [join(repo, 'node_modules/@types')],
          types: ['node'],
        },
        files: ['index.ts'],
      }),
    )
    const tsc = await run(bin('tsc'), ['-p', app]).catch(
      (e: { stdout: string }) => e,
    )
    expect(tsc.stdout).toBe('')
    const { stdout } = await run(
      process.execPath,
      ['run.mjs', `http://127.0.0.1:${await freePort()}`],
      { cwd: app },
    )
    expect(JSON.parse(stdout)).toEqual({
      network: true,
      base: true,
      reason: 'refused',
      lists: 'function',
      codes: true,
    })
  }, 60_000)
})
