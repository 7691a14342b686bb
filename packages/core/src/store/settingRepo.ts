import type { SettingRepo } from '../ports/store.js'
import type { RepoScope } from './repoScope.js'

/**
 * A setting is written once: the first value stays (`ON CONFLICT DO
 * NOTHING`), and every caller reads back the one stored, so two
 * processes starting together agree on it.
 */
export function settingRepo(scope: RepoScope): SettingRepo {
  return {
    async claim(name, value) {
      await scope
        .db()
        .insertInto('settings')
        .values({ name, value })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute()
      const row = await scope
        .db()
        .selectFrom('settings')
        .select('value')
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
      return row.value
    },
  }
}
