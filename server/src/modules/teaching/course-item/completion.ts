import { sql } from 'kysely';
import type { Tx } from '../../../core/tenancy';
import type { CourseItem, ItemType } from './course-item.resource';

/** The items read or watched (a video, audio, a document, rich text): complete at their own share viewed. */
const VIEWED: readonly ItemType[] = ['video', 'audio', 'document', 'rich_text'];

/**
 * The progress (percent) at which a trainee has completed an item: its `minViewPercent` for what is viewed; a link
 * opened, a live session attended and an assignment done at 100 (a quiz is passed instead: its paper's pass mark).
 */
export const completesAt = (item: Pick<CourseItem, 'itemType' | 'minViewPercent'>): number =>
  VIEWED.includes(item.itemType) ? item.minViewPercent : 100;

/**
 * When a trainee has completed a course (docs/domain.md §8.1 `completion_rule`), counted over its published items:
 * the share of its required items completed (of all its items when none is required: a course of optional items is
 * completed too) reaches `minItemPercent`, and, when it has a final paper, a published quiz on that paper is passed.
 * Every kind of item but a chapter counts alike (./course-item.service.ts says when each is complete: completesAt).
 * A course is published only while that can be met: one published item at least, and its final paper published with a
 * published quiz of the course on it.
 */

/**
 * Every enrolment of the course (or the trainee's) again, in one statement: its progress, status and completion
 * time, after progress was recorded or what counts changed (an item published, hidden or deleted, an item's
 * `isRequired`, the course's `minItemPercent` or final paper). A completion kept keeps its time.
 */
export async function settleEnrolments(tx: Tx, courseId: string, now: Date, traineeId?: string) {
  await sql`WITH k AS (
      SELECT c.id, c.min_item_percent AS rule, c.final_paper_id,
        count(i.id) FILTER (WHERE i.is_required)::int AS required, count(i.id)::int AS total
      FROM course c
      LEFT JOIN course_item i ON i.course_id = c.id AND i.status = 'published' AND i.item_type <> 'chapter'
      WHERE c.id = ${courseId}
      GROUP BY c.id, c.min_item_percent, c.final_paper_id),
    p AS (
      SELECT e.id, count(i.id)::int AS started,
        count(i.id) FILTER (WHERE i.is_required AND g.completed_at IS NOT NULL)::int AS required_done,
        count(i.id) FILTER (WHERE g.completed_at IS NOT NULL)::int AS done,
        coalesce(bool_or(i.exam_paper_id = k.final_paper_id AND g.completed_at IS NOT NULL), false) AS final_done
      FROM course_enrollment e
      CROSS JOIN k
      LEFT JOIN course_item_progress g ON g.course_id = e.course_id AND g.trainee_id = e.trainee_id
      LEFT JOIN course_item i ON i.id = g.item_id AND i.status = 'published' AND i.item_type <> 'chapter'
      WHERE e.course_id = ${courseId} ${traineeId ? sql`AND e.trainee_id = ${traineeId}` : sql``}
      GROUP BY e.id),
    shares AS (
      SELECT p.id, p.started, p.final_done,
        (CASE WHEN k.required > 0 THEN round(100.0 * p.required_done / k.required)
          WHEN k.total > 0 THEN round(100.0 * p.done / k.total) ELSE 0 END)::int AS percent
      FROM p CROSS JOIN k),
    s AS (
      SELECT shares.id, shares.percent,
        CASE WHEN k.total > 0 AND shares.percent >= k.rule AND (k.final_paper_id IS NULL OR shares.final_done)
          THEN 'completed' WHEN shares.started > 0 THEN 'in_progress' ELSE 'not_started' END AS status
      FROM shares CROSS JOIN k)
    UPDATE course_enrollment e
    SET progress_percent = s.percent, status = s.status,
      completed_at = CASE WHEN s.status = 'completed' THEN coalesce(e.completed_at, ${now}) END
    FROM s
    WHERE e.id = s.id AND (e.progress_percent, e.status) IS DISTINCT FROM (s.percent, s.status)`.execute(tx);
}

/** Why the course could not be published now (nothing: it can). */
export type Unpublishable = 'noItem' | 'paperNotPublished' | 'noFinalQuiz';

export async function whyUnpublishable(tx: Tx, courseId: string): Promise<Unpublishable | undefined> {
  const { rows } = await sql<{ items: number; paper: string | null; finalPaperId: string | null; quizzes: number }>`
    SELECT (SELECT count(*)::int FROM course_item i WHERE i.course_id = c.id AND i.status = 'published'
        AND i.item_type <> 'chapter') AS items,
      c.final_paper_id::text AS "finalPaperId",
      (SELECT p.status FROM exam_paper p WHERE p.id = c.final_paper_id) AS paper,
      (SELECT count(*)::int FROM course_item i WHERE i.course_id = c.id AND i.status = 'published'
        AND i.item_type = 'quiz' AND i.exam_paper_id = c.final_paper_id) AS quizzes
    FROM course c WHERE c.id = ${courseId}`.execute(tx);
  const s = rows[0];
  if (!s) return undefined;
  if (s.items === 0) return 'noItem';
  if (s.finalPaperId && s.paper !== 'published') return 'paperNotPublished';
  if (s.finalPaperId && s.quizzes === 0) return 'noFinalQuiz';
  return undefined;
}

/** The course's status (it is published: what changes in it must leave it publishable). */
export async function courseStatus(tx: Tx, courseId: string): Promise<string | undefined> {
  const row = await tx.selectFrom('course').select('status').where('id', '=', courseId).executeTakeFirst();
  return row?.status;
}
