import type {
  CreateKnowledgePoint,
  CreateQuestionCategory,
  KnowledgePoint,
  QuestionCategory,
  UpdateKnowledgePoint,
  UpdateQuestionCategory,
} from '@server/modules/assess/taxonomy/taxonomy';
import { describeResource, type ResourceDescriptor } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request from '@/utils/request';

/** A node of either tree of the bank (the same fields). */
export type TaxonomyNode = QuestionCategory & { hasChildren?: boolean };

const FORM = ['code', 'name', 'sort', 'status', 'remark'] as const;

/** The descriptor of a tree of the bank: the same columns, its own API path, permission and entity name. */
function describeTaxonomy<Create, Update>(
  name: 'assess/category' | 'assess/knowledge',
  resource: string,
  manage: 'assess:category:manage' | 'assess:knowledge:manage',
): ResourceDescriptor<TaxonomyNode, Create, Update> {
  const described = describeResource<TaxonomyNode, Create, Update>(
    name,
    (column) => ({
      auditType: resource.endsWith('category') ? 'question_category' : 'knowledge_point',
      actions: {
        list: 'assess:question:list',
        export: 'assess:question:export',
        create: manage,
        update: manage,
        delete: manage,
      },
      form: {
        create: ['parentId', ...FORM] as (keyof Create & string)[],
        update: [...FORM] as (keyof Update & string)[],
      },
      allows: (row, action) => action !== 'delete' || !row.questionCount,
      columns: [
        column('keyword', { searchOnly: true }),
        column('name', { hideInSearch: true, required: true }),
        column('code', { hideInSearch: true, required: true }),
        // a parent is chosen on the tree (add child) or by dragging; the form carries it without showing it
        column('parentId', { hideInSearch: true, hideInTable: true, formItemProps: { hidden: true } }),
        column('questionCount', { hideInSearch: true, hideInForm: true }),
        column('sort', { valueType: 'digit', hideInSearch: true, fieldProps: { min: 0, precision: 0 } }),
        column('status', { dict: 'common_status', required: true }),
        column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
      ],
    }),
    { resource, titles: 'assess.taxonomy' },
  );
  return { ...described, titleId: `${name.replace('/', '.')}.entity` };
}

export const categoryDescriptor = describeTaxonomy<CreateQuestionCategory, UpdateQuestionCategory>(
  'assess/category',
  'assess/category',
  'assess:category:manage',
);
export const knowledgeDescriptor = describeTaxonomy<CreateKnowledgePoint, UpdateKnowledgePoint>(
  'assess/knowledge',
  'assess/knowledge-point',
  'assess:knowledge:manage',
);

export const categories = resourceService<QuestionCategory, CreateQuestionCategory, UpdateQuestionCategory>(
  'assess/category',
);
export const knowledgePoints = resourceService<KnowledgePoint, CreateKnowledgePoint, UpdateKnowledgePoint>(
  'assess/knowledge-point',
);

export type TaxonomyKind = 'category' | 'knowledge';
export const TAXONOMIES = {
  category: { descriptor: categoryDescriptor, service: categories, path: 'assess/category' },
  knowledge: { descriptor: knowledgeDescriptor, service: knowledgePoints, path: 'assess/knowledge-point' },
} as const;

/** One level of a tree: the roots, or the children of `parentId`. */
export const fetchLevel = (kind: TaxonomyKind, parentId?: string) =>
  request.get<TaxonomyNode[]>(`/api/${TAXONOMIES[kind].path}/tree`, { params: parentId ? { parentId } : {} });
