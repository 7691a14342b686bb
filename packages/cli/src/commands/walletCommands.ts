import { type BindingTarget, createDnClient, DnApiError } from '@dn/client'
import type { Command } from 'commander'
import { statusLine, table } from '../output.js'
import {
  createWalletFile,
  DEFAULT_WALLET_FILE,
  loadWallet,
} from '../walletFile.js'

interface ClientFlags {
  url: string
  wallet?: string
  json?: boolean
}

function client(flags: ClientFlags) {
  return createDnClient({
    baseUrl: flags.url,
    ...(process.env.BINDING_AUTH_DOMAIN
      ? { authDomain: process.env.BINDING_AUTH_DOMAIN }
      : {}),
  })
}

/** `hl,aster,lighter:12` → binding targets. */
function parseTargets(list: string, rebind: boolean): BindingTarget[] {
  return list.split(',').map((item) => {
    const [venue, index] = item.trim().split(':')
    if (venue === 'lighter' || venue === 'lighter-mainnet') {
      if (!index || !/^\d+$/.test(index)) {
        throw new RangeError(
          `${venue} needs its account index: ${venue}:<accountIndex>`,
        )
      }
      return {
        venue,
        accountIndex: Number(index),
        ...(rebind ? { rebind } : {}),
      }
    }
    if (venue === 'hl' || venue === 'aster')
      return { venue, ...(rebind ? { rebind } : {}) }
    throw new RangeError(
      `unknown venue ${venue}: use hl, aster, lighter:<index>, lighter-mainnet:<index>`,
    )
  })
}

function explain(err: unknown): never {
  if (err instanceof DnApiError) {
    throw new RangeError(`${err.message} (${err.code}, HTTP ${err.status})`)
  }
  throw err
}

const withUrl = (c: Command) =>
  c
    .option(
      '--url <url>',
      'service URL',
      process.env.DN_URL ?? 'http://127.0.0.1:8080',
    )
    .option(
      '--wallet <file>',
      `wallet file (default ${DEFAULT_WALLET_FILE}; DN_PRIVATE_KEY wins)`,
    )
    .option('--json', 'print JSON')

export function registerWalletCommands(program: Command): void {
  const wallet = program
    .command('wallet')
    .description('a development wallet for signing')
  wallet
    .command('new')
    .description('write a new wallet file (mode 0600)')
    .option('--file <file>', 'where to write it', DEFAULT_WALLET_FILE)
    .action((flags: { file: string }) => {
      const account = createWalletFile(flags.file)
      process.stdout.write(
        `wallet ${account.address} written to ${flags.file} (mode 0600)\n`,
      )
    })

  withUrl(program.command('bind'))
    .description(
      'bind venue accounts to your wallet: prepare, sign, submit, wait',
    )
    .requiredOption(
      '--venues <list>',
      'hl,aster,lighter:<accountIndex>,lighter-mainnet:<accountIndex>',
    )
    .option('--rebind', 'replace an unusable binding')
    .action(
      async (flags: ClientFlags & { venues: string; rebind?: boolean }) => {
        const signer = loadWallet(flags.wallet)
        const line = statusLine()
        const batch = await client(flags)
          .bindVenues(
            signer,
            parseTargets(flags.venues, flags.rebind ?? false),
            {
              onProgress: (b) =>
                line.update(
                  `${b.status}: ${b.results.map((r) => `${r.venue} ${r.status}`).join(', ')}`,
                ),
            },
          )
          .catch(explain)
        line.done()
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(batch)}\n`)
          return
        }
        process.stdout.write(
          `${table(
            batch.results.map((r) => ({ ...r, code: r.code ?? '' })),
            ['venue', 'status', 'code'],
          )}\n`,
        )
        process.stdout.write(`binding ${batch.bindingId}: ${batch.status}\n`)
        if (batch.status !== 'bound') process.exitCode = 2
      },
    )

  const keys = program.command('keys').description('API keys of your wallet')
  withUrl(keys.command('create'))
    .description('create an API key (shown once)')
    .requiredOption('--venues <list>', 'venues it grants, e.g. hl,aster')
    .requiredOption('--max-size-usd <n>', 'largest USD size per leg or order')
    .option('--label <text>', 'a name for it')
    .action(
      async (
        flags: ClientFlags & {
          venues: string
          maxSizeUsd: string
          label?: string
        },
      ) => {
        const signer = loadWallet(flags.wallet)
        const created = await client(flags)
          .createApiKey(signer, {
            venues: flags.venues.split(',').map((v) => v.trim()) as never,
            maxSizeUsd: Number(flags.maxSizeUsd),
            ...(flags.label ? { label: flags.label } : {}),
          })
          .catch(explain)
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(created)}\n`)
          return
        }
        process.stdout.write(`${created.apiKey}\n`)
        process.stderr.write(
          `key ${created.keyId} for ${created.venues.join(', ')} up to USD ${created.maxSizeUsd}; the secret is shown only now\n`,
        )
      },
    )
  withUrl(keys.command('list'))
    .description('list your API keys')
    .action(async (flags: ClientFlags) => {
      const list = await client(flags)
        .listApiKeys(loadWallet(flags.wallet))
        .catch(explain)
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(list)}\n`)
        return
      }
      const rows = list.map((k) => ({
        ...k,
        venues: k.venues.join(','),
        revokedAt: k.revokedAt ?? '',
      }))
      process.stdout.write(
        `${table(rows, ['keyId', 'label', 'venues', 'maxSizeUsd', 'createdAt', 'revokedAt'])}\n`,
      )
    })
  withUrl(keys.command('revoke'))
    .description('revoke an API key at once')
    .argument('<keyId>')
    .action(async (keyId: string, flags: ClientFlags) => {
      const k = await client(flags)
        .revokeApiKey(loadWallet(flags.wallet), keyId)
        .catch(explain)
      process.stdout.write(
        flags.json ? `${JSON.stringify(k)}\n` : `revoked ${k.keyId}\n`,
      )
    })

  withUrl(program.command('faucet'))
    .description('fund your wallet on the simulated venues of `dn up`')
    .option(
      '--sim-url <url>',
      'simulated venues',
      process.env.DN_SIM_URL ?? 'http://127.0.0.1:8081',
    )
    .option('--venues <list>', 'venues', 'hl,aster,lighter,lighter-mainnet')
    .option('--usd <n>', 'collateral to add', '100000')
    .action(
      async (
        flags: ClientFlags & { simUrl: string; venues: string; usd: string },
      ) => {
        const owner = loadWallet(flags.wallet).address
        const rows = []
        for (const venue of flags.venues.split(',')) {
          const res = await fetch(`${flags.simUrl}/faucet`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              venue: venue.trim(),
              owner,
              collateralUsd: Number(flags.usd),
            }),
          })
          const body = (await res.json()) as {
            accountIndex?: number
            error?: string
          }
          if (!res.ok) throw new RangeError(`faucet ${venue}: ${body.error}`)
          rows.push({
            venue: venue.trim(),
            accountIndex: body.accountIndex,
            usd: flags.usd,
          })
        }
        process.stdout.write(
          flags.json
            ? `${JSON.stringify(rows)}\n`
            : `${table(rows, ['venue', 'accountIndex', 'usd'])}\n`,
        )
      },
    )
}
