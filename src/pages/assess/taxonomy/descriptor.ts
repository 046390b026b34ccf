import type {
  CreateKnowledgePoint,
  CreateQuestionCategory,
  KnowledgePoint,
  QuestionCategory,
  UpdateKnowledgePoint,
  UpdateQuestionCategory,
} from '@server/modules/assess/taxonomy/taxonomy';
import type {
  CourseCategory,
  CreateCourseCategory,
  UpdateCourseCategory,
} from '@server/modules/teaching/course/course-category';
import type { PermissionCode } from '@/access';
import { describeResource, type EntityName, type ResourceDescriptor } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request from '@/utils/request';

/** A node of a tree (the same fields in each, and the count of the records that use it). */
export type TaxonomyNode = (QuestionCategory | CourseCategory) & { hasChildren?: boolean };

const FORM = ['code', 'name', 'sort', 'status', 'remark'] as const;

/** What makes a tree its own: its API path, audit type, permissions, entity name and the records that use a node. */
interface TaxonomySpec {
  name: EntityName;
  resource: string;
  auditType: string;
  read: PermissionCode;
  export: PermissionCode;
  manage: PermissionCode;
  titleId: string;
  usage: 'questionCount' | 'courseCount';
}

/** The descriptor of a tree: the same columns, its own API path, permissions and entity name. */
function describeTaxonomy<Create, Update>(spec: TaxonomySpec): ResourceDescriptor<TaxonomyNode, Create, Update> {
  const used = (row: TaxonomyNode) => (row as Partial<Record<TaxonomySpec['usage'], number>>)[spec.usage];
  const described = describeResource<TaxonomyNode, Create, Update>(
    spec.name,
    (column) => ({
      auditType: spec.auditType,
      actions: {
        list: spec.read,
        export: spec.export,
        create: spec.manage,
        update: spec.manage,
        delete: spec.manage,
      },
      form: {
        create: ['parentId', ...FORM] as (keyof Create & string)[],
        update: [...FORM] as (keyof Update & string)[],
      },
      allows: (row, action) => action !== 'delete' || !used(row),
      columns: [
        column('keyword', { searchOnly: true }),
        column('name', { hideInSearch: true, required: true }),
        column('code', { hideInSearch: true, required: true }),
        // a parent is chosen on the tree (add child) or by dragging; the form carries it without showing it
        column('parentId', { hideInSearch: true, hideInTable: true, formItemProps: { hidden: true } }),
        column(spec.usage, { hideInSearch: true, hideInForm: true }),
        column('sort', { valueType: 'digit', hideInSearch: true, fieldProps: { min: 0, precision: 0 } }),
        column('status', { dict: 'common_status', required: true }),
        column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
      ],
    }),
    { resource: spec.resource, titles: 'assess.taxonomy' },
  );
  return { ...described, titleId: spec.titleId };
}

const bank = { read: 'assess:question:list', export: 'assess:question:export', usage: 'questionCount' } as const;

export const categoryDescriptor = describeTaxonomy<CreateQuestionCategory, UpdateQuestionCategory>({
  ...bank,
  name: 'assess/category',
  resource: 'assess/category',
  auditType: 'question_category',
  manage: 'assess:category:manage',
  titleId: 'assess.category.entity',
});
export const knowledgeDescriptor = describeTaxonomy<CreateKnowledgePoint, UpdateKnowledgePoint>({
  ...bank,
  name: 'assess/knowledge',
  resource: 'assess/knowledge-point',
  auditType: 'knowledge_point',
  manage: 'assess:knowledge:manage',
  titleId: 'assess.knowledge.entity',
});
export const courseCategoryDescriptor = describeTaxonomy<CreateCourseCategory, UpdateCourseCategory>({
  name: 'teaching/course-category',
  resource: 'teaching/course-category',
  auditType: 'course_category',
  read: 'teaching:course:list',
  export: 'teaching:course:export',
  manage: 'teaching:course-category:manage',
  titleId: 'teaching.courseCategory.entity',
  usage: 'courseCount',
});

export const categories = resourceService<QuestionCategory, CreateQuestionCategory, UpdateQuestionCategory>(
  'assess/category',
);
export const knowledgePoints = resourceService<KnowledgePoint, CreateKnowledgePoint, UpdateKnowledgePoint>(
  'assess/knowledge-point',
);
export const courseCategories = resourceService<CourseCategory, CreateCourseCategory, UpdateCourseCategory>(
  'teaching/course-category',
);

/** The trees: the bank's categories and knowledge points, and the course categories. */
export type TaxonomyKind = 'category' | 'knowledge' | 'course';
export const TAXONOMIES = {
  category: {
    descriptor: categoryDescriptor,
    service: categories,
    path: 'assess/category',
    manageId: 'assess.category.manage',
  },
  knowledge: {
    descriptor: knowledgeDescriptor,
    service: knowledgePoints,
    path: 'assess/knowledge-point',
    manageId: 'assess.knowledge.manage',
  },
  course: {
    descriptor: courseCategoryDescriptor,
    service: courseCategories,
    path: 'teaching/course-category',
    manageId: 'teaching.courseCategory.manage',
  },
} as const;

/** One level of a tree: the roots, or the children of `parentId` (of `status` only, when given). */
export const fetchLevel = (kind: TaxonomyKind, parentId?: string, status?: 'enabled') =>
  request.get<TaxonomyNode[]>(`/api/${TAXONOMIES[kind].path}/tree`, {
    params: { ...(parentId && { parentId }), ...(status && { status }) },
  });
/** The levels of a tree on the way to the nodes whose name or code holds `keyword`, each level whole. */
export const searchTree = (kind: TaxonomyKind, keyword: string, status?: 'enabled') =>
  request.get<TaxonomyNode[]>(`/api/${TAXONOMIES[kind].path}/tree`, {
    params: { keyword, ...(status && { status }) },
  });
