import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { UsageError } from '../errors/cliErrors.js'

/** What a profile can hold; every field is optional. */
export interface Profile {
  url?: string
  apiKey?: string
  simUrl?: string
  wallet?: string
}

interface ConfigFile {
  profiles: Record<string, Profile>
}

/**
 * `DN_CONFIG`, else `$XDG_CONFIG_HOME/dn/config.json`, else
 * `~/.config/dn/config.json` (as gh and kubectl keep theirs).
 */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DN_CONFIG) return env.DN_CONFIG
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config')
  return join(base, 'dn', 'config.json')
}

export function readConfigFile(path: string): ConfigFile {
  if (!existsSync(path)) return { profiles: {} }
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new UsageError(
      `config file ${path} is not JSON (${(err as Error).message}): fix or move it away`,
    )
  }
  const profiles = (parsed as { profiles?: unknown })?.profiles
  if (typeof profiles !== 'object' || profiles === null) {
    throw new UsageError(
      `config file ${path} has no "profiles" object: fix or move it away`,
    )
  }
  return { profiles: profiles as Record<string, Profile> }
}

/**
 * Merges `patch` into one profile and writes the file atomically, mode
 * 0600: it holds API key secrets.
 */
export function saveProfile(
  path: string,
  name: string,
  patch: Profile,
): ConfigFile {
  const file = readConfigFile(path)
  const next: ConfigFile = {
    profiles: {
      ...file.profiles,
      [name]: { ...file.profiles[name], ...patch },
    },
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 })
  chmodSync(tmp, 0o600)
  renameSync(tmp, path)
  return next
}
