import type { ErrorKey } from '../../../core/error-codes';
import type { Tx } from '../../../core/tenancy';

/**
 * What keeps an organisation from being deleted besides its children (docs/domain.md §4.1: "delete blocked with
 * children, members or active trainees"). Each entry counts, in the delete's own transaction, the rows that still
 * point at any of `ids`; the first with a count refuses the delete with its error. A trainee of any status keeps its
 * training base (its record names it for good); a specialty base is left empty when deleted.
 */
export interface OrganizationDependent {
  error: ErrorKey;
  count(tx: Tx, ids: readonly string[]): Promise<number>;
}

/** How many rows of `table` name one of `ids` in `column`. */
const counting =
  (table: 'trainee' | 'staff' | 'doctor' | 'expert', column: string) =>
  async (tx: Tx, ids: readonly string[]): Promise<number> => {
    const row = await tx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where(column as never, 'in', [...ids] as never)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };

export const organizationDependents: OrganizationDependent[] = [
  { error: 'organization.hasMembers', count: counting('staff', 'org_id') },
  { error: 'organization.hasDoctors', count: counting('doctor', 'org_id') },
  { error: 'organization.hasExperts', count: counting('expert', 'org_id') },
  { error: 'organization.hasTrainees', count: counting('trainee', 'training_base_id') },
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
