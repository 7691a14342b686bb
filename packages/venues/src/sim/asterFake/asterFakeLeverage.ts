import { param } from './asterFakeAuth.js'
import { orderOfEngineId } from './asterFakeEngineLegs.js'
import { AsterFakeError, mandatory } from './asterFakeError.js'
import { filtersOf } from './asterFakeMarket.js'
import {
  type AsterFakeSetting,
  type AsterFakeState,
  hasAccount,
} from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

/** The engine's default on a market it has no setting for (`settingsOf`). */
const DEFAULT_LEVERAGE = 10
/** What positionRisk and the leverage answer publish as the notional cap. */
export const MAX_NOTIONAL = '1000000'

/** The symbol's largest leverage on the engine. @throws -1121 */
function maxLeverageOf(state: AsterFakeState, symbol: string): number {
  filtersOf(state, symbol)
  return state.exchange.rules(symbol)?.maxLeverage ?? DEFAULT_LEVERAGE
}

/** The user's setting on `symbol`, the engine's default when none. */
export function settingOf(
  state: AsterFakeState,
  user: string,
  symbol: string,
): AsterFakeSetting {
  return (
    state.settings.get(`${user}|${symbol}`) ?? {
      leverage: Math.min(DEFAULT_LEVERAGE, maxLeverageOf(state, symbol)),
      marginType: 'cross',
      applied: true,
    }
  )
}

/**
 * Hands a setting made before the account was funded to the engine (which
 * keeps leverage per account), before the user's next order there.
 */
export function applyPendingSetting(
  state: AsterFakeState,
  user: string,
  symbol: string,
): void {
  const s = state.settings.get(`${user}|${symbol}`)
  if (!s || s.applied || !hasAccount(state, user)) return
  state.exchange.setLeverage(user, symbol, s.leverage, s.marginType)
  state.settings.set(`${user}|${symbol}`, { ...s, applied: true })
}

function store(
  state: AsterFakeState,
  user: string,
  symbol: string,
  next: Omit<AsterFakeSetting, 'applied'>,
): void {
  const applied = hasAccount(state, user)
  if (applied) {
    state.exchange.setLeverage(user, symbol, next.leverage, next.marginType)
  }
  state.settings.set(`${user}|${symbol}`, { ...next, applied })
}

function symbolParam(state: AsterFakeState, pairs: Pairs): string {
  const symbol = param(pairs, 'symbol')
  if (!symbol) throw mandatory('symbol')
  filtersOf(state, symbol)
  return symbol
}

/**
 * `POST /fapi/v3/leverage` (TRADE, weight 1): the initial leverage of one
 * symbol, a whole number from 1 to the symbol's bracket maximum (-4028
 * otherwise, "Leverage %s is not valid"); the engine reserves margin at
 * it from the next order on. Answers `{leverage, maxNotionalValue,
 * symbol}` as the futures v3 doc's "Change Initial Leverage" shows it.
 */
export function setLeverage(state: AsterFakeState, user: string, pairs: Pairs) {
  const symbol = symbolParam(state, pairs)
  const raw = param(pairs, 'leverage')
  if (raw === undefined || raw === '') throw mandatory('leverage')
  const leverage = Number(raw)
  if (
    !/^\d+$/.test(raw) ||
    leverage < 1 ||
    leverage > maxLeverageOf(state, symbol)
  ) {
    throw new AsterFakeError(-4028, `Leverage ${raw} is not valid`)
  }
  const now = settingOf(state, user, symbol)
  store(state, user, symbol, { leverage, marginType: now.marginType })
  return { leverage, maxNotionalValue: MAX_NOTIONAL, symbol }
}

const MARGIN_TYPES: Record<string, 'cross' | 'isolated'> = {
  CROSSED: 'cross',
  ISOLATED: 'isolated',
}

/**
 * `POST /fapi/v3/marginType` (TRADE, weight 1): ISOLATED or CROSSED.
 * Refused as the doc's codes say: -4046 when already so, -4047 with open
 * orders on the symbol, -4048 with a position there.
 */
export function setMarginType(
  state: AsterFakeState,
  user: string,
  pairs: Pairs,
) {
  const symbol = symbolParam(state, pairs)
  const raw = param(pairs, 'marginType')
  if (!raw) throw mandatory('marginType')
  const marginType = MARGIN_TYPES[raw.toUpperCase()]
  if (!marginType) throw new AsterFakeError(-4044, 'Balance Type is invalid.')
  const now = settingOf(state, user, symbol)
  if (now.marginType === marginType) {
    throw new AsterFakeError(-4046, 'No need to change margin type.')
  }
  if (hasAccount(state, user)) {
    if (state.exchange.positions(user).some((p) => p.market === symbol)) {
      throw new AsterFakeError(
        -4048,
        'Margin type cannot be changed if there exists position.',
      )
    }
    const open = state.exchange.openOrders(user)
    const waiting = [...state.orders.values()].some(
      (o) =>
        o.user === user &&
        o.symbol === symbol &&
        state.triggers.get(o.orderId)?.status === 'NEW',
    )
    if (
      waiting ||
      open.some(
        (v) => orderOfEngineId(state, user, v.clientOrderId)?.symbol === symbol,
      )
    ) {
      throw new AsterFakeError(
        -4047,
        'Margin type cannot be changed if there exists open orders.',
      )
    }
  }
  store(state, user, symbol, { leverage: now.leverage, marginType })
  return { code: 200, msg: 'success' }
}

function brackets(state: AsterFakeState, symbol: string) {
  return {
    symbol,
    brackets: [
      {
        bracket: 1,
        initialLeverage: maxLeverageOf(state, symbol),
        notionalCap: Number(MAX_NOTIONAL),
        notionalFloor: 0,
        // the engine's maintenance margin is half the initial at max leverage
        maintMarginRatio: 1 / (2 * maxLeverageOf(state, symbol)),
        cum: 0,
      },
    ],
  }
}

/**
 * `GET /fapi/v3/leverageBracket` (USER_DATA, weight 1): one bracket per
 * symbol (the engine has no notional tiers), an object for a symbol, an
 * array without one.
 */
export function leverageBracket(
  state: AsterFakeState,
  _user: string,
  pairs: Pairs,
) {
  const symbol = param(pairs, 'symbol')
  if (symbol !== undefined) {
    filtersOf(state, symbol)
    return brackets(state, symbol)
  }
  return state.exchange.listed().map((r) => brackets(state, r.symbol))
}
