import { describe, test } from 'vitest'
import { faultProfile, runFaultSuite } from './support/faultSuite.js'

/**
 * The property a user trusts with money, under venues that misbehave:
 * random task lifecycles and direct orders through fault-injecting
 * proxies in front of the protocol fakes, with `dn worker` processes
 * SIGKILLed at random; then faults off and a settling window, and the
 * venues' own state is checked (see checkVenueProperty). SQLite and
 * PostgreSQL (when configured) run side by side, each with its own seed.
 */
describe('venue faults', () => {
  test(
    'seeded runs with SIGKILLed workers hold the property at the venues',
    async () => {
      await runFaultSuite()
    },
    faultProfile().chaosMs + 360_000,
  )
})
