import {
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { UsageError } from '../errors/cliErrors.js'
import { configPath, saveProfile } from './configFile.js'
import { resolveConnection } from './connection.js'

describe('resolveConnection: flags > environment > config profile > default', () => {
  let dir: string
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  const setup = () => {
    dir = mkdtempSync(join(tmpdir(), 'dn-config-'))
    const file = join(dir, 'config.json')
    writeFileSync(
      file,
      JSON.stringify({
        profiles: {
          default: {
            url: 'http://config:1',
            apiKey: 'k-config',
            simUrl: 'http://sim-config:2',
          },
          prod: {
            url: 'https://prod.example',
            apiKey: 'k-prod',
            wallet: '/keys/w.json',
          },
        },
      }),
    )
    return file
  }

  test('the config profile when nothing else says', () => {
    const c = resolveConnection({}, { DN_CONFIG: setup() })
    expect(c).toMatchObject({
      url: 'http://config:1',
      apiKey: 'k-config',
      simUrl: 'http://sim-config:2',
      profile: 'default',
      sources: { url: 'config', apiKey: 'config', simUrl: 'config' },
    })
  })
  test('the environment over the config file', () => {
    const env = {
      DN_CONFIG: setup(),
      DN_URL: 'http://env:3/',
      DN_API_KEY: 'k-env',
    }
    expect(resolveConnection({}, env)).toMatchObject({
      url: 'http://env:3',
      apiKey: 'k-env',
      sources: { url: 'env', apiKey: 'env', simUrl: 'config' },
    })
  })
  test('flags over the environment', () => {
    const env = {
      DN_CONFIG: setup(),
      DN_URL: 'http://env:3',
      DN_API_KEY: 'k-env',
    }
    expect(
      resolveConnection({ url: 'http://flag:4', apiKey: 'k-flag' }, env),
    ).toMatchObject({
      url: 'http://flag:4',
      apiKey: 'k-flag',
      sources: { url: 'flag', apiKey: 'flag' },
    })
  })
  test('--profile, else DN_PROFILE, picks the profile', () => {
    const file = setup()
    expect(
      resolveConnection({ profile: 'prod' }, { DN_CONFIG: file }),
    ).toMatchObject({
      url: 'https://prod.example',
      apiKey: 'k-prod',
      wallet: '/keys/w.json',
      profile: 'prod',
    })
    expect(
      resolveConnection({}, { DN_CONFIG: file, DN_PROFILE: 'prod' }).profile,
    ).toBe('prod')
  })
  test('defaults without a config file; an empty variable counts as unset', () => {
    dir = mkdtempSync(join(tmpdir(), 'dn-config-'))
    const c = resolveConnection(
      {},
      { DN_CONFIG: join(dir, 'none.json'), DN_URL: '' },
    )
    expect(c).toMatchObject({
      url: 'http://127.0.0.1:8080',
      apiKey: undefined,
      simUrl: 'http://127.0.0.1:8081',
      sources: { url: 'default', apiKey: 'none', simUrl: 'default' },
    })
  })
  test('a config file that is not JSON is a usage error naming it', () => {
    dir = mkdtempSync(join(tmpdir(), 'dn-config-'))
    const file = join(dir, 'config.json')
    writeFileSync(file, '{nope')
    expect(() => resolveConnection({}, { DN_CONFIG: file })).toThrow(UsageError)
    expect(() => resolveConnection({}, { DN_CONFIG: file })).toThrow(file)
  })
  test('saveProfile merges into one profile and writes mode 0600', () => {
    const file = setup()
    saveProfile(file, 'prod', { apiKey: 'k-new' })
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    expect(saved.profiles.prod).toEqual({
      url: 'https://prod.example',
      apiKey: 'k-new',
      wallet: '/keys/w.json',
    })
    expect(saved.profiles.default.apiKey).toBe('k-config')
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })
  test('the file lives under XDG_CONFIG_HOME, else ~/.config', () => {
    dir = mkdtempSync(join(tmpdir(), 'dn-config-'))
    expect(configPath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/dn/config.json')
    expect(configPath({ HOME: '/h' })).toMatch(/\.config\/dn\/config\.json$/)
  })
})
