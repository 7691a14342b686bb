/** The injected wallet (EIP-1193): the only thing that ever signs. */
export interface Eip1193Provider {
  request(args: {
    readonly method: string
    readonly params?: readonly unknown[]
  }): Promise<unknown>
  on?(event: string, listener: (...args: unknown[]) => void): void
}

/** A wallet answered with an error (EIP-1193 `code`, e.g. 4001). */
export class WalletError extends Error {
  override readonly name = 'WalletError'
  constructor(
    readonly code: number | undefined,
    message: string,
  ) {
    super(message)
  }
}

/** EIP-1193: the user rejected the request. */
const USER_REJECTED = 4001
/** EIP-3326: the wallet does not know that chain. */
const UNKNOWN_CHAIN = 4902

/** `window.ethereum`, when a wallet extension injected one. */
export function injectedProvider(): Eip1193Provider | undefined {
  const eth = (window as { ethereum?: unknown }).ethereum
  return eth && typeof (eth as Eip1193Provider).request === 'function'
    ? (eth as Eip1193Provider)
    : undefined
}

/** True when the person declined in their wallet. */
export function isRejection(err: unknown): boolean {
  return err instanceof WalletError && err.code === USER_REJECTED
}

function errorCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code === 'number') return code
  // some wallets wrap the RPC error
  const inner = (err as { data?: { originalError?: { code?: unknown } } })?.data
    ?.originalError?.code
  return typeof inner === 'number' ? inner : undefined
}

/** One wallet call; every failure becomes a WalletError with its code. */
export async function walletCall<T>(
  provider: Eip1193Provider,
  method: string,
  params?: readonly unknown[],
): Promise<T> {
  try {
    return (await provider.request(
      params === undefined ? { method } : { method, params },
    )) as T
  } catch (err) {
    const message =
      (err as { message?: unknown } | null)?.message ?? String(err)
    throw new WalletError(errorCode(err), String(message))
  }
}

/** The wallet's accounts after it asked the person; the first is used. */
export async function requestAddress(
  provider: Eip1193Provider,
): Promise<string> {
  const accounts = await walletCall<string[]>(provider, 'eth_requestAccounts')
  const first = accounts[0]
  if (!first) throw new WalletError(undefined, 'the wallet shared no account')
  return first.toLowerCase()
}

export async function chainIdOf(provider: Eip1193Provider): Promise<number> {
  return Number.parseInt(await walletCall<string>(provider, 'eth_chainId'), 16)
}

const toHex = (bytes: Uint8Array): string =>
  `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`

/** EIP-191 `personal_sign` of a UTF-8 message (newlines included). */
export function personalSign(
  provider: Eip1193Provider,
  address: string,
  message: string,
): Promise<string> {
  const hex = toHex(new TextEncoder().encode(message))
  return walletCall<string>(provider, 'personal_sign', [hex, address])
}

export interface TypedData {
  readonly domain: Record<string, unknown>
  readonly types: Record<string, readonly { name: string; type: string }[]>
  readonly primaryType: string
  readonly message: Record<string, unknown>
}

const DOMAIN_FIELDS = [
  ['name', 'string'],
  ['version', 'string'],
  ['chainId', 'uint256'],
  ['verifyingContract', 'address'],
  ['salt', 'bytes32'],
] as const

/**
 * `eth_signTypedData_v4` of a payload exactly as the service returned it,
 * plus the `EIP712Domain` type wallets expect (derived from the domain's
 * fields, as viem does). Wallets sign only for the chain they are on, so a
 * domain naming another chain asks the wallet to switch first.
 */
export async function signTypedData(
  provider: Eip1193Provider,
  address: string,
  data: TypedData,
): Promise<string> {
  const want = Number(data.domain.chainId)
  if (Number.isSafeInteger(want) && want > 0) {
    if ((await chainIdOf(provider)) !== want) {
      await switchChain(provider, want)
    }
  }
  const types = {
    EIP712Domain: DOMAIN_FIELDS.filter(
      ([name]) => data.domain[name] !== undefined,
    ).map(([name, type]) => ({ name, type })),
    ...data.types,
  }
  const json = JSON.stringify({ ...data, types })
  return walletCall<string>(provider, 'eth_signTypedData_v4', [address, json])
}

async function switchChain(
  provider: Eip1193Provider,
  chainId: number,
): Promise<void> {
  try {
    await walletCall(provider, 'wallet_switchEthereumChain', [
      { chainId: `0x${chainId.toString(16)}` },
    ])
  } catch (err) {
    if (err instanceof WalletError && err.code === UNKNOWN_CHAIN) {
      throw new WalletError(
        UNKNOWN_CHAIN,
        `this signature is made for chain ${chainId}, which your wallet does not know yet: add that network to your wallet, then try again`,
      )
    }
    throw err
  }
}
