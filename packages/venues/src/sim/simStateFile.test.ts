import {
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import {
  readSimStateFile,
  SIM_STATE_VERSION,
  type SimStateFile,
  SimStateFileError,
  writeSimStateFile,
} from './simStateFile.js'
import { createSimVenues } from './simVenues.js'

const dir = mkdtempSync(join(tmpdir(), 'dn-sim-state-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const contents = (): SimStateFile => ({
  version: SIM_STATE_VERSION,
  savedAt: 1,
  sim: createSimVenues({ clock: { now: () => 0 } }).toSnapshot(),
  fakes: {},
})

test('behavior: written whole, readable by its owner only, read back as written; none yet is null', () => {
  const path = join(dir, 'a.json')
  expect(readSimStateFile(path)).toBeNull()
  const c = contents()
  writeSimStateFile(path, c)
  writeSimStateFile(path, c)
  expect(statSync(path).mode & 0o777).toBe(0o600)
  expect(readSimStateFile(path)).toEqual(c)
  // no temporary file left beside it
  expect(readdirSync(dir)).toEqual(['a.json'])
})

test('error: another version or not JSON refuses, naming the file and what to do', () => {
  const path = join(dir, 'b.json')
  writeFileSync(path, JSON.stringify({ ...contents(), version: 2 }))
  const err = (() => {
    try {
      readSimStateFile(path)
    } catch (e) {
      return e
    }
    return null
  })()
  expect(err).toBeInstanceOf(SimStateFileError)
  expect((err as SimStateFileError).code).toBe('sim_state_version')
  expect((err as Error).message).toContain(`mv ${path} ${path}.old`)
  writeFileSync(path, '{"version":1,')
  expect(() => readSimStateFile(path)).toThrow(/is not valid JSON/)
})
