import type { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { defineTaxonomy, type TaxonomyTable } from '../../assess/taxonomy/taxonomy';

declare module '../../../db/types' {
  interface DB {
    course_category: TaxonomyTable;
  }
}

/** The tenant's course categories (docs/domain.md §8.1): a tree as the bank's, a course sits in one of its nodes. */
export const courseCategoryTaxonomy = defineTaxonomy({
  table: 'course_category',
  path: 'teaching/course-category',
  component: 'CourseCategory',
  permissions: {
    prefix: 'teaching:course-category',
    read: 'teaching:course:list',
    export: 'teaching:course:export',
    manage: 'teaching:course-category:manage',
  },
  usage: {
    key: 'courseCount',
    inUse: 'courseCategory.inUse',
    count: (id) => sql<number>`(SELECT count(*)::int FROM course c WHERE c.category_id = ${id})`,
  },
});
export const courseCategories = courseCategoryTaxonomy.module;
export type CourseCategory = z.infer<typeof courseCategoryTaxonomy.Row>;
export type CreateCourseCategory = z.infer<typeof courseCategoryTaxonomy.Create>;
export type UpdateCourseCategory = z.infer<typeof courseCategoryTaxonomy.Update>;
