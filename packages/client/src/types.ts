/** Wire types of the service (see GET /openapi.json). Decimals are strings. */
export type Venue = 'aster' | 'hl' | 'lighter' | 'lighter-mainnet'

export interface Task {
  taskId: string
  longVenue: Venue
  shortVenue: Venue
  longMarket: string
  shortMarket: string
  sizeUsd: string
  status: string
  longSize: string | null
  shortSize: string | null
  longEntry: string | null
  shortEntry: string | null
  longPrice: string | null
  shortPrice: string | null
  longLeverage: string | null
  shortLeverage: string | null
  liqProtectionPct: string | null
  sizeMismatchPct: string | null
  fundingUsd: string
  longMarginMode: string | null
  shortMarginMode: string | null
  closeReason: string | null
  error: string | null
  createdAt: string
  updatedAt: string
  closeRequestedAt: string | null
}

export interface CreateTask {
  longVenue: Venue
  shortVenue: Venue
  longMarket: string
  shortMarket: string
  sizeUsd: number
  minFundingApy?: number
  autoClose?: boolean
  maxSpreadBps?: number
  liqProtectionPct?: number
  sizeMismatchPct?: number
}

export interface ResizeTask {
  longTargetBase?: number
  shortTargetBase?: number
  disableSizeMismatchAutoClose?: boolean
}

export interface PerpOrder {
  orderId: string
  venue: Venue
  market: string
  side: 'long' | 'short'
  orderType: 'market' | 'limit'
  sizeBase: string
  limitPrice: string | null
  timeInForce: 'ioc' | 'gtc' | 'post_only'
  slippageBps: number
  reduceOnly: boolean
  status: string
  requestedBase: string | null
  filledBase: string
  averagePrice: string | null
  clientOrderId: string
  venueStatus: string | null
  error: string | null
  cancelRequestedAt: string | null
  submittedAt: string | null
  observedAt: string | null
  expiresAt: string
  createdAt: string
  updatedAt: string
  resolution?: Record<string, unknown> | null
}

export type CreatePerpOrder =
  | {
      venue: Venue
      market: string
      side: 'long' | 'short'
      orderType: 'market'
      sizeBase: number
      timeInForce?: 'ioc'
      slippageBps?: number
      reduceOnly?: boolean
      expirySeconds?: number
    }
  | {
      venue: Venue
      market: string
      side: 'long' | 'short'
      orderType: 'limit'
      sizeBase: number
      limitPrice: number
      timeInForce?: 'ioc' | 'gtc' | 'post_only'
      reduceOnly?: boolean
      expirySeconds?: number
    }

export interface ResolvePerpOrder {
  status: 'filled' | 'cancelled' | 'expired' | 'rejected'
  filledBase: number
  averagePrice: number | null
  evidence: string
  confirmNoOpenOrder: true
  confirmWorkersStopped: true
}

/** One listed market; quote fields are null when the venue had no quote. */
export interface Market {
  symbol: string
  tickSize: string
  sizeStep: string
  minBase: string
  minNotionalUsd: string
  maxLeverage: number
  mark: string | null
  bid: string | null
  ask: string | null
  fundingRateHourly: string | null
  /** fundingRateHourly × 24 × 365 */
  fundingApy: string | null
  nextFundingAt: string | null
}

export interface MarketList {
  venue: Venue
  markets: Market[]
}

/**
 * A bound account as the worker last read it: `readAt` (ISO) when the
 * venue read was sent and `ageMs` how long before the answer; null while
 * it has not been read yet.
 */
export interface AccountRead {
  venue: Venue
  /** Lighter account index; null on other venues */
  accountIndex: string | null
  readAt: string | null
  ageMs: number | null
}

/** A net position; decimals as strings. */
export interface Position {
  market: string
  side: 'long' | 'short'
  sizeBase: string
  entryPrice: string
  markPrice: string
  unrealizedPnlUsd: string
  leverage: string
  marginMode: 'cross' | 'isolated'
  liquidationPrice: string | null
}

export interface PositionList {
  accounts: (AccountRead & { positions: Position[] })[]
}

/** An account's collateral in USD; null while not read yet. */
export interface Balance extends AccountRead {
  equityUsd: string | null
  availableUsd: string | null
  marginUsedUsd: string | null
}

export interface BalanceList {
  accounts: Balance[]
}

export interface RequestLog {
  request_id: string
  action: string
  path: string
  task_id: string | null
  order_id: string | null
  http_status: number
  error_code: string | null
  replayed: boolean
  created_at: string
}

export interface ListQuery {
  limit?: number
  status?: string
  updatedSince?: string
  cursor?: string
}

export interface ApiKey {
  keyId: string
  owner: string
  venues: Venue[]
  maxSizeUsd: string
  label: string | null
  createdAt: string
  revokedAt: string | null
}

export type BindingTarget =
  | { venue: 'hl'; signatureChainId?: number; rebind?: boolean }
  | { venue: 'aster'; rebind?: boolean }
  | {
      venue: 'lighter' | 'lighter-mainnet'
      accountIndex: number
      rebind?: boolean
    }

export type SignRequest =
  | {
      requestId: string
      venue: Venue
      action: string
      method: 'personal_sign'
      payload: { message: string }
    }
  | {
      requestId: string
      venue: Venue
      action: string
      method: 'eth_signTypedData_v4'
      payload: {
        domain: Record<string, unknown>
        types: Record<string, { name: string; type: string }[]>
        primaryType: string
        message: Record<string, unknown>
      }
    }

export interface VenueBindingBatch {
  bindingId: string
  owner: string
  expiresAt: string
  status:
    | 'awaiting_signatures'
    | 'processing'
    | 'bound'
    | 'partial_success'
    | 'failed'
  results: {
    venue: Venue
    sessionId: string | null
    status: string
    code?: string
    retryable?: boolean
  }[]
  signRequests: SignRequest[]
}
