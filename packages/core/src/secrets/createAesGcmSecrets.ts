import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { Secrets } from '../ports/secrets.js'

const VERSION = 'v1'

/**
 * AES-256-GCM with a fresh 96-bit IV per encryption and a 128-bit tag.
 * Output: `v1.<iv>.<tag>.<ciphertext>`, each base64url.
 */
export function createAesGcmSecrets(key: Buffer): Secrets {
  if (key.length !== 32) throw new RangeError('AES-256-GCM needs a 32-byte key')
  const k = Buffer.from(key)
  return Object.freeze({
    encrypt(plaintext: string, aad: string): string {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', k, iv, { authTagLength: 16 })
      cipher.setAAD(Buffer.from(aad, 'utf8'))
      const ct = Buffer.concat([
        cipher.update(plaintext, 'utf8'),
        cipher.final(),
      ])
      const tag = cipher.getAuthTag()
      return [VERSION, iv, tag, ct]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.')
    },
    decrypt(ciphertext: string, aad: string): string {
      const [version, iv, tag, ct] = ciphertext.split('.')
      if (version !== VERSION || !iv || !tag || ct === undefined) {
        throw new RangeError('not a v1 ciphertext')
      }
      const decipher = createDecipheriv(
        'aes-256-gcm',
        k,
        Buffer.from(iv, 'base64url'),
        {
          authTagLength: 16,
        },
      )
      decipher.setAAD(Buffer.from(aad, 'utf8'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([
        decipher.update(Buffer.from(ct, 'base64url')),
        decipher.final(),
      ]).toString('utf8')
    },
  })
}
