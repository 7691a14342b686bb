import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import type { AsterFakeSnapshot } from './asterFake/asterFakeSnapshot.js'
import type { HlFakeSnapshot } from './hyperliquidFake/hlFakeSnapshot.js'
import type { LighterFakeSnapshot } from './lighterFake/lighterFakeSnapshot.js'
import type { SimVenuesSnapshot } from './simVenues.js'

/** The layout this code reads and writes; any other is refused. */
export const SIM_STATE_VERSION = 1

/** Each local protocol fake's own state, by venue. */
export interface SimFakeSnapshots {
  readonly hl?: HlFakeSnapshot | undefined
  readonly aster?: AsterFakeSnapshot | undefined
  readonly lighter?: LighterFakeSnapshot | undefined
  readonly 'lighter-mainnet'?: LighterFakeSnapshot | undefined
}

/** What `dn up` keeps of its simulated venues in `<data>/sim-state.json`. */
export interface SimStateFile {
  readonly version: typeof SIM_STATE_VERSION
  /** Unix ms */
  readonly savedAt: number
  readonly sim: SimVenuesSnapshot
  readonly fakes: SimFakeSnapshots
}

type SimStateFileCode = 'sim_state_unreadable' | 'sim_state_version'

/** A saved simulator that cannot be loaded: `dn up` refuses to start. */
export class SimStateFileError extends Error {
  override name = 'SimStateFileError'
  constructor(
    readonly code: SimStateFileCode,
    readonly path: string,
    why: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${path}: ${why}; the simulated venues cannot go on from it. Move it away (e.g. mv ${path} ${path}.old) to start them afresh: tasks and orders on them will then not be found there`,
      options,
    )
  }
}

/**
 * The saved simulator at `path`, or null when there is none.
 * @throws SimStateFileError when it cannot be read, is not JSON, or is of
 * another version
 */
export function readSimStateFile(path: string): SimStateFile | null {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new SimStateFileError(
      'sim_state_unreadable',
      path,
      `cannot be read (${(cause as Error).message})`,
      { cause },
    )
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (cause) {
    throw new SimStateFileError(
      'sim_state_unreadable',
      path,
      'is not valid JSON',
      { cause },
    )
  }
  const o = parsed as Partial<SimStateFile> | null
  if (typeof o !== 'object' || o === null || !('version' in o)) {
    throw new SimStateFileError(
      'sim_state_unreadable',
      path,
      'is not a saved simulator',
    )
  }
  if (o.version !== SIM_STATE_VERSION) {
    throw new SimStateFileError(
      'sim_state_version',
      path,
      `is version ${String(o.version)}, this dn reads version ${SIM_STATE_VERSION}`,
    )
  }
  if (typeof o.sim !== 'object' || typeof o.fakes !== 'object') {
    throw new SimStateFileError(
      'sim_state_unreadable',
      path,
      'is not a saved simulator',
    )
  }
  return o as SimStateFile
}

/**
 * Writes `contents` so that `path` is always either the old file or the
 * whole new one: a temporary file (mode 0600) written and flushed to disk,
 * renamed over it, then the folder flushed so the rename survives a crash.
 */
export function writeSimStateFile(path: string, contents: SimStateFile): void {
  const tmp = `${path}.${process.pid}.tmp`
  const fd = openSync(tmp, 'w', 0o600)
  try {
    writeSync(fd, JSON.stringify(contents))
    fsyncSync(fd)
  } catch (err) {
    closeSync(fd)
    rmSync(tmp, { force: true })
    throw err
  }
  closeSync(fd)
  renameSync(tmp, path)
  const dir = openSync(dirname(path), 'r')
  try {
    fsyncSync(dir)
  } finally {
    closeSync(dir)
  }
}
