import { type Kysely, type Migration, sql } from 'kysely'
import type { DialectColumnTypes } from './dialectSpec.js'

/**
 * The store's one migration set, for both dialects; only column types come
 * from the dialect. Append new migrations, never edit a released one.
 */
export function migrations(
  types: DialectColumnTypes,
): Record<string, Migration> {
  return {
    '0001_initial': {
      up: (db: Kysely<unknown>) => createInitialSchema(db, types),
      down: dropInitialSchema,
    },
    '0002_worker': {
      up: (db: Kysely<unknown>) => addWorkerSchema(db, types),
      down: dropWorkerSchema,
    },
    '0003_binding_batches': {
      up: (db: Kysely<unknown>) => addBindingBatchSchema(db, types),
      down: dropBindingBatchSchema,
    },
    '0004_counters': {
      up: (db: Kysely<unknown>) =>
        db.schema
          .createTable('counters')
          .addColumn('name', 'text', (c) => c.primaryKey())
          // the same 64-bit integer type as timestamps: nonces are ms times
          .addColumn('value', types.micros, (c) => c.notNull())
          .execute(),
      down: (db: Kysely<unknown>) =>
        db.schema.dropTable('counters').ifExists().execute(),
    },
    '0005_venue_budgets': {
      up: (db: Kysely<unknown>) =>
        db.schema
          .createTable('venue_budgets')
          .addColumn('bucket', 'text', (c) => c.primaryKey())
          .addColumn('entries', 'text', (c) => c.notNull())
          .execute(),
      down: (db: Kysely<unknown>) =>
        db.schema.dropTable('venue_budgets').ifExists().execute(),
    },
    // why a binding is unusable (a credential that no longer decrypts),
    // so every order and task on it can say so and how to repair it
    '0006_binding_unusable_code': {
      up: (db: Kysely<unknown>) =>
        db.schema
          .alterTable('venue_bindings')
          .addColumn('unusable_code', 'text')
          .execute(),
      down: (db: Kysely<unknown>) =>
        db.schema
          .alterTable('venue_bindings')
          .dropColumn('unusable_code')
          .execute(),
    },
    // the deployment's own facts (the master key's fingerprint): a process
    // started with another key is stopped before it misreads credentials
    '0007_settings': {
      up: (db: Kysely<unknown>) =>
        db.schema
          .createTable('settings')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute(),
      down: (db: Kysely<unknown>) =>
        db.schema.dropTable('settings').ifExists().execute(),
    },
    // where a worker runs, so a process on the same machine can tell that
    // its predecessor is gone and take its leases over at once
    '0007_worker_process': {
      up: async (db: Kysely<unknown>) => {
        await db.schema
          .alterTable('workers')
          .addColumn('host', 'text')
          .execute()
        await db.schema
          .alterTable('workers')
          .addColumn('pid', 'integer')
          .execute()
      },
      down: async (db: Kysely<unknown>) => {
        await db.schema.alterTable('workers').dropColumn('pid').execute()
        await db.schema.alterTable('workers').dropColumn('host').execute()
      },
    },
    // each bound account's latest positions and balance, as a worker read
    // them: the API serves them without a venue call
    '0008_account_snapshots': {
      up: (db: Kysely<unknown>) =>
        db.schema
          .createTable('account_snapshots')
          .addColumn('owner', 'text', (c) => c.notNull())
          .addColumn('venue', 'text', (c) => c.notNull())
          .addColumn('account', 'text', (c) => c.notNull())
          .addColumn('positions', 'text', (c) => c.notNull())
          .addColumn('read_at', types.micros, (c) => c.notNull())
          .addColumn('balance', 'text')
          .addColumn('balance_read_at', types.micros)
          .addPrimaryKeyConstraint('account_snapshots_pkey', [
            'owner',
            'venue',
            'account',
          ])
          .execute(),
      down: (db: Kysely<unknown>) =>
        db.schema.dropTable('account_snapshots').ifExists().execute(),
    },
    // running tasks' funding and PnL over time, sampled by the monitor at
    // most once a slot per task (the dashboard's charts, the history route)
    '0009_task_samples': {
      up: async (db: Kysely<unknown>) => {
        await db.schema
          .createTable('task_samples')
          .addColumn('task_id', 'text', (c) => c.notNull())
          .addColumn('slot_at', types.micros, (c) => c.notNull())
          .addColumn('at', types.micros, (c) => c.notNull())
          .addColumn('funding_usd', types.decimal, (c) => c.notNull())
          .addColumn('pnl_total_usd', types.decimal, (c) => c.notNull())
          .addColumn('unrealized_usd', types.decimal, (c) => c.notNull())
          .addColumn('fees_usd', types.decimal, (c) => c.notNull())
          .addColumn('funding_apy', types.decimal)
          .addColumn('long_price', types.decimal)
          .addColumn('short_price', types.decimal)
          .addColumn('long_liq_pct', types.decimal)
          .addColumn('short_liq_pct', types.decimal)
          .addPrimaryKeyConstraint('task_samples_pkey', ['task_id', 'slot_at'])
          .execute()
        await db.schema
          .createIndex('task_samples_task_at_idx')
          .on('task_samples')
          .columns(['task_id', 'at'])
          .execute()
      },
      down: (db: Kysely<unknown>) =>
        db.schema.dropTable('task_samples').ifExists().execute(),
    },
    // a claim skips an order whose account market has another order
    // leased: the leased orders of an account market, few at any time
    '0010_perp_orders_leased': {
      up: createLeasedOrdersIndex,
      down: dropLeasedOrdersIndex,
    },
    // the rule 0010 served was withdrawn (a sibling failing each time held
    // its market's queue): the index only cost writes
    '0011_drop_perp_orders_leased': {
      up: dropLeasedOrdersIndex,
      down: createLeasedOrdersIndex,
    },
    // a direct order's send deadline, as each venue's window makes it
    // (rows from before keep submitted_at + 15 s, what they were signed with)
    '0012_perp_orders_send_by': {
      up: (db: Kysely<unknown>) =>
        db.schema
          .alterTable('perp_orders')
          .addColumn('send_by', types.micros)
          .execute(),
      down: (db: Kysely<unknown>) =>
        db.schema.alterTable('perp_orders').dropColumn('send_by').execute(),
    },
  }
}

async function createInitialSchema(
  db: Kysely<unknown>,
  t: DialectColumnTypes,
): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('env', 'text', (c) => c.notNull())
    .addColumn('venues', 'text', (c) => c.notNull())
    .addColumn('max_size_usd', t.decimal, (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', t.micros, (c) => c.notNull())
    .addColumn('revoked_at', t.micros)
    .execute()
  await db.schema
    .createIndex('api_keys_owner_env_idx')
    .on('api_keys')
    .columns(['owner', 'env', 'created_at'])
    .execute()

  await db.schema
    .createTable('venue_bindings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('venue', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('account_index', 'text')
    .addColumn('credential_ref', 'text')
    .addColumn('credential_ciphertext', 'text')
    .addColumn('created_at', t.micros, (c) => c.notNull())
    .addColumn('updated_at', t.micros, (c) => c.notNull())
    .addUniqueConstraint('venue_bindings_owner_venue_key', ['owner', 'venue'])
    .execute()

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('long_venue', 'text', (c) => c.notNull())
    .addColumn('short_venue', 'text', (c) => c.notNull())
    .addColumn('long_market', 'text', (c) => c.notNull())
    .addColumn('short_market', 'text', (c) => c.notNull())
    .addColumn('size_usd', t.decimal, (c) => c.notNull())
    .addColumn('min_funding_apy', t.decimal, (c) => c.notNull())
    .addColumn('auto_close', t.bool, (c) => c.notNull())
    .addColumn('max_spread_bps', t.decimal)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('long_size', t.decimal)
    .addColumn('short_size', t.decimal)
    .addColumn('long_entry', t.decimal)
    .addColumn('short_entry', t.decimal)
    .addColumn('long_price', t.decimal)
    .addColumn('short_price', t.decimal)
    .addColumn('long_leverage', t.decimal)
    .addColumn('short_leverage', t.decimal)
    .addColumn('liq_protection_pct', t.decimal)
    .addColumn('size_mismatch_pct', t.decimal)
    .addColumn('funding_usd', t.decimal, (c) => c.notNull())
    .addColumn('long_margin_mode', 'text')
    .addColumn('short_margin_mode', 'text')
    .addColumn('close_reason', 'text')
    .addColumn('error', 'text')
    .addColumn('close_requested_at', t.micros)
    .addColumn('resize_request', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.micros)
    .addColumn('fence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.micros, (c) => c.notNull())
    .addColumn('updated_at', t.micros, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('tasks_owner_updated_idx')
    .on('tasks')
    .columns(['owner', 'updated_at', 'id'])
    .execute()
  await db.schema
    .createIndex('tasks_status_idx')
    .on('tasks')
    .column('status')
    .execute()

  await db.schema
    .createTable('perp_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('venue', 'text', (c) => c.notNull())
    .addColumn('market', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('order_type', 'text', (c) => c.notNull())
    .addColumn('size_base', t.decimal, (c) => c.notNull())
    .addColumn('requested_limit_price', t.decimal)
    .addColumn('limit_price', t.decimal)
    .addColumn('time_in_force', 'text', (c) => c.notNull())
    .addColumn('slippage_bps', 'integer', (c) => c.notNull())
    .addColumn('reduce_only', t.bool, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_base', t.decimal)
    .addColumn('filled_base', t.decimal, (c) => c.notNull())
    .addColumn('average_price', t.decimal)
    .addColumn('client_order_id', 'text', (c) => c.notNull().unique())
    .addColumn('venue_order_id', 'text')
    .addColumn('venue_status', 'text')
    .addColumn('error', 'text')
    .addColumn('cancel_requested_at', t.micros)
    .addColumn('submitted_at', t.micros)
    .addColumn('observed_at', t.micros)
    .addColumn('expires_at', t.micros, (c) => c.notNull())
    .addColumn('resolution', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.micros)
    .addColumn('fence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.micros, (c) => c.notNull())
    .addColumn('updated_at', t.micros, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('perp_orders_owner_updated_idx')
    .on('perp_orders')
    .columns(['owner', 'updated_at', 'id'])
    .execute()
  await db.schema
    .createIndex('perp_orders_status_idx')
    .on('perp_orders')
    .column('status')
    .execute()

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', t.micros, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['scope', 'key'])
    .execute()

  await db.schema
    .createTable('request_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('order_id', 'text')
    .addColumn('http_status', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('replayed', t.bool, (c) => c.notNull())
    .addColumn('created_at', t.micros, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('request_logs_key_family_created_idx')
    .on('request_logs')
    .columns(['api_key_id', 'family', 'created_at'])
    .execute()

  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('wallet_nonces')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('used_at', t.micros, (c) => c.notNull())
    .addPrimaryKeyConstraint('wallet_nonces_pkey', ['owner', 'nonce'])
    .execute()

  await db.schema
    .createTable('workers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', t.micros, (c) => c.notNull())
    .addColumn('heartbeat_at', t.micros, (c) => c.notNull())
    .addColumn('fenced_at', t.micros)
    .execute()
}

async function dropInitialSchema(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'workers',
    'wallet_nonces',
    'rate_limits',
    'request_logs',
    'idempotency_keys',
    'perp_orders',
    'tasks',
    'venue_bindings',
    'api_keys',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}

/** Tables whose rows workers claim. */
const CLAIMED_TABLES = ['tasks', 'perp_orders'] as const

/**
 * What the worker needs: `next_check_at` on claimed rows with an index for
 * the due-row scan (status, then time), the task's engine state, and named
 * locks.
 */
async function addWorkerSchema(
  db: Kysely<unknown>,
  t: DialectColumnTypes,
): Promise<void> {
  for (const table of CLAIMED_TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('next_check_at', t.micros)
      .execute()
    await db.schema
      .createIndex(`${table}_claim_idx`)
      .on(table)
      .columns(['status', 'next_check_at'])
      .execute()
  }
  await db.schema
    .alterTable('tasks')
    .addColumn('engine_state', 'text')
    .execute()
  await db.schema
    .createTable('locks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.micros, (c) => c.notNull())
    .execute()
}

async function dropWorkerSchema(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('locks').ifExists().execute()
  await db.schema.alterTable('tasks').dropColumn('engine_state').execute()
  for (const table of CLAIMED_TABLES) {
    await db.schema.dropIndex(`${table}_claim_idx`).ifExists().execute()
    await db.schema.alterTable(table).dropColumn('next_check_at').execute()
  }
}

/**
 * Venue-binding batches: one row per signed prepare, unique per (owner,
 * nonce), counted per owner by creation time for the prepare limit, and
 * claimed by workers like tasks and orders.
 */
async function addBindingBatchSchema(
  db: Kysely<unknown>,
  t: DialectColumnTypes,
): Promise<void> {
  await db.schema
    .createTable('binding_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.micros, (c) => c.notNull())
    .addColumn('venues', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.micros)
    .addColumn('fence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_check_at', t.micros)
    .addColumn('created_at', t.micros, (c) => c.notNull())
    .addColumn('updated_at', t.micros, (c) => c.notNull())
    .addUniqueConstraint('binding_batches_owner_nonce_key', ['owner', 'nonce'])
    .execute()
  await db.schema
    .createIndex('binding_batches_owner_created_idx')
    .on('binding_batches')
    .columns(['owner', 'created_at'])
    .execute()
  await db.schema
    .createIndex('binding_batches_claim_idx')
    .on('binding_batches')
    .columns(['status', 'next_check_at'])
    .execute()
}

async function dropBindingBatchSchema(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('binding_batches').ifExists().execute()
}

/** Migration 0010's index (dropped again by 0011). */
function createLeasedOrdersIndex(db: Kysely<unknown>): Promise<void> {
  return db.schema
    .createIndex('perp_orders_leased_idx')
    .on('perp_orders')
    .columns(['owner', 'venue', 'market'])
    .where(sql.ref('lease_owner'), 'is not', null)
    .execute()
}

function dropLeasedOrdersIndex(db: Kysely<unknown>): Promise<void> {
  return db.schema.dropIndex('perp_orders_leased_idx').ifExists().execute()
}
