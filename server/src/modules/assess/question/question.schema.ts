import { z } from '@hono/zod-openapi';
import { ref } from '../../../core/references';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { MEDICAL_FORMATS, QUESTION_STATUSES, QUESTION_TYPES } from './question.rules';

/** The images a stem or an option shows, in order: files uploaded as attachments (png, jpeg, gif, webp). */
const mediaIds = (max: number) =>
  z
    .array(ref('file'))
    .max(max)
    .openapi({ description: 'Images (png, jpeg, gif, webp) uploaded with purpose `attachment`, in order' });

/** The schemas of a question and of its create and update requests (the import reads them too). */
const OptionSchema = z
  .object({
    key: z.string().regex(/^[A-H]$/),
    text: z.string().trim().min(1).max(2000),
    weight: z.number().min(-100).max(100).multipleOf(0.5).optional().openapi({
      description:
        "A case analysis stage's option only: the points a pick adds (a correct option, > 0) or deducts (a wrong one, ≤ 0); a stage scores the sum of its picks, never below 0. Default: 1 when correct, 0 when not",
    }),
    mediaIds: mediaIds(4).optional(),
  })
  .strict()
  .openapi('QuestionOption');
const ReferenceSchema = z
  .object({
    reference: z.string().trim().max(10_000),
    points: z
      .array(z.object({ text: z.string().trim().min(1).max(500), score: z.number().min(0).max(1000) }).strict())
      .max(20)
      .optional(),
  })
  .strict();
const AnswerSchema = z
  .union([
    z.boolean(),
    z.array(z.string().max(200)).max(8),
    z.array(z.array(z.string().trim().min(1).max(200)).min(1).max(10)).max(20),
    ReferenceSchema,
  ])
  .openapi('QuestionAnswer', {
    description:
      'Choice: the correct keys (`["B"]`); true/false: a boolean; fill in the blanks: the accepted answers of each blank (`[["aspirin","ASA"]]`); short answer and essay: `{reference, points}`',
  });

/** The fields of a question or of one item of a group. */
export const itemFields = {
  stem: z.string().trim().min(1).max(10_000),
  stemMediaFileIds: mediaIds(8).optional(),
  options: z.array(OptionSchema).max(8).nullable().optional(),
  answer: AnswerSchema.nullable().optional(),
  analysis: z.string().trim().max(10_000).nullable().optional(),
};
export const QuestionItemInput = z.object(itemFields).strict().openapi('QuestionItemInput');

export const QuestionItem = z
  .object({
    id: z.string(),
    subOrder: z.number().int(),
    stem: z.string(),
    stemMediaFileIds: z.array(z.string()).optional().openapi({ description: "The stem's images, in order" }),
    options: z.array(OptionSchema).nullable(),
    answer: AnswerSchema.nullable(),
    analysis: z.string().nullable(),
  })
  .openapi('QuestionItem');
export type QuestionItem = z.infer<typeof QuestionItem>;

export const Question = recordRow({
  code: z.string(),
  categoryId: z.string(),
  categoryName: z.string().nullable(),
  questionType: z.enum(QUESTION_TYPES),
  medicalFormat: z.enum(MEDICAL_FORMATS).nullable(),
  stem: z.string(),
  stemMediaFileIds: z.array(z.string()).openapi({ description: "The stem's images, in order (`/{id}/attachments`)" }),
  options: z.array(OptionSchema).nullable(),
  answer: AnswerSchema.nullable(),
  analysis: z.string().nullable(),
  difficulty: z.number().int(),
  knowledgePointIds: z.array(z.string()),
  knowledgePointNames: z.array(z.string()),
  tags: z.array(z.string()),
  source: z.string().nullable(),
  sourceYear: z.number().int().nullable(),
  specialtyCode: z.string().nullable(),
  syllabusRef: z.string().nullable(),
  estimatedSeconds: z.number().int().nullable(),
  suggestedScore: z.number().nullable(),
  status: z.enum(QUESTION_STATUSES),
  currentVersion: z.number().int().openapi({ description: 'The version a paper built now pins' }),
  reviewedByName: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewComment: z.string().nullable(),
  usageCount: z.number().int(),
  childCount: z.number().int(),
  /** A group's items, in order (get only). */
  children: z.array(QuestionItem).optional(),
}).openapi('Question');
export type Question = z.infer<typeof Question>;

export const tag = z.string().trim().min(1).max(30);
/** The fields of a question's create request. */
export const questionFields = {
  categoryId: ref('question_category'),
  questionType: z.enum(QUESTION_TYPES),
  medicalFormat: z.enum(MEDICAL_FORMATS).nullable().optional(),
  ...itemFields,
  children: z
    .array(QuestionItemInput)
    .max(10)
    .nullable()
    .optional()
    .openapi({ description: "A group's items, in order (they replace the group's items on update)" }),
  difficulty: z.number().int().min(1).max(5).optional(),
  knowledgePointIds: z.array(ref('knowledge_point')).max(20).optional(),
  tags: z.array(tag).max(20).optional(),
  source: field.optionalText(100),
  sourceYear: z
    .number()
    .int()
    .min(1950)
    .max(2100)
    .nullable()
    .optional()
    .openapi({ description: 'The year of the paper or edition it comes from; not later than this year' }),
  specialtyCode: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .nullable()
    .optional()
    .openapi({ description: 'Dictionary `training_specialty`' }),
  syllabusRef: field.optionalText(100).openapi({ description: 'The exam-outline item it tests' }),
  estimatedSeconds: z
    .number()
    .int()
    .min(1)
    .max(36_000)
    .nullable()
    .optional()
    .openapi({ description: 'The time a candidate is expected to spend on it' }),
  suggestedScore: z.number().min(0).max(999).multipleOf(0.5).nullable().optional(),
  allowDuplicate: z
    .boolean()
    .optional()
    .openapi({ description: 'Save although a question with the same normalised text exists' }),
};
export const CreateQuestion = requestBody('CreateQuestion', questionFields);
export type CreateQuestion = z.infer<typeof CreateQuestion>;
export const UpdateQuestion = updateBody('UpdateQuestion', {
  ...questionFields,
  categoryId: ref('question_category').optional(),
  questionType: z.enum(QUESTION_TYPES).optional(),
  stem: itemFields.stem.optional(),
  changeNote: z.string().trim().max(200).optional().openapi({ description: "Kept with the new version's snapshot" }),
});
export type UpdateQuestion = z.infer<typeof UpdateQuestion>;
