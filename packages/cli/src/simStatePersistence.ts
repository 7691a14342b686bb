import { join } from 'node:path'
import {
  readSimStateFile,
  SIM_STATE_VERSION,
  type SimStateFile,
  type SimStateSaver,
  type SimVenues,
  startSimStateSaver,
  writeSimStateFile,
} from '@dn/venues/sim'
import type { ComposedVenues } from './composeVenues.js'

/** The simulator's file in `dn up`'s data folder. */
export function simStatePath(dataDir: string): string {
  return join(dataDir, 'sim-state.json')
}

/**
 * The simulator saved by an earlier `dn up` on this data folder, or null.
 * @throws SimStateFileError (refuse to start) when it cannot be used
 */
export function loadSimState(dataDir: string): SimStateFile | null {
  return readSimStateFile(simStatePath(dataDir))
}

/**
 * Saves the engines and the local fakes together (so an order is at both
 * or at neither) within a second of a change and every minute anyway;
 * `saveNow` on shutdown.
 */
export function startSimStatePersistence(
  dataDir: string,
  sim: SimVenues,
  venues: ComposedVenues,
): SimStateSaver {
  const path = simStatePath(dataDir)
  let warned = false
  return startSimStateSaver({
    save: () =>
      writeSimStateFile(path, {
        version: SIM_STATE_VERSION,
        savedAt: Date.now(),
        sim: sim.toSnapshot(),
        fakes: venues.fakeSnapshots(),
      }),
    version: () => sim.version() + venues.fakesVersion(),
    onError: (err) => {
      if (warned) return
      warned = true
      process.stderr.write(
        `dn: cannot save the simulated venues to ${path}: ${err instanceof Error ? err.message : String(err)} (retrying every second)\n`,
      )
    },
  })
}
