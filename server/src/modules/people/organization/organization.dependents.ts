import type { ErrorKey } from '../../../core/error-codes';
import type { Tx } from '../../../core/tenancy';

/**
 * What keeps an organisation from being deleted besides its children (docs/domain.md §4.1: "delete blocked with
 * children, members or active trainees"). Each entry counts, in the delete's own transaction, the rows that still
 * point at any of `ids`; the first with a count refuses the delete with its error. A trainee of any status keeps its
 * training base (its record names it for good); a specialty base is left empty when deleted.
 *
 * Members (staff) have no table yet: the staff work adds its entry here,
 * `{ error: 'organization.hasMembers', count: (tx, ids) => countStaffIn(tx, ids) }`.
 */
export interface OrganizationDependent {
  error: ErrorKey;
  count(tx: Tx, ids: readonly string[]): Promise<number>;
}

export const organizationDependents: OrganizationDependent[] = [
  {
    error: 'organization.hasTrainees',
    count: async (tx, ids) => {
      const row = await tx
        .selectFrom('trainee')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('training_base_id', 'in', ids)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  },
];

/** The error of the first dependent that still holds rows under `ids`, if any. */
export async function blockingDependent(
  tx: Tx,
  ids: readonly string[],
  dependents: readonly OrganizationDependent[] = organizationDependents,
): Promise<ErrorKey | undefined> {
  for (const dependent of dependents) if ((await dependent.count(tx, ids)) > 0) return dependent.error;
  return undefined;
}
