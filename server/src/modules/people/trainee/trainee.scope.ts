import { invalidField } from '../../../core/errors';
import type { Tx } from '../../../core/tenancy';
import { dataScopeOf, inDataScope } from '../organization/data-scope';
import type { TraineeStatus } from './trainee.resource';

/** The organisations that bring a trainee within a data scope: their training base and their specialty base. */
export const TRAINEE_BASES = ['training_base_id', 'specialty_base_id'] as const;

/**
 * Refuses, on `traineeIds.N` (or `<field>.N`), the first of `ids` that is not a trainee within the viewer's data scope (of `statuses`,
 * when given): a list of trainees is taken whole or not at all.
 */
export async function refuseTraineesOutOfReach(
  tx: Tx,
  viewer: string,
  ids: readonly string[],
  reason: string,
  statuses?: readonly TraineeStatus[],
  field = 'traineeIds',
): Promise<void> {
  if (ids.length === 0) return;
  const scope = await dataScopeOf(tx, viewer);
  let query = tx
    .selectFrom('trainee')
    .select('id')
    .where('id', 'in', [...ids])
    .where(inDataScope(scope, TRAINEE_BASES, 'trainee'));
  if (statuses) query = query.where('status', 'in', [...statuses]);
  const found = new Set((await query.execute()).map((r) => String(r.id)));
  ids.forEach((id, i) => {
    if (!found.has(id)) throw invalidField(`${field}.${i}`, reason);
  });
}
