import { sql } from 'kysely';
import type { Tx } from '../../core/tenancy';

/** Who a course or an activity is for: trainee types, training or specialty bases, cohorts (none: not narrowed). */
export interface Audience {
  audienceTraineeTypeIds: readonly string[];
  audienceOrgIds: readonly string[];
  audienceCohortYears: readonly number[];
}

export const AUDIENCE_FIELDS = ['audienceTraineeTypeIds', 'audienceOrgIds', 'audienceCohortYears'] as const;

/** An audience that names nobody in particular (no criterion): refused where it would take every trainee. */
export const namesNoOne = (audience: Audience) => AUDIENCE_FIELDS.every((key) => audience[key].length === 0);

/**
 * Trainees the audience takes now: those in training (or extended) of every criterion it names. An organisation
 * takes in its sub-organisations: a trainee of a base under a hospital named is in the audience.
 */
export async function traineesOf(tx: Tx, audience: Audience): Promise<string[]> {
  let q = tx
    .selectFrom('trainee')
    .select('id')
    .where('status', 'in', ['in_training', 'extended'] as const);
  if (audience.audienceTraineeTypeIds.length)
    q = q.where('trainee_type_id', 'in', [...audience.audienceTraineeTypeIds]);
  if (audience.audienceOrgIds.length) {
    const orgs = sql`(SELECT o.id FROM organization o JOIN organization named ON o.path LIKE named.path || '%'
      WHERE named.id = ANY(${[...audience.audienceOrgIds]}::bigint[]))`;
    q = q.where(sql<boolean>`(trainee.training_base_id IN ${orgs} OR trainee.specialty_base_id IN ${orgs})`);
  }
  if (audience.audienceCohortYears.length) q = q.where('cohort_year', 'in', [...audience.audienceCohortYears]);
  return (await q.execute()).map((r) => String(r.id));
}
