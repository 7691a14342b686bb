import { hkdfSync, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface MasterKeySource {
  readonly key: Buffer
  /** where it came from, for the start-up message */
  readonly origin: 'env' | 'file' | 'created'
  readonly path?: string
}

/** Parses DN_MASTER_KEY: 64 hex characters or base64 of 32 bytes. */
export function parseMasterKey(text: string): Buffer {
  const t = text.trim()
  const key = /^[0-9a-fA-F]{64}$/.test(t)
    ? Buffer.from(t, 'hex')
    : Buffer.from(t, 'base64')
  if (key.length !== 32) {
    throw new RangeError(
      'DN_MASTER_KEY must be 32 bytes: 64 hex characters or base64',
    )
  }
  return key
}

/**
 * The deployment's master key: DN_MASTER_KEY when set, else a key file in
 * the data folder, created (mode 0600) on first start when `create` is on.
 */
export function loadMasterKey(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  create: boolean,
): MasterKeySource {
  if (env.DN_MASTER_KEY)
    return { key: parseMasterKey(env.DN_MASTER_KEY), origin: 'env' }
  const path = join(dataDir, 'master.key')
  if (existsSync(path)) {
    return {
      key: parseMasterKey(readFileSync(path, 'utf8')),
      origin: 'file',
      path,
    }
  }
  if (!create) {
    throw new RangeError(
      'DN_MASTER_KEY is not set; generate one with `openssl rand -hex 32`',
    )
  }
  const key = randomBytes(32)
  writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' })
  chmodSync(path, 0o600)
  return { key, origin: 'created', path }
}

/** Separate subkeys per purpose, so one never doubles as another. */
export function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', master, Buffer.from('dn'), Buffer.from(purpose), 32),
  )
}
