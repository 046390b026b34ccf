import { type RawBuilder, sql } from 'kysely';
import type { Audience } from './batch.resource';
import type { RecipientType } from './message.resource';

/** The variables every recipient brings of its own (the rest come from the batch or the event). */
export const RECIPIENT_VARIABLES = ['name'] as const;

/**
 * People named one by one (a business event's recipients, a test send): console users, trainees, or people by their
 * person record (an expert's, a doctor's), who are sent to as their console account when their staff record has one.
 */
export interface Named {
  type: RecipientType;
  ids: readonly string[];
}

const ids = (list: readonly string[]) => sql`${list.length ? [...list] : []}::bigint[]`;

/**
 * The recipients as rows `(recipient_type, recipient_id, name, email, mobile, person_type, person_id)`: console users
 * (named, by role, by organisation; enabled) and trainees (named, or in training of every criterion given), each once;
 * or the people of several named groups at once (a business event's recipients of each kind).
 * `person_type`/`person_id` is whom a WeChat follower is bound to (a trainee, or the staff record of a user).
 */
export function recipientsOf(audience: Audience | Named | readonly Named[]): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  const users = (where: RawBuilder<unknown>) =>
    sql`SELECT 'admin_user'::text AS recipient_type, u.id AS recipient_id, u.display_name AS name, u.email, u.mobile,
        'staff'::text AS person_type, u.staff_id AS person_id
      FROM admin_user u WHERE u.status = 'enabled' AND (${where})`;
  const trainees = (where: RawBuilder<unknown>) =>
    sql`SELECT 'trainee'::text AS recipient_type, t.id AS recipient_id, p.name, p.email, p.mobile,
        'trainee'::text AS person_type, t.id AS person_id
      FROM trainee t JOIN person p ON p.tenant_id = t.tenant_id AND p.id = t.person_id WHERE ${where}`;
  const groups = Array.isArray(audience)
    ? (audience as readonly Named[])
    : 'type' in audience
      ? [audience as Named]
      : undefined;
  if (groups) {
    for (const group of groups) {
      const named = ids(group.ids);
      if (group.ids.length)
        parts.push(
          group.type === 'admin_user'
            ? users(sql`u.id = ANY(${named})`)
            : group.type === 'trainee'
              ? trainees(sql`t.id = ANY(${named})`)
              : sql`SELECT CASE WHEN u.id IS NULL THEN 'person' ELSE 'admin_user' END AS recipient_type,
                COALESCE(u.id, p.id) AS recipient_id, p.name, COALESCE(u.email, p.email) AS email,
                COALESCE(u.mobile, p.mobile) AS mobile, 'staff'::text AS person_type, s.id AS person_id
              FROM person p
                LEFT JOIN staff s ON s.tenant_id = p.tenant_id AND s.person_id = p.id
                LEFT JOIN admin_user u ON u.id = s.admin_user_id AND u.status = 'enabled'
              WHERE p.id = ANY(${named})`,
        );
    }
  } else {
    const given = audience as Audience;
    const who: RawBuilder<unknown>[] = [];
    if (given.userIds.length) who.push(sql`u.id = ANY(${ids(given.userIds)})`);
    if (given.roleIds.length)
      who.push(sql`u.id IN (SELECT ur.user_id FROM user_role ur WHERE ur.role_id = ANY(${ids(given.roleIds)}))`);
    if (given.userOrgIds.length) who.push(sql`u.org_id = ANY(${ids(given.userOrgIds)})`);
    if (who.length) parts.push(users(sql.join(who, sql` OR `)));

    if (given.traineeIds.length) parts.push(trainees(sql`t.id = ANY(${ids(given.traineeIds)})`));
    const criteria: RawBuilder<unknown>[] = [];
    if (given.traineeTypeIds.length) criteria.push(sql`t.trainee_type_id = ANY(${ids(given.traineeTypeIds)})`);
    if (given.traineeOrgIds.length) {
      const orgs = ids(given.traineeOrgIds);
      criteria.push(sql`(t.training_base_id = ANY(${orgs}) OR t.specialty_base_id = ANY(${orgs}))`);
    }
    if (given.cohortYears.length) criteria.push(sql`t.cohort_year = ANY(${[...given.cohortYears]}::smallint[])`);
    if (criteria.length)
      parts.push(trainees(sql.join([sql`t.status IN ('in_training', 'extended')`, ...criteria], sql` AND `)));
  }
  if (parts.length === 0)
    return sql`SELECT NULL::text AS recipient_type, NULL::bigint AS recipient_id, NULL::text AS name, NULL::text AS email,
      NULL::text AS mobile, NULL::text AS person_type, NULL::bigint AS person_id WHERE false`;
  return sql.join(parts, sql` UNION `);
}
