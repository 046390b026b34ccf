import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * A course's teachers, cover, description and CME credits (docs/domain.md §8.1): its teachers are doctors and
 * teaching staff of the tenant (`teacher_doctor_ids`, `teacher_staff_ids`); its cover an image file it holds; its
 * description rich text (sanitised by the server); its CME credit class (`class_i`, `class_ii`, `none`) with its
 * credits, which a class other than `none` requires (above 0) and `none` has none of; the specialties it is for
 * (values of the dictionary `training_specialty`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE course
      ADD COLUMN teacher_doctor_ids bigint[] NOT NULL DEFAULT '{}',
      ADD COLUMN teacher_staff_ids bigint[] NOT NULL DEFAULT '{}',
      ADD COLUMN cover_file_id bigint,
      ADD COLUMN description_html text,
      ADD COLUMN cme_credit_class text NOT NULL DEFAULT 'none'
        CHECK (cme_credit_class IN ('class_i', 'class_ii', 'none')),
      ADD COLUMN cme_credits numeric(4, 1),
      ADD COLUMN target_specialties text[] NOT NULL DEFAULT '{}',
      ADD CONSTRAINT course_cme_credits_check
        CHECK (CASE WHEN cme_credit_class = 'none' THEN cme_credits IS NULL ELSE cme_credits > 0 END)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE course DROP CONSTRAINT course_cme_credits_check, DROP COLUMN teacher_doctor_ids,
      DROP COLUMN teacher_staff_ids, DROP COLUMN cover_file_id, DROP COLUMN description_html,
      DROP COLUMN cme_credit_class, DROP COLUMN cme_credits, DROP COLUMN target_specialties`,
  ]);
}
