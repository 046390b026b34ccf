import { invalidField } from '../../../core/errors';
import type { Tx } from '../../../core/tenancy';

/**
 * A record that names an organisation of the tenant (the library or course owning it): refused on `field`, with the
 * caller's `message`, when there is no such organisation.
 */
export async function checkOrganization(tx: Tx, field: string, id: string, message: string): Promise<void> {
  const org = await tx.selectFrom('organization').select('id').where('id', '=', id).executeTakeFirst();
  if (!org) throw invalidField(field, message);
}
