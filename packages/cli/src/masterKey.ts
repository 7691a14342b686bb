import { createHmac, hkdfSync, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

interface MasterKeySource {
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

/** What identifies a master key without revealing it (16 bytes, hex). */
function masterKeyFingerprint(master: Buffer): string {
  return createHmac('sha256', deriveKey(master, 'fingerprint'))
    .update('dn master key')
    .digest('hex')
    .slice(0, 32)
}

/** Thrown when a process's master key is not the one its database holds. */
class MasterKeyMismatchError extends Error {
  override name = 'MasterKeyMismatchError'
  readonly code = 'master_key_mismatch'
}

/**
 * The database remembers the fingerprint of the first master key that
 * opened it; a process with another key stops here. Without this, a
 * worker started with a wrong `DN_MASTER_KEY` would find every stored
 * credential unreadable and mark each binding unusable.
 */
export async function checkMasterKey(
  settings: { claim(name: string, value: string): Promise<string> },
  master: Buffer,
): Promise<void> {
  const mine = masterKeyFingerprint(master)
  const stored = await settings.claim('master_key_fingerprint', mine)
  if (stored !== mine) {
    throw new MasterKeyMismatchError(
      `DN_MASTER_KEY is not the key this database was set up with (its fingerprint is ${stored}, this key's ${mine}); start with the original key: another one cannot read the stored venue credentials or API keys`,
    )
  }
}
