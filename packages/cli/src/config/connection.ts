import { configPath, type Profile, readConfigFile } from './configFile.js'

const DEFAULT_URL = 'http://127.0.0.1:8080'
const DEFAULT_SIM_URL = 'http://127.0.0.1:8081'
const DEFAULT_PROFILE = 'default'

/** The options every service command takes (on `dn` itself). */
export interface GlobalFlags {
  url?: string
  apiKey?: string
  simUrl?: string
  profile?: string
  json?: boolean
}

type Source = 'flag' | 'env' | 'config' | 'default'

export interface Connection {
  readonly url: string
  readonly apiKey: string | undefined
  readonly simUrl: string
  readonly profile: string
  /** where the profile's fields were read, for messages and `dn config` */
  readonly configPath: string
  /** the wallet file named by the profile, if any */
  readonly wallet: string | undefined
  readonly sources: {
    readonly url: Source
    readonly apiKey: Source | 'none'
    readonly simUrl: Source
  }
}

function pick<T>(
  flag: T | undefined,
  env: T | undefined,
  config: T | undefined,
): [T | undefined, Source | 'none'] {
  if (flag !== undefined && flag !== '') return [flag, 'flag']
  if (env !== undefined && env !== '') return [env, 'env']
  if (config !== undefined && config !== '') return [config, 'config']
  return [undefined, 'none']
}

/**
 * Flags win over the environment (`DN_URL`, `DN_API_KEY`, `DN_SIM_URL`,
 * `DN_PROFILE`), which wins over the config file's profile.
 */
export function resolveConnection(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv = process.env,
): Connection {
  const path = configPath(env)
  const profile = flags.profile || env.DN_PROFILE || DEFAULT_PROFILE
  const file = readConfigFile(path)
  const p: Profile = file.profiles[profile] ?? {}
  const [url, urlSource] = pick(flags.url, env.DN_URL, p.url)
  const [apiKey, keySource] = pick(flags.apiKey, env.DN_API_KEY, p.apiKey)
  const [simUrl, simSource] = pick(flags.simUrl, env.DN_SIM_URL, p.simUrl)
  return {
    url: (url ?? DEFAULT_URL).replace(/\/$/, ''),
    apiKey,
    simUrl: (simUrl ?? DEFAULT_SIM_URL).replace(/\/$/, ''),
    profile,
    configPath: path,
    wallet: p.wallet,
    sources: {
      url: urlSource === 'none' ? 'default' : urlSource,
      apiKey: keySource,
      simUrl: simSource === 'none' ? 'default' : simSource,
    },
  }
}
