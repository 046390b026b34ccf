import type { Tx } from '../tenancy';
import { holdsImportJob } from './import-job.repository';

/**
 * An import run and the instance that may take its job over (issue 31). A run names its instance (`owner`); another
 * instance that thought it gone makes itself the job's owner under the job's row lock, then undoes what it finds
 * written. So every transaction of a run that writes rows or ends the job checks, last, that the job is still its
 * owner's, taking the same row lock, held until it commits: the taker either comes first (the check fails and the
 * transaction is rolled back, its rows with it) or waits until the rows are committed (and its undo sees them).
 */

/** Another instance took the job over: this run stops, and neither undoes nor ends the job, which is that one's now. */
export class TakenOver extends Error {}

/** The run of a job, and the instance running it (none: a run no other instance may take over). */
export interface HeldJob {
  id: string;
  owner?: string;
}

/** Whether the job is still the run's; its row stays locked until the transaction ends. */
export const stillHeld = async (tx: Tx, job: HeldJob): Promise<boolean> =>
  !job.owner || (await holdsImportJob(tx, job.id, job.owner));

/** Throws TakenOver, rolling the transaction back, unless the job is still the run's. */
export async function keepHold(tx: Tx, job: HeldJob): Promise<void> {
  if (!(await stillHeld(tx, job))) throw new TakenOver();
}
