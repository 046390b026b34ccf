import { AppError } from '../../../core/errors';
import type { Tx } from '../../../core/tenancy';
import type { OwnerType } from './qualification.resource';

/**
 * Refuses to delete records (`ids`, of `ownerType`) that qualifications are filed under: the credentials would be left
 * with no holder, and a person's credentials are not deleted as a side effect.
 */
export async function refuseWhileFiled(tx: Tx, ownerType: OwnerType, ids: readonly string[]): Promise<void> {
  const filed = await tx
    .selectFrom('qualification')
    .select('id')
    .where('owner_type', '=', ownerType)
    .where('owner_id', 'in', [...ids])
    .executeTakeFirst();
  if (filed) throw new AppError('qualification.filedUnder');
}
