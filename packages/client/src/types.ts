/**
 * Wire types of the service. What the service answers is generated from
 * GET /openapi.json (generated/openapiTypes.ts, `npm run gen:client`); the
 * request bodies stay written by hand, held to the route schemas by
 * test/clientRoutes.test.ts. Decimals are strings.
 */
import type {
  BalanceList,
  MarketList,
  PerpOrderStatus,
  PositionList,
  TaskStatus,
  Venue,
  VenueBindingList,
} from './generated/openapiTypes.js'

export type {
  ApiKey,
  BalanceList,
  BindingBatchStatus,
  BindingSignRequest as SignRequest,
  BindingVenueStatus,
  CreatedApiKey,
  DnErrorCode,
  ErrorBody,
  MarketList,
  OrderAck,
  PerpOrder,
  PerpOrderList,
  PerpOrderResolution,
  PerpOrderStatus,
  PositionList,
  RequestLog,
  ResolveAck,
  Task,
  TaskAck,
  TaskHistory,
  TaskList,
  TaskStatus,
  Venue,
  VenueAccountList,
  VenueBindingBatch,
  VenueBindingList,
  VenueBindingResult,
} from './generated/openapiTypes.js'

/** A venue account the wallet bound (`GET /v1/venue-bindings`). */
export type BoundVenue = VenueBindingList['bindings'][number]

/** One listed market; quote fields are null when the venue had no quote. */
export type Market = MarketList['markets'][number]

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

/** A list page's filter; pass a page's `nextCursor` back as `cursor`. */
export interface ListQuery<S extends string = TaskStatus | PerpOrderStatus> {
  /** 1..20 @default 20 */
  limit?: number | undefined
  status?: S | undefined
  /** UTC date-time with 1..6 fractional digits, e.g. `2026-01-01T00:00:00.000Z` */
  updatedSince?: string | undefined
  cursor?: string | undefined
}

export type BindingTarget =
  | { venue: 'hl'; signatureChainId?: number; rebind?: boolean }
  | { venue: 'aster'; rebind?: boolean }
  | {
      venue: 'lighter' | 'lighter-mainnet'
      accountIndex: number
      rebind?: boolean
    }

/** A bound account's positions as the worker last read them. */
export type AccountPositions = PositionList['accounts'][number]
/** One net position; decimals as strings. */
export type Position = AccountPositions['positions'][number]
/** Who in dn holds part of a venue position (docs/positions.md). */
export type PositionHolder = Position['holders'][number]
/** A bound account's collateral in USD; null while not read yet. */
export type Balance = BalanceList['accounts'][number]
