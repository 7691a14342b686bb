import {
  type PerpOrderStatus,
  UncertainSubmissionError,
  type VenueAdapter,
} from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import {
  type ProtocolService,
  startProtocolService,
} from './support/protocolService.js'
import {
  checkVenueProperty,
  countOffers,
  type VenueOffers,
} from './support/venueProperty.js'
import { newWallet } from './support/wallet.js'

/**
 * The venue-fault property must bite: a worker whose Aster adapter sends
 * an order again after an uncertain answer (the dedupe broken on
 * purpose) is caught, and the violation names the client order id; the
 * same flow with dn's own adapter is not.
 */
describe('the venue property catches a duplicate send', () => {
  let bed: ProtocolService
  let offers: VenueOffers
  let broken = false
  const wallet = newWallet()
  let dn: Awaited<ReturnType<ProtocolService['bindAndKey']>>

  /** resends what came back uncertain: the bug the property must catch */
  const resendOnUncertain = (adapter: VenueAdapter): VenueAdapter => ({
    ...adapter,
    async place(...args: Parameters<VenueAdapter['place']>) {
      try {
        return await adapter.place(...args)
      } catch (err) {
        if (!broken || !(err instanceof UncertainSubmissionError)) throw err
        bed.sim.exchanges.aster.setFaults({ timeoutAfterAcceptRate: 0 })
        return adapter.place(...args)
      }
    },
  })

  beforeAll(async () => {
    bed = await startProtocolService({
      dialect: 'sqlite',
      seed: 313,
      masterKey: Buffer.alloc(32, 9),
      config: FEE_CONFIG,
      workerId: 'property-bites',
      workerAdapters: (venues) => ({
        aster: resendOnUncertain(venues.adapters.aster),
      }),
    })
    offers = countOffers(bed.sim)
    dn = await bed.bindAndKey(wallet, [{ venue: 'aster' }, { venue: 'hl' }])
  }, 60_000)

  afterAll(() => bed?.close())

  /** an Aster market order whose answer the venue loses after acting */
  const lostAnswer = async () => {
    bed.sim.exchanges.aster.setFaults({ timeoutAfterAcceptRate: 1 })
    const { orderId } = await dn.createOrder({
      venue: 'aster',
      market: 'ETHUSDT',
      side: 'long',
      orderType: 'market',
      sizeBase: 0.01,
    })
    const done: PerpOrderStatus[] = ['filled', 'cancelled', 'rejected']
    const order = await dn.waitForOrder(orderId, {
      intervalMs: 25,
      timeoutMs: 20_000,
      until: done,
    })
    bed.sim.exchanges.aster.setFaults({ timeoutAfterAcceptRate: 0 })
    return order
  }

  const violations = (orderIds: string[]) =>
    checkVenueProperty({
      sim: bed.sim,
      offers,
      store: bed.svc.store,
      taskIds: [],
      orderIds,
      apiFailures: [],
      apiCalls: () => 0,
      processFailures: [],
      processes: () => 0,
    })

  test("dn's own adapter: the lost answer is looked up, the order sent once", async () => {
    const order = await lostAnswer()
    expect(order.status).toBe('filled')
    expect(await violations([order.orderId])).toEqual([])
  })

  test('a resend after an uncertain answer is named with its client order id', async () => {
    broken = true
    const order = await lostAnswer()
    const found = await violations([order.orderId])
    const cloid = `0x${order.orderId.replaceAll('-', '')}`
    expect(found).toContain(`aster was sent client order id ${cloid} 2 times`)
  })
})
