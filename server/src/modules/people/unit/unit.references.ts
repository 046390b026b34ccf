import type { Tx } from '../../../core/tenancy';

/**
 * What points at a unit (docs/domain.md §4.2: trainees sent by it, doctors and experts working there). Merging
 * duplicates moves every reference from the merged units to the one kept, in the merge's own transaction.
 */
export interface UnitReference {
  table: string;
  repoint(tx: Tx, from: readonly string[], to: string): Promise<unknown>;
}

/** The rows of `table` whose `column` names one of the merged units, moved to the one kept. */
const repointing = (table: 'trainee' | 'doctor' | 'expert', column: string): UnitReference => ({
  table,
  repoint: (tx, from, to) =>
    tx
      .updateTable(table)
      .set({ [column]: to } as never)
      .where(column as never, 'in', [...from] as never)
      .execute(),
});

export const unitReferences: UnitReference[] = [
  repointing('trainee', 'work_unit_id'),
  repointing('doctor', 'unit_id'),
  repointing('expert', 'unit_id'),
];
