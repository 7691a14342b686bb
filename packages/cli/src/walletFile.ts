import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs'
import { dirname } from 'node:path'
import {
  generatePrivateKey,
  type PrivateKeyAccount,
  privateKeyToAccount,
} from 'viem/accounts'

/** Default place of a development wallet, beside the service's data. */
export const DEFAULT_WALLET_FILE = '.dn/wallet.json'

/**
 * Writes a new development wallet (mode 0600). For real funds use your own
 * wallet through DN_PRIVATE_KEY or a hardware signer: this file is plain.
 */
export function createWalletFile(path: string): PrivateKeyAccount {
  if (existsSync(path)) {
    throw new RangeError(
      `${path} exists; refusing to overwrite a wallet (choose --file)`,
    )
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const privateKey = generatePrivateKey()
  const account = privateKeyToAccount(privateKey)
  writeFileSync(
    path,
    `${JSON.stringify({ address: account.address, privateKey }, null, 2)}\n`,
    {
      mode: 0o600,
      flag: 'wx',
    },
  )
  chmodSync(path, 0o600)
  return account
}

/** The signing wallet: DN_PRIVATE_KEY if set, else the wallet file. */
export function loadWallet(path: string | undefined): PrivateKeyAccount {
  const fromEnv = process.env.DN_PRIVATE_KEY
  if (fromEnv) return privateKeyToAccount(fromEnv as `0x${string}`)
  const file = path ?? DEFAULT_WALLET_FILE
  if (!existsSync(file)) {
    throw new RangeError(
      `no wallet: create one with \`dn wallet new\` or set DN_PRIVATE_KEY`,
    )
  }
  const { privateKey } = JSON.parse(readFileSync(file, 'utf8')) as {
    privateKey: `0x${string}`
  }
  return privateKeyToAccount(privateKey)
}
