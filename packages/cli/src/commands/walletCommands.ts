import {
  type BindingTarget,
  DnNetworkError,
  networkReason,
  type Venue,
} from '@dn/client'
import { type Command, InvalidArgumentError } from 'commander'
import { cliContext } from '../cliContext.js'
import { saveProfile } from '../config/configFile.js'
import { EXIT } from '../errors/exitCodes.js'
import { emit, statusLine, table } from '../output.js'
import { listArg, numberArg, venueArg } from '../parseArgs.js'
import {
  createWalletFile,
  DEFAULT_WALLET_FILE,
  loadWallet,
} from '../walletFile.js'
import { examples } from './commandKit.js'

/** `hl,aster,lighter:12` → binding targets. */
function bindingTarget(rebind: boolean) {
  return (item: string): BindingTarget => {
    const [venue, index] = item.split(':')
    const again = rebind ? { rebind } : {}
    if (venue === 'lighter' || venue === 'lighter-mainnet') {
      if (!index || !/^\d+$/.test(index)) {
        throw new InvalidArgumentError(
          `${venue} needs its account index: ${venue}:<accountIndex> (\`dn faucet\` shows it)`,
        )
      }
      return { venue, accountIndex: Number(index), ...again }
    }
    if (venue === 'hl' || venue === 'aster') return { venue, ...again }
    throw new InvalidArgumentError(
      `unknown venue ${venue}: use hl, aster, lighter:<index>, lighter-mainnet:<index>`,
    )
  }
}

const withWallet = (c: Command) =>
  c.option(
    '--wallet <file>',
    `wallet file (default ${DEFAULT_WALLET_FILE}; else DN_PRIVATE_KEY)`,
  )

/** The wallet a command signs with: flag, env, profile, default file. */
function signer(cmd: Command, flags: { wallet?: string }) {
  return loadWallet(flags.wallet, cliContext(cmd).conn.wallet).account
}

export function registerWalletCommands(program: Command): void {
  const wallet = program
    .command('wallet')
    .description('a development wallet for signing')
  wallet
    .command('new')
    .description('write a new wallet file (mode 0600)')
    .addHelpText(
      'after',
      examples(['dn wallet new', 'dn wallet new --file ~/dn-test-wallet.json']),
    )
    .option('--file <file>', 'where to write it', DEFAULT_WALLET_FILE)
    .action((flags: { file: string }, cmd: Command) => {
      const account = createWalletFile(flags.file)
      emit(
        cliContext(cmd).json,
        { address: account.address, file: flags.file },
        () => `wallet ${account.address} written to ${flags.file} (mode 0600)`,
      )
    })
  withWallet(wallet.command('show'))
    .description('the address the CLI signs with, and where its key comes from')
    .action((flags: { wallet?: string }, cmd: Command) => {
      const ctx = cliContext(cmd)
      const w = loadWallet(flags.wallet, ctx.conn.wallet)
      const from =
        w.source === 'env' ? 'DN_PRIVATE_KEY' : `${w.file} (${w.source})`
      emit(
        ctx.json,
        { address: w.account.address, source: w.source, file: w.file },
        () => `wallet ${w.account.address} from ${from}`,
      )
    })

  withWallet(program.command('bind'))
    .description(
      'bind venue accounts to your wallet: prepare, sign, submit, wait',
    )
    .requiredOption(
      '--venues <list>',
      'hl,aster,lighter:<accountIndex>,lighter-mainnet:<accountIndex>',
    )
    .option('--rebind', 'replace an unusable binding')
    .addHelpText(
      'after',
      examples([
        'dn bind --venues hl,aster,lighter:1',
        'dn bind --venues hl --rebind',
      ]),
    )
    .action(
      async (
        flags: { venues: string; rebind?: boolean; wallet?: string },
        cmd: Command,
      ) => {
        const targets = listArg(bindingTarget(flags.rebind ?? false))(
          flags.venues,
        )
        const { client, json } = cliContext(cmd)
        const line = statusLine()
        const batch = await client
          .bindVenues(signer(cmd, flags), targets, {
            onProgress: (b) =>
              line.update(
                `${b.status}: ${b.results.map((r) => `${r.venue} ${r.status}`).join(', ')}`,
              ),
          })
          .finally(() => line.done())
        emit(json, batch, () =>
          [
            table(
              batch.results.map((r) => ({ ...r, code: r.code ?? '' })),
              ['venue', 'status', 'code'],
            ),
            `binding ${batch.bindingId}: ${batch.status}${batch.status === 'bound' ? '; next: `dn keys create --venues … --max-size-usd … --save`' : ''}`,
          ].join('\n'),
        )
        if (batch.status !== 'bound') process.exitCode = EXIT.ended
      },
    )

  withWallet(program.command('bindings'))
    .description('the venue accounts your wallet has bound')
    .addHelpText(
      'after',
      examples(['dn bindings', 'dn bindings --wallet ~/w.json --json']),
    )
    .action(async (flags: { wallet?: string }, cmd: Command) => {
      const { client, json } = cliContext(cmd)
      const bindings = await client.listBindings(signer(cmd, flags))
      emit(json, { bindings }, () =>
        bindings.length === 0
          ? 'nothing bound yet: `dn bind --venues hl,aster`'
          : table(
              bindings.map((b) => ({
                VENUE: b.venue,
                STATUS: b.status,
                ACCOUNT: b.accountIndex ?? '',
                CREDENTIAL: b.credentialRef ?? '',
                PROBLEM: b.unusableCode ?? '',
                SINCE: b.updatedAt,
              })),
              ['VENUE', 'STATUS', 'ACCOUNT', 'CREDENTIAL', 'PROBLEM', 'SINCE'],
            ),
      )
    })

  const keys = program.command('keys').description('API keys of your wallet')
  withWallet(keys.command('create'))
    .description('create an API key (its secret is shown once)')
    .requiredOption(
      '--venues <list>',
      'venues it grants, e.g. hl,aster',
      listArg(venueArg),
    )
    .requiredOption(
      '--max-size-usd <usd>',
      'largest USD size per leg or order',
      numberArg(),
    )
    .option('--label <text>', 'a name for it')
    .option('--save', "save it (and --url) in the config file's profile")
    .addHelpText(
      'after',
      examples([
        'dn keys create --venues hl,aster --max-size-usd 5000 --label bot --save',
        'dn keys create --venues hl,lighter --max-size-usd 100 --profile prod --save',
      ]),
    )
    .action(
      async (
        flags: {
          venues: Venue[]
          maxSizeUsd: number
          label?: string
          save?: boolean
          wallet?: string
        },
        cmd: Command,
      ) => {
        const { client, json, conn } = cliContext(cmd)
        const created = await client.createApiKey(signer(cmd, flags), {
          venues: flags.venues,
          maxSizeUsd: flags.maxSizeUsd,
          ...(flags.label ? { label: flags.label } : {}),
        })
        if (flags.save) {
          saveProfile(conn.configPath, conn.profile, {
            url: conn.url,
            apiKey: created.apiKey,
          })
        }
        const saved = flags.save
          ? `; saved in ${conn.configPath} (profile ${conn.profile}): dn commands use it now`
          : '; keep it: pass --api-key, set DN_API_KEY, or create with --save'
        if (json) {
          emit(true, created, () => '')
          if (flags.save) process.stderr.write(`key ${created.keyId}${saved}\n`)
          return
        }
        process.stdout.write(`${created.apiKey}\n`)
        process.stderr.write(
          `key ${created.keyId} for ${created.venues.join(', ')} up to USD ${created.maxSizeUsd}; the secret is shown only now${saved}\n`,
        )
      },
    )
  withWallet(keys.command('list'))
    .description('list your API keys')
    .addHelpText('after', examples(['dn keys list', 'dn keys list --json']))
    .action(async (flags: { wallet?: string }, cmd: Command) => {
      const { client, json } = cliContext(cmd)
      const list = await client.listApiKeys(signer(cmd, flags))
      emit(json, { keys: list }, () =>
        table(
          list.map((k) => ({
            ...k,
            venues: k.venues.join(','),
            revokedAt: k.revokedAt ?? '',
          })),
          ['keyId', 'label', 'venues', 'maxSizeUsd', 'createdAt', 'revokedAt'],
        ),
      )
    })
  withWallet(keys.command('revoke'))
    .description('revoke an API key at once')
    .addHelpText(
      'after',
      examples(['dn keys revoke 2526683a-fce8-4550-a76d-4b16554e559b']),
    )
    .argument('<keyId>')
    .action(async (keyId: string, flags: { wallet?: string }, cmd: Command) => {
      const { client, json } = cliContext(cmd)
      const k = await client.revokeApiKey(signer(cmd, flags), keyId)
      emit(json, k, () => `revoked ${k.keyId}`)
    })

  withWallet(program.command('faucet'))
    .description('fund your wallet on the simulated venues of `dn up`')
    .addHelpText(
      'after',
      examples([
        'dn faucet',
        'dn faucet --venues hl,lighter --usd 5000 --json',
      ]),
    )
    .option(
      '--sim-url <url>',
      'the simulated venues (env DN_SIM_URL; default http://127.0.0.1:8081)',
    )
    .option('--venues <list>', 'venues', 'hl,aster,lighter,lighter-mainnet')
    .option('--usd <n>', 'collateral to add', numberArg(), 100_000)
    .action(
      async (
        flags: { venues: string; usd: number; wallet?: string },
        cmd: Command,
      ) => {
        const { conn, json } = cliContext(cmd)
        const owner = signer(cmd, flags).address
        const rows: {
          venue: string
          accountIndex: number | null
          usd: number
        }[] = []
        for (const venue of listArg(venueArg)(flags.venues)) {
          const res = await fetch(`${conn.simUrl}/faucet`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ venue, owner, collateralUsd: flags.usd }),
          }).catch((err: unknown) => {
            throw new DnNetworkError(
              {
                url: `${conn.simUrl}/faucet`,
                method: 'POST',
                reason: networkReason(err),
              },
              err,
            )
          })
          const body = (await res.json()) as {
            accountIndex?: number
            error?: string
          }
          if (!res.ok)
            throw new InvalidArgumentError(`faucet ${venue}: ${body.error}`)
          rows.push({
            venue,
            // only Lighter names accounts by index (what `dn bind` needs)
            accountIndex: venue.startsWith('lighter')
              ? (body.accountIndex ?? null)
              : null,
            usd: flags.usd,
          })
        }
        emit(json, rows, () =>
          table(
            rows.map((r) => ({ ...r, accountIndex: r.accountIndex ?? '' })),
            ['venue', 'accountIndex', 'usd'],
          ),
        )
      },
    )
}
