import { describe, expect, test } from 'vitest'
import type { TaskRecord } from '../domain/task.js'
import {
  EMPTY_ENGINE_STATE,
  type TaskOperation,
} from '../domain/taskEngineState.js'
import type { VenueId } from '../domain/venue.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import { CredentialUnreadableError } from '../errors/worker.js'
import { task as taskRow } from '../ports/store.contract.js'
import type { Store } from '../ports/store.js'
import type {
  VenueAdapter,
  VenueOrder,
  VenueOrderRequest,
} from '../ports/venueAdapter.js'
import { createAesGcmSecrets } from '../secrets/createAesGcmSecrets.js'
import { abandonTask } from './abandonTask.js'
import { credentialAad } from './resolveCredential.js'
import { legClientOrderId } from './taskLegOrders.js'
import type { TaskStep } from './taskStep.js'
import type { WorkerDeps } from './workerDeps.js'

const NOW = Date.UTC(2030, 0, 1, 12)
const OWNER = '0x00000000000000000000000000000000000000bb'
const secrets = createAesGcmSecrets(Buffer.alloc(32, 5))

function filled(r: VenueOrderRequest): VenueOrder {
  return {
    clientOrderId: r.clientOrderId,
    venueOrderId: '1',
    state: 'filled',
    size: r.size,
    filledBase: r.size,
    averagePrice: '100',
    venueStatus: 'filled',
    reason: null,
  }
}

/**
 * A claimed step of a long-hl / short-aster task whose hl credential does
 * not decrypt; every venue call is recorded.
 */
function bed(over: Partial<TaskRecord> = {}) {
  const calls: string[] = []
  const known = new Map<string, VenueOrder>()
  const adapter = (venue: VenueId) =>
    ({
      venue,
      rules: async (symbol: string) => ({
        venue,
        symbol,
        tickSize: '0.1',
        maxSigFigs: null,
        sizeStep: '0.001',
        minNotionalUsd: '10',
        minBase: '0.001',
        maxLeverage: 20,
      }),
      quote: async (symbol: string) => ({
        venue,
        symbol,
        mark: '100',
        bid: '99.9',
        ask: '100.1',
        fundingRateHourly: '0',
      }),
      place: async (_cred: unknown, r: VenueOrderRequest) => {
        calls.push(
          `${venue} place ${r.side} ${r.size}${r.reduceOnly ? ' reduce-only' : ''}`,
        )
        return filled(r)
      },
      order: async (_cred: unknown, _m: string, id: string) => {
        calls.push(`${venue} order`)
        return known.get(id) ?? null
      },
    }) as unknown as VenueAdapter
  const binding = (venue: VenueId, ct: string): VenueBindingRecord => ({
    id: `b-${venue}`,
    owner: OWNER,
    venue,
    status: 'bound',
    accountIndex: null,
    credentialRef: '0xagent',
    credentialCiphertext: ct,
    unusableCode: null,
    createdAt: new Date(NOW).toISOString(),
    updatedAt: new Date(NOW).toISOString(),
  })
  const rows = new Map<VenueId, VenueBindingRecord>([
    ['hl', binding('hl', 'v1.tampered.beyond.reading')],
    [
      'aster',
      binding('aster', secrets.encrypt('k', credentialAad(OWNER, 'aster'))),
    ],
  ])
  const logs: string[] = []
  const store = {
    bindings: {
      get: async (_o: string, v: VenueId) => rows.get(v),
      markUnusable: async () => true,
    },
    locks: { acquire: async () => true, release: async () => {} },
  } as unknown as Store
  const deps = {
    store,
    clock: { now: () => NOW },
    adapters: {
      hl: adapter('hl'),
      aster: adapter('aster'),
    } as unknown as WorkerDeps['adapters'],
    secrets,
    workerId: 'w-1',
    leaseMs: 30_000,
    fundingGraceMs: 3_600_000,
    logger: { info: () => {}, error: (msg: string) => logs.push(msg) },
  } satisfies WorkerDeps
  let task = taskRow({ owner: OWNER, ...over })
  const step: TaskStep = {
    deps,
    now: NOW,
    get task() {
      return task
    },
    get state() {
      return task.engineState ?? EMPTY_ENGINE_STATE
    },
    async save(patch) {
      task = { ...task, ...patch } as TaskRecord
      return task
    },
    io: () => Promise.reject(new Error('abandonTask resolves legs itself')),
    startOperation: () =>
      Promise.reject(new Error('abandonTask starts no operation')),
  }
  return { step, calls, known, rows, logs }
}

const cause = new CredentialUnreadableError('hl')
const READ =
  'credential_unreadable: the stored hl credential could not be read; rebind hl (POST /v1/venue-bindings/prepare with rebind: true)'

describe('abandonTask', () => {
  test('default: a pending task holding nothing fails at once, with no venue call', async () => {
    const b = bed()
    expect(await abandonTask(b.step, cause)).toBeNull()
    expect(b.step.task).toMatchObject({
      status: 'failed',
      error: READ,
      closeReason: null,
    })
    expect(b.calls).toEqual([])
    expect(b.logs).toEqual([
      'venue credential unreadable; binding marked unusable',
    ])
  })

  test('behavior: a running task closes the leg it can reach and names the one left open', async () => {
    const b = bed({ status: 'running', longSize: '0.5', shortSize: '0.5' })
    expect(await abandonTask(b.step, cause)).toBeNull()
    expect(b.calls).toEqual(['aster place long 0.5 reduce-only'])
    expect(b.step.task).toMatchObject({
      status: 'failed',
      closeReason: 'credential_unreadable',
      longSize: '0.5',
      shortSize: '0',
      error: `${READ}; the long leg (0.5 BTC on hl) is still open at the venue and no longer managed by this task; the short leg on aster was closed`,
    })
    expect(b.step.state.op).toBeNull()
  })

  test('behavior: an operation in flight is looked up where it can be; the lost leg is noted, nothing is sent again', async () => {
    const b = bed()
    const id = (leg: 'long' | 'short') =>
      legClientOrderId(b.step.task.id, 1, leg)
    const leg = (clientOrderId: string, side: 'long' | 'short') => ({
      clientOrderId,
      side,
      size: '0.5',
      price: '101',
      reduceOnly: false,
      state: 'sending' as const,
      filledBase: '0',
      averagePrice: null,
      failed: null,
      sendBy: new Date(NOW - 600_000).toISOString(),
    })
    const op: TaskOperation = {
      kind: 'open',
      seq: 1,
      startedAt: new Date(NOW - 600_000).toISOString(),
      legs: { long: leg(id('long'), 'long'), short: leg(id('short'), 'short') },
    }
    await b.step.save({ engineState: { ...EMPTY_ENGINE_STATE, op, seq: 1 } })
    b.known.set(id('short'), {
      ...filled({ ...op.legs.short, clientOrderId: id('short') } as never),
      filledBase: '0.5',
    })
    expect(await abandonTask(b.step, cause)).toBeNull()
    // the short open filled: booked, then closed; hl was never called
    expect(b.calls).toEqual(['aster order', 'aster place long 0.5 reduce-only'])
    expect(b.step.task).toMatchObject({
      status: 'failed',
      longSize: '0',
      shortSize: '0',
      error: `${READ}; its long leg order ${id('long')} on hl was in flight and may have filled: check it at the venue; the short leg on aster was closed`,
    })
  })

  test('behavior: a task whose venue was rebound meanwhile carries on', async () => {
    const b = bed({ status: 'running', longSize: '1', shortSize: '1' })
    b.rows.set('hl', {
      ...(b.rows.get('hl') as VenueBindingRecord),
      credentialCiphertext: secrets.encrypt('k', credentialAad(OWNER, 'hl')),
    })
    expect(await abandonTask(b.step, cause)).toBe(NOW)
    expect(b.step.task.status).toBe('running')
    expect(b.calls).toEqual([])
  })
})
