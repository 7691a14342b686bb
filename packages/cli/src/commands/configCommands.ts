import type { Command } from 'commander'
import { cliContext } from '../cliContext.js'
import { saveProfile } from '../config/configFile.js'
import { UsageError } from '../errors/cliErrors.js'
import { details, emit } from '../output.js'
import { examples } from './commandKit.js'

const mask = (key: string | undefined) =>
  key ? `${key.slice(0, key.indexOf('.') + 1 || 12)}…` : undefined

const SETTABLE = ['url', 'apiKey', 'simUrl', 'wallet'] as const

export function registerConfigCommands(program: Command): void {
  const config = program
    .command('config')
    .description(
      'the config file: profiles of url, API key, simulator url, wallet',
    )
  config
    .command('show')
    .description('what the CLI would use now, and where each value comes from')
    .action((_f: unknown, cmd: Command) => {
      const { conn, json } = cliContext(cmd)
      const view = {
        profile: conn.profile,
        configPath: conn.configPath,
        url: conn.url,
        apiKey: mask(conn.apiKey) ?? null,
        simUrl: conn.simUrl,
        wallet: conn.wallet ?? null,
        sources: conn.sources,
      }
      emit(json, view, () =>
        details([
          ['profile', conn.profile],
          ['config file', conn.configPath],
          ['url', `${conn.url} (${conn.sources.url})`],
          [
            'api key',
            conn.apiKey
              ? `${mask(conn.apiKey)} (${conn.sources.apiKey})`
              : 'none',
          ],
          ['sim url', `${conn.simUrl} (${conn.sources.simUrl})`],
          ['wallet', conn.wallet ?? '-'],
        ]),
      )
    })
  config
    .command('set')
    .description("set one field of the profile (--profile, default 'default')")
    .argument('<field>', SETTABLE.join(', '))
    .argument('<value>')
    .addHelpText(
      'after',
      examples(['dn config set url https://dn.example.com --profile prod']),
    )
    .action((field: string, value: string, _f: unknown, cmd: Command) => {
      if (!(SETTABLE as readonly string[]).includes(field))
        throw new UsageError(
          `unknown field ${field}: use ${SETTABLE.join(', ')}`,
        )
      const { conn, json } = cliContext(cmd)
      saveProfile(conn.configPath, conn.profile, { [field]: value })
      emit(
        json,
        { profile: conn.profile, field },
        () => `${field} saved in ${conn.configPath} (profile ${conn.profile})`,
      )
    })
}
