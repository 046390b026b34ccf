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

/** Trainees the audience takes now: those in training (or extended) of every criterion it names. */
export async function traineesOf(tx: Tx, audience: Audience): Promise<string[]> {
  let q = tx
    .selectFrom('trainee')
    .select('id')
    .where('status', 'in', ['in_training', 'extended'] as const);
  if (audience.audienceTraineeTypeIds.length)
    q = q.where('trainee_type_id', 'in', [...audience.audienceTraineeTypeIds]);
  if (audience.audienceOrgIds.length) {
    const orgs = [...audience.audienceOrgIds];
    q = q.where((eb) => eb.or([eb('training_base_id', 'in', orgs), eb('specialty_base_id', 'in', orgs)]));
  }
  if (audience.audienceCohortYears.length) q = q.where('cohort_year', 'in', [...audience.audienceCohortYears]);
  return (await q.execute()).map((r) => String(r.id));
}
