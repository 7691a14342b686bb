/**
 * Lighter's official TypeScript client, `zklighter-perps` (1.0.272, a
 * devDependency), pointed at a base URL: `new Configuration({ basePath })`
 * and its `*Api` classes, as its README sets them up.
 *
 * The package ships TypeScript sources written for CommonJS, which this
 * repository's compiler settings (`verbatimModuleSyntax`, NodeNext)
 * reject when a file imports it; vitest compiles them fine. So it is
 * loaded by a specifier the compiler does not follow, and only the
 * subset the tests call is typed here (the kysely way of depending on a
 * library: declare what you use).
 */

type Params = Record<string, unknown>
type Answer = Record<string, unknown>
type Call = (params?: Params) => Promise<Answer>

export interface ZkLighterClient {
  readonly root: { status: Call }
  readonly account: {
    account: Call
    accountsByL1Address: Call
    apikeys: Call
    positionFunding: Call
    pnl: Call
  }
  readonly order: {
    orderBooks: Call
    orderBookDetails: Call
    orderBookOrders: Call
    recentTrades: Call
    trades: Call
    exchangeStats: Call
    accountOrders: Call
    accountActiveOrders: Call
    accountInactiveOrders: Call
  }
  readonly candlestick: { candles: Call; fundings: Call }
  readonly funding: { fundingRates: Call }
  readonly transaction: {
    sendTx: Call
    sendTxBatch: Call
    nextNonce: Call
    tx: Call
  }
  /** the client's error for a non-2xx answer (`.response` is the fetch Response) */
  readonly ResponseError: new (
    ...args: never[]
  ) => Error & { response: Response }
}

/** not a literal, so the compiler leaves the package's sources alone */
const PACKAGE: string = 'zklighter-perps'

export async function zkLighterClient(
  basePath: string,
): Promise<ZkLighterClient> {
  const sdk = await import(PACKAGE)
  const config = new sdk.Configuration({ basePath })
  return {
    root: new sdk.RootApi(config),
    account: new sdk.AccountApi(config),
    order: new sdk.OrderApi(config),
    candlestick: new sdk.CandlestickApi(config),
    funding: new sdk.FundingApi(config),
    transaction: new sdk.TransactionApi(config),
    ResponseError: sdk.ResponseError,
  }
}
