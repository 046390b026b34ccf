import type { Jobs } from '../../../core/jobs';
import type { Tx } from '../../../core/tenancy';
import { notify } from '../../message/message/outbox';
import type { CaseAction, ReportCase } from './report.resource';

/**
 * Tells the reporters of a case how it was handled (business item `post.report.resolved`), in the transaction that
 * records the outcome: console users in their inbox, trainees as trainees, doctors and staff as their person.
 */
export async function notifyReportOutcome(tx: Tx, jobs: Jobs, handled: ReportCase, _action: CaseAction): Promise<void> {
  const reporters = await tx
    .selectFrom('report')
    .select(['reporter_type', 'reporter_id'])
    .where('case_id', '=', handled.id)
    .execute();
  const of = (type: string) => reporters.filter((r) => r.reporter_type === type).map((r) => String(r.reporter_id));
  const people = [
    ...(of('doctor').length
      ? await tx.selectFrom('doctor').select('person_id').where('id', 'in', of('doctor')).execute()
      : []),
    ...(of('staff').length
      ? await tx.selectFrom('staff').select('person_id').where('id', 'in', of('staff')).execute()
      : []),
  ].map((r) => String(r.person_id));
  const snapshot = handled.targetSnapshot;
  await notify(tx, jobs, {
    businessItemCode: 'post.report.resolved',
    params: { postTitle: snapshot.title ?? snapshot.excerpt ?? snapshot.authorName ?? '' },
    bizRef: { type: 'report_case', id: handled.id },
    to: [
      { type: 'admin_user', ids: of('admin') },
      { type: 'trainee', ids: of('trainee') },
      { type: 'person', ids: people },
    ],
  });
}
