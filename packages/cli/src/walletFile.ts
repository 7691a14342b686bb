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
import { CliError, UsageError } from './errors/cliErrors.js'
import { EXIT } from './errors/exitCodes.js'

/** Default place of a development wallet, beside the service's data. */
export const DEFAULT_WALLET_FILE = '.dn/wallet.json'

/**
 * Writes a new development wallet (mode 0600). For real funds use your own
 * wallet through DN_PRIVATE_KEY or a hardware signer: this file is plain.
 */
export function createWalletFile(path: string): PrivateKeyAccount {
  if (existsSync(path)) {
    throw new UsageError(
      `${path} exists; refusing to overwrite a wallet`,
      'choose another --file, or use it as it is',
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

/** Where the signing key comes from, for `dn wallet show`. */
type WalletSource = 'flag' | 'env' | 'config' | 'default'

/**
 * The signing wallet: the `--wallet` file, else DN_PRIVATE_KEY, else the
 * profile's wallet file, else `.dn/wallet.json` (flags > env > config).
 */
export function loadWallet(
  flagPath: string | undefined,
  profilePath?: string,
): { account: PrivateKeyAccount; source: WalletSource; file: string | null } {
  const fromEnv = process.env.DN_PRIVATE_KEY
  if (!flagPath && fromEnv) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(fromEnv))
      throw new UsageError(
        'DN_PRIVATE_KEY is not a 0x-prefixed 32-byte hex key',
      )
    return {
      account: privateKeyToAccount(fromEnv as `0x${string}`),
      source: 'env',
      file: null,
    }
  }
  const [file, source]: [string, WalletSource] = flagPath
    ? [flagPath, 'flag']
    : profilePath
      ? [profilePath, 'config']
      : [DEFAULT_WALLET_FILE, 'default']
  if (!existsSync(file)) {
    throw new CliError(
      'no_wallet',
      EXIT.auth,
      `no wallet at ${file}`,
      'create one with `dn wallet new`, pass --wallet <file>, or set DN_PRIVATE_KEY',
    )
  }
  let privateKey: `0x${string}`
  try {
    ;({ privateKey } = JSON.parse(readFileSync(file, 'utf8')) as {
      privateKey: `0x${string}`
    })
    return { account: privateKeyToAccount(privateKey), source, file }
  } catch (err) {
    throw new UsageError(
      `${file} is not a wallet file (${(err as Error).message})`,
      'a wallet file is JSON with a "privateKey"; make one with `dn wallet new`',
    )
  }
}
