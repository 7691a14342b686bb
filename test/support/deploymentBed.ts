import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { type ComposedVenues, composeVenues } from '@dn/cli'
import { createSimVenues } from '@dn/venues/sim'
import { FEE_CONFIG } from './bindingFixtures.js'
import { bundleCli } from './bundleCli.js'
import { type SpawnedDn, spawnDn } from './spawnDn.js'
import {
  type Dialect,
  startTestService,
  type TestService,
} from './testService.js'

export interface DeploymentBed {
  readonly svc: TestService
  readonly venues: ComposedVenues
  /** every venue's URL variable, pointing at the bed's protocol fakes */
  urls(): Record<string, string | undefined>
  /** a `dn` command of the bundled CLI on the bed's database */
  dn(
    command: readonly string[],
    id: string,
    env: Record<string, string | undefined>,
  ): SpawnedDn
  close(): Promise<void>
}

/**
 * A deployment without a simulator: the test service's database, the
 * venues' protocol fakes on their own, and the bundled `dn` to start
 * processes against both.
 */
export async function openDeploymentBed(
  dialect: Dialect,
): Promise<DeploymentBed> {
  const cli = await bundleCli()
  const svc = await startTestService({ dialect })
  const venues = await composeVenues(
    createSimVenues(),
    {},
    { hlMainnet: true, asterTestnet: false, config: FEE_CONFIG },
  )
  return {
    svc,
    venues,
    urls: () => ({
      DN_HL_URL: venues.protocolUrls.hl,
      DN_LIGHTER_URL: venues.protocolUrls.lighter,
      DN_LIGHTER_MAINNET_URL: venues.protocolUrls['lighter-mainnet'],
      DN_ASTER_URL: venues.protocolUrls.aster,
    }),
    dn: (command, id, env) => spawnDn(cli, svc, dialect, command, id, env),
    async close() {
      await venues.close()
      await svc.close()
      rmSync(dirname(cli), { recursive: true, force: true })
    },
  }
}
