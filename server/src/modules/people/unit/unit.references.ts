import type { Tx } from '../../../core/tenancy';

/**
 * What points at a unit (docs/domain.md §4.2: trainees sent by it, doctors and experts working there). Merging
 * duplicates moves every reference from the merged units to the one kept, in the merge's own transaction.
 */
export interface UnitReference {
  table: string;
  repoint(tx: Tx, from: readonly string[], to: string): Promise<unknown>;
}

export const unitReferences: UnitReference[] = [
  {
    table: 'trainee',
    repoint: (tx, from, to) =>
      tx
        .updateTable('trainee')
        .set({ work_unit_id: to })
        .where('work_unit_id', 'in', [...from])
        .execute(),
  },
  {
    table: 'doctor',
    repoint: (tx, from, to) =>
      tx
        .updateTable('doctor')
        .set({ unit_id: to })
        .where('unit_id', 'in', [...from])
        .execute(),
  },
];
