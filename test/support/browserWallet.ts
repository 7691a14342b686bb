import type { BrowserContext, Page } from 'playwright-core'
import type { Hex } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'

/** One wallet call the page made, as the test wallet saw it. */
export interface WalletCall {
  readonly method: string
  readonly params: readonly unknown[]
}

export interface BrowserWallet {
  readonly calls: WalletCall[]
  /** the chain the wallet is on (changed by wallet_switchEthereumChain) */
  chainId: number
  /**
   * Decides, before each signature, whether the person declines it
   * (EIP-1193 4001); called with the method and its params.
   */
  decline: (call: WalletCall) => boolean
  /** runs before each signature is made (e.g. a screenshot of the card) */
  beforeSign: (call: WalletCall) => Promise<void>
}

type Answer =
  | { readonly result: unknown }
  | { readonly error: { readonly code: number; readonly message: string } }

const reject = (code: number, message: string): Answer => ({
  error: { code, message },
})

/**
 * An injected EIP-1193 wallet for the page (`window.ethereum`) whose key
 * stays in the test: the page's `request` goes to `window.__dnWallet`,
 * answered here by a viem private-key account, as an extension answers
 * after its pop-up. Signs typed data only for the chain it is on, as
 * MetaMask does.
 */
export async function installBrowserWallet(
  target: Page | BrowserContext,
  account: PrivateKeyAccount,
  chainId = 42161,
): Promise<BrowserWallet> {
  const wallet: BrowserWallet = {
    calls: [],
    chainId,
    decline: () => false,
    beforeSign: async () => {},
  }
  const address = account.address.toLowerCase()
  await target.exposeFunction(
    '__dnWallet',
    async (method: string, params: unknown[]): Promise<Answer> => {
      const call = { method, params }
      wallet.calls.push(call)
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return { result: [account.address] }
        case 'eth_chainId':
          return { result: `0x${wallet.chainId.toString(16)}` }
        case 'wallet_switchEthereumChain': {
          const [{ chainId: hex }] = params as [{ chainId: string }]
          wallet.chainId = Number.parseInt(hex, 16)
          return { result: null }
        }
        case 'personal_sign': {
          const [hex, from] = params as [Hex, string]
          if (from.toLowerCase() !== address)
            return reject(4100, 'unknown account')
          await wallet.beforeSign(call)
          if (wallet.decline(call))
            return reject(4001, 'User rejected the request.')
          return {
            result: await account.signMessage({ message: { raw: hex } }),
          }
        }
        case 'eth_signTypedData_v4': {
          const [from, json] = params as [string, string]
          if (from.toLowerCase() !== address)
            return reject(4100, 'unknown account')
          const data = JSON.parse(json)
          if (Number(data.domain.chainId) !== wallet.chainId) {
            return reject(
              -32000,
              `Provided chainId "${data.domain.chainId}" must match the active chainId "${wallet.chainId}"`,
            )
          }
          await wallet.beforeSign(call)
          if (wallet.decline(call))
            return reject(4001, 'User rejected the request.')
          return { result: await account.signTypedData(data) }
        }
        default:
          return reject(4200, `unsupported method ${method}`)
      }
    },
  )
  // a string: the test's tsconfig has no DOM types (this runs in the page)
  await target.addInitScript(`
    window.ethereum = {
      async request(args) {
        const answer = await window.__dnWallet(args.method, args.params ?? [])
        if ('error' in answer) {
          throw Object.assign(new Error(answer.error.message), {
            code: answer.error.code,
          })
        }
        return answer.result
      },
      on() {},
    }
  `)
  return wallet
}
