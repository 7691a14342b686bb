import { describe, expect, test } from 'vitest'
import type { VenueId } from '../domain/venue.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import {
  CredentialUnavailableError,
  CredentialUnreadableError,
} from '../errors/worker.js'
import type { BindingUnusableMark, VenueBindingRepo } from '../ports/store.js'
import { createAesGcmSecrets } from '../secrets/createAesGcmSecrets.js'
import {
  credentialAad,
  credentialErrorText,
  resolveCredential,
} from './resolveCredential.js'

const OWNER = '0x00000000000000000000000000000000000000aa'
const secrets = createAesGcmSecrets(Buffer.alloc(32, 3))
const NOW = Date.UTC(2030, 0, 1)

/** One owner's bindings in memory, with the store's markUnusable guard. */
function bindings(ciphertext: string | null, venue: VenueId = 'hl') {
  const rows = new Map<VenueId, VenueBindingRecord>()
  rows.set(venue, {
    id: 'b-1',
    owner: OWNER,
    venue,
    status: 'bound',
    accountIndex: null,
    credentialRef: '0xagent',
    credentialCiphertext: ciphertext,
    unusableCode: null,
    createdAt: new Date(NOW).toISOString(),
    updatedAt: new Date(NOW).toISOString(),
  })
  const marks: BindingUnusableMark[] = []
  const repo: VenueBindingRepo = {
    upsert: async (b) => {
      rows.set(b.venue, b)
    },
    get: async (_owner, v) => rows.get(v),
    listByOwner: async () => [...rows.values()],
    markUnusable: async (mark) => {
      marks.push(mark)
      const row = rows.get(mark.venue)
      if (
        row?.status !== 'bound' ||
        row.credentialCiphertext !== mark.credentialCiphertext
      ) {
        return false
      }
      rows.set(mark.venue, {
        ...row,
        status: 'unusable',
        unusableCode: mark.code,
        updatedAt: mark.updatedAt,
      })
      return true
    },
  }
  return { repos: { bindings: repo }, rows, marks }
}

function recordingLogger() {
  const lines: { msg: string; fields: Record<string, unknown> }[] = []
  return {
    lines,
    logger: {
      error: (msg: string, fields: Record<string, unknown> = {}) => {
        lines.push({ msg, fields })
      },
    },
  }
}

describe('resolveCredential', () => {
  test('default: decrypts the bound credential', async () => {
    const ct = secrets.encrypt('0xsecret', credentialAad(OWNER, 'hl'))
    const { repos } = bindings(ct)
    expect(await resolveCredential(repos, secrets, OWNER, 'hl')).toEqual({
      owner: OWNER,
      venue: 'hl',
      accountIndex: null,
      credentialRef: '0xagent',
      secret: '0xsecret',
    })
  })

  test('error: a tampered ciphertext marks the binding unusable and is logged once, without the ciphertext', async () => {
    const good = secrets.encrypt('0xsecret', credentialAad(OWNER, 'hl'))
    const tampered = `${good.slice(0, -4)}AAAA`
    const { repos, rows, marks } = bindings(tampered)
    const { lines, logger } = recordingLogger()
    for (let i = 0; i < 3; i++) {
      const err = await resolveCredential(repos, secrets, OWNER, 'hl', {
        logger,
        now: NOW + 5_000,
      }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(CredentialUnreadableError)
      expect(err).toBeInstanceOf(CredentialUnavailableError)
      expect((err as CredentialUnreadableError).code).toBe(
        'credential_unreadable',
      )
    }
    // the first call marked it; the others found the mark and wrote nothing
    expect(marks).toHaveLength(1)
    expect(rows.get('hl')).toMatchObject({
      status: 'unusable',
      unusableCode: 'credential_unreadable',
      credentialCiphertext: tampered,
      updatedAt: new Date(NOW + 5_000).toISOString(),
    })
    expect(lines).toEqual([
      {
        msg: 'venue credential unreadable; binding marked unusable',
        fields: {
          code: 'credential_unreadable',
          owner: OWNER,
          venue: 'hl',
          bindingId: 'b-1',
          reason: expect.any(String),
        },
      },
    ])
    expect(JSON.stringify(lines)).not.toContain(tampered.slice(3, 20))
  })

  test('error: a ciphertext of another row (wrong aad) is unreadable too', async () => {
    const other = secrets.encrypt('0xsecret', credentialAad(OWNER, 'aster'))
    const { repos } = bindings(other)
    await expect(
      resolveCredential(repos, secrets, OWNER, 'hl'),
    ).rejects.toBeInstanceOf(CredentialUnreadableError)
  })

  test('behavior: without a logger (API lookups) nothing is written', async () => {
    const { repos, rows, marks } = bindings('v1.not.a.ciphertext')
    await expect(
      resolveCredential(repos, secrets, OWNER, 'hl'),
    ).rejects.toBeInstanceOf(CredentialUnreadableError)
    expect(marks).toEqual([])
    expect(rows.get('hl')?.status).toBe('bound')
  })

  test('error: an unbound venue or another unusable reason is venue_not_bound', async () => {
    const { repos, rows } = bindings(null)
    const missing = await resolveCredential(
      repos,
      secrets,
      OWNER,
      'aster',
    ).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(CredentialUnavailableError)
    expect(missing).not.toBeInstanceOf(CredentialUnreadableError)
    expect((missing as CredentialUnavailableError).code).toBe('venue_not_bound')
    rows.set('hl', {
      ...(rows.get('hl') as VenueBindingRecord),
      status: 'revoked',
    })
    await expect(
      resolveCredential(repos, secrets, OWNER, 'hl'),
    ).rejects.toMatchObject({ code: 'venue_not_bound' })
  })
})

describe('credentialErrorText', () => {
  test('default: an unreadable credential leads with its code', () => {
    expect(
      credentialErrorText(new CredentialUnreadableError('hl')),
    ).toMatchInlineSnapshot(
      `"credential_unreadable: the stored hl credential could not be read; rebind hl (POST /v1/venue-bindings/prepare with rebind: true)"`,
    )
    expect(
      credentialErrorText(new CredentialUnavailableError('hl is not bound')),
    ).toBe('hl is not bound')
  })
})
