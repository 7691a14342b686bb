import { ApiRequestError, apiRequest } from '../shared/apiRequest.js'

/** The parts of the API's answers the dashboard shows (decimals as strings). */
type D = string
type N = string | null

interface LegPnl {
  realizedUsd: D
  unrealizedUsd: D
  feesUsd: N
  builderFeesUsd: D
  entryPrice: N
  exitPrice: N
}

export interface Task {
  taskId: string
  longVenue: string
  shortVenue: string
  longMarket: string
  shortMarket: string
  sizeUsd: D
  status: string
  longSize: N
  shortSize: N
  longEntry: N
  shortEntry: N
  longPrice: N
  shortPrice: N
  longLeverage: N
  shortLeverage: N
  liqProtectionPct: N
  sizeMismatchPct: N
  fundingUsd: D
  longMarginMode: string | null
  shortMarginMode: string | null
  closeReason: string | null
  error: string | null
  createdAt: string
  updatedAt: string
  closeRequestedAt: string | null
  pendingReason: { code: string; message: string } | null
  pnl: {
    long: LegPnl
    short: LegPnl
    realizedUsd: D
    unrealizedUsd: D
    fundingUsd: D
    feesUsd: D
    totalUsd: D
  }
  fundingApyNow: N
  /** closed, its last funding or close fees still being read */
  settling: boolean
}

export interface TaskSample {
  at: string
  fundingUsd: D
  pnlTotalUsd: D
  unrealizedUsd: D
  feesUsd: D
  fundingApy: N
  longPrice: N
  shortPrice: N
  longLiqDistancePct: N
  shortLiqDistancePct: N
}

export interface TaskHistory {
  taskId: string
  rules: {
    autoClose: boolean
    minFundingApy: D
    fundingBelowSince: string | null
    maxSpreadBps: N
    liqProtectionPct: N
    sizeMismatchPct: N
  }
  samples: TaskSample[]
}

export interface PerpOrder {
  orderId: string
  venue: string
  market: string
  side: 'long' | 'short'
  orderType: string
  sizeBase: D
  limitPrice: N
  timeInForce: string
  status: string
  filledBase: D
  averagePrice: N
  clientOrderId: string
  venueStatus: string | null
  error: string | null
  cancelRequestedAt: string | null
  submittedAt: string | null
  observedAt: string | null
  expiresAt: string
  createdAt: string
  updatedAt: string
}

interface AccountRead {
  venue: string
  accountIndex: string | null
  readAt: string | null
  ageMs: number | null
}

export interface PositionAccount extends AccountRead {
  positions: {
    market: string
    side: 'long' | 'short'
    sizeBase: D
    entryPrice: D
    markPrice: D
    unrealizedPnlUsd: D
    leverage: D
    marginMode: string
    liquidationPrice: N
    /** who in dn holds it (docs/positions.md); sizes signed */
    holders: {
      kind: 'task_leg' | 'left_at_venue' | 'direct_orders' | 'unattributed'
      taskId: string | null
      leg: 'long' | 'short' | null
      sizeBase: D
    }[]
  }[]
}

export interface BalanceAccount extends AccountRead {
  equityUsd: N
  availableUsd: N
  marginUsedUsd: N
}

/** The API, with the key sent as its Bearer token. */
export function createApi(key: string) {
  const get = <T>(path: string) =>
    apiRequest<T>('GET', path, { headers: { authorization: `Bearer ${key}` } })
  return {
    tasks: () =>
      get<{ tasks: Task[] }>('v1/delta-neutral/tasks?limit=20').then(
        (r) => r.tasks,
      ),
    history: (taskId: string) =>
      get<TaskHistory>(`v1/delta-neutral/tasks/${taskId}/history?limit=500`),
    orders: () =>
      get<{ orders: PerpOrder[] }>('v1/perp/orders?limit=20').then(
        (r) => r.orders,
      ),
    unknownOrders: () =>
      get<{ orders: PerpOrder[] }>(
        'v1/perp/orders?status=unknown&limit=20',
      ).then((r) => r.orders),
    positions: () =>
      get<{ accounts: PositionAccount[] }>('v1/positions').then(
        (r) => r.accounts,
      ),
    balances: () =>
      get<{ accounts: BalanceAccount[] }>('v1/balances').then(
        (r) => r.accounts,
      ),
  }
}
export type Api = ReturnType<typeof createApi>

export { ApiRequestError }
