import { CHANGE_COUNTERS, type ChangeKind } from './changeWatch.js'
import { counterRepo } from './counterRepo.js'
import type { RepoScope } from './repoScope.js'

/**
 * Records a change of `kind` made by the statement just run, inside its
 * transaction (`scope.atomic`): the counter SQLite's marks read, and the
 * notification PostgreSQL's marks listen for.
 * @internal
 */
export async function recordChange(
  scope: RepoScope,
  kind: ChangeKind,
): Promise<void> {
  await counterRepo(scope).next(CHANGE_COUNTERS[kind], 1)
  await scope.changed(kind)
}
