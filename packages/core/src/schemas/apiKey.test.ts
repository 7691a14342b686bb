import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { apiKeyView } from '../commands/apiKeyCommands.js'
import { ApiKey, ApiKeyList, CreatedApiKey } from './apiKey.js'

const view = apiKeyView({
  id: '9b2f7a51-0d3e-4c71-9a55-0b8a5f1d2e3c',
  owner: `0x${'c'.repeat(40)}`,
  env: 'local',
  venues: ['hl', 'aster'],
  maxSizeUsd: '1000',
  label: null,
  secretHash: 'ff',
  createdAt: '2025-05-01T10:00:00.000Z',
  revokedAt: null,
})
const ok = (schema: v.GenericSchema, value: unknown) =>
  v.safeParse(schema, value).success

describe('ApiKey', () => {
  test('default: the view of a stored key matches; secrets are not fields', () => {
    expect(ok(ApiKey, view)).toBe(true)
    expect(
      ok(ApiKey, { ...view, label: 'bot', revokedAt: view.createdAt }),
    ).toBe(true)
  })

  test('error: maxSizeUsd is a decimal string, label and revokedAt nullable', () => {
    expect(ok(ApiKey, { ...view, maxSizeUsd: 1000 })).toBe(false)
    expect(ok(ApiKey, { ...view, venues: ['kraken'] })).toBe(false)
    const { revokedAt: _r, ...noRevokedAt } = view
    expect(ok(ApiKey, noRevokedAt)).toBe(false)
    const { label: _l, ...noLabel } = view
    expect(ok(ApiKey, noLabel)).toBe(false)
  })

  test('behavior: created key carries the one-time secret', () => {
    const apiKey = `dn_${view.keyId}.secret`
    expect(ok(CreatedApiKey, { ...view, apiKey })).toBe(true)
    expect(ok(CreatedApiKey, view)).toBe(false)
    // as the server sends it: a new key shows revokedAt, and it is null
    const { revokedAt: _r, ...unrevoked } = view
    expect(ok(CreatedApiKey, { ...unrevoked, apiKey })).toBe(false)
    expect(
      ok(CreatedApiKey, { ...view, revokedAt: view.createdAt, apiKey }),
    ).toBe(false)
    expect(ok(ApiKeyList, { keys: [view] })).toBe(true)
    expect(ok(ApiKeyList, [view])).toBe(false)
  })
})
