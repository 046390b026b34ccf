import type { ErrorKey } from '../../../core/error-codes';
import type { Tx } from '../../../core/tenancy';

/**
 * What keeps an organisation from being deleted besides its children (docs/domain.md §4.1: "delete blocked with
 * children, members or active trainees"). Each entry counts, in the delete's own transaction, the rows that still
 * point at any of `ids`; the first with a count refuses the delete with its error.
 *
 * Members (staff) and trainees have no table yet: the staff and trainee work adds its entry here, e.g.
 * `{ error: 'organization.hasMembers', count: (tx, ids) => countStaffIn(tx, ids) }` and
 * `{ error: 'organization.hasTrainees', count: (tx, ids) => countActiveTraineesIn(tx, ids) }`
 * (the error codes are already declared in core/error-codes.ts).
 */
export interface OrganizationDependent {
  error: ErrorKey;
  count(tx: Tx, ids: readonly string[]): Promise<number>;
}

export const organizationDependents: OrganizationDependent[] = [];

/** The error of the first dependent that still holds rows under `ids`, if any. */
export async function blockingDependent(
  tx: Tx,
  ids: readonly string[],
  dependents: readonly OrganizationDependent[] = organizationDependents,
): Promise<ErrorKey | undefined> {
  for (const dependent of dependents) if ((await dependent.count(tx, ids)) > 0) return dependent.error;
  return undefined;
}
