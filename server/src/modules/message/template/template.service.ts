import { AppError, invalidField, isUniqueViolation, notFound } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { PlatformScope } from '../../../core/platform-scope';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import type { Channel } from '../channel/channel';
import { invalidPlaceholders, paramsOf, renderTemplate } from './render';
import * as repo from './template.repository';
import {
  type CreateMessageTemplate,
  EXTERNAL_CHANNELS,
  type MessageTemplate,
  messageTemplateResource,
  type PreviewDraft,
  type TemplatePreview,
  TITLED_CHANNELS,
  type UpdateMessageTemplate,
} from './template.resource';

const texts = {
  'zh-CN': {
    required: (channel: string) => `${channel} 渠道必须填写`,
    badPlaceholder: (names: string[]) => `占位符 ${names.map((n) => `{${n}}`).join('、')} 不是有效的变量名`,
    noBusinessItem: '业务事项不存在',
    duplicate: '编码已被使用',
  },
  'en-US': {
    required: (channel: string) => `is required for the ${channel} channel`,
    badPlaceholder: (names: string[]) =>
      `the placeholder${names.length > 1 ? 's' : ''} ${names.map((n) => `{${n}}`).join(', ')} ` +
      `${names.length > 1 ? 'are not variable names' : 'is not a variable name'}`,
    noBusinessItem: 'is not an existing business item',
    duplicate: 'is already used by another template',
  },
};

type Values = Partial<CreateMessageTemplate>;

const variablesOf = async (tx: Tx, code: string | null | undefined) =>
  code ? repo.businessItemVariables(tx, code) : undefined;

/** The template as it will be: the fields given, else the current ones. */
function merged(input: Values, current: MessageTemplate | undefined) {
  const pick = <K extends keyof Values & keyof MessageTemplate>(key: K) =>
    (input[key] === undefined ? current?.[key] : input[key]) as MessageTemplate[K] | undefined;
  return {
    channel: pick('channel') as Channel,
    titleTemplate: pick('titleTemplate') ?? null,
    contentTemplate: pick('contentTemplate') ?? '',
    externalTemplateId: pick('externalTemplateId') ?? null,
    businessItemCode: pick('businessItemCode') ?? null,
  };
}

/** Placeholders must be variable names: refused on the field that holds one that is not. */
function checkPlaceholders(input: { titleTemplate?: string | null; contentTemplate?: string }, lang: Lang) {
  for (const key of ['titleTemplate', 'contentTemplate'] as const) {
    const bad = invalidPlaceholders(input[key]);
    if (bad.length) throw invalidField(key, texts[lang].badPlaceholder(bad));
  }
}

/**
 * Message templates' rules (docs/domain.md §6.1): hybrid like dictionary items (the platform's are every tenant's and
 * written only from the platform tenant; a tenant writes its own); the title required for in-app and e-mail, the
 * provider's template id for WeChat and SMS; `params` parsed from the placeholders on every save; an existing business
 * item, whose undeclared variables the row lists in `unknownParams` (a warning, not a refusal); a template that is a
 * business item's default is not deleted.
 */
export function createMessageTemplateService(deps: ResourceDeps & { platform: PlatformScope }) {
  const { platform } = deps;
  const { store: plain, repository } = messageTemplateResource;

  async function check(tx: Tx, input: Values, current: MessageTemplate | undefined, lang: Lang) {
    const t = texts[lang];
    checkPlaceholders(input, lang);
    const will = merged(input, current);
    if (TITLED_CHANNELS.includes(will.channel) && !will.titleTemplate)
      throw invalidField('titleTemplate', t.required(will.channel));
    if (EXTERNAL_CHANNELS.includes(will.channel) && !will.externalTemplateId)
      throw invalidField('externalTemplateId', t.required(will.channel));
    if (input.businessItemCode && !(await variablesOf(tx, input.businessItemCode)))
      throw invalidField('businessItemCode', t.noBusinessItem);
    return { ...input, params: paramsOf(will) };
  }

  const duplicate = (err: unknown, lang: Lang) =>
    isUniqueViolation(err) ? invalidField('code', texts[lang].duplicate) : err;

  /** Platform rows are written only from the platform tenant (RLS hides the other tenants' rows). */
  const ownOrPlatform = async (tx: Tx, row: MessageTemplate, ctx: WriteContext) => {
    if (row.scope === 'platform') await platform.assertPlatform(tx, ctx.tenantId);
  };

  const find = (tx: Tx, id: string) => repository.find(tx, id);

  const store: ResourceStore<MessageTemplate, CreateMessageTemplate, UpdateMessageTemplate> = {
    ...plain,
    createMany: undefined,
    async create(tx, input, ctx) {
      const values = await check(tx, input, undefined, ctx.lang);
      try {
        const made = await repository.insert(tx, { ...values, tenantId: ctx.tenantId }, ctx);
        return (await find(tx, made.id)) as MessageTemplate;
      } catch (err) {
        throw duplicate(err, ctx.lang);
      }
    },
    async update(tx, current, { version, ...input }, ctx) {
      await ownOrPlatform(tx, current, ctx);
      const values = await check(tx, input, current, ctx.lang);
      const updated = await repository.update(tx, current.id, values, ctx, version);
      return updated && ((await find(tx, current.id)) as MessageTemplate);
    },
    async remove(tx, rows, ctx) {
      for (const row of rows) {
        await ownOrPlatform(tx, row, ctx);
        // a tenant's own template whose code the platform also has falls back to the platform's: it may go
        if (row.scope === 'tenant' && (await repo.platformTemplateExists(tx, row.code))) continue;
        const item = await repo.businessItemDefaulting(tx, row.code);
        if (item) throw new AppError('messageTemplate.inUse', { code: row.code, name: item.name });
        // the batches sent with it keep it
        const batches = await repo.batchesSentWith(tx, row.id);
        if (batches > 0) throw new AppError('messageTemplate.sent', { code: row.code, count: batches });
      }
      await repository.remove(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
    },
  };

  const resource = createResourceService(messageTemplateResource, store, deps);

  /**
   * The template rendered with `samples`; a variable without a sample takes the business item's example (and is
   * listed in `missing`), else keeps its placeholder.
   */
  async function preview(
    tx: Tx,
    template: { titleTemplate?: string | null; contentTemplate: string; businessItemCode?: string | null },
    samples: Record<string, unknown>,
  ): Promise<TemplatePreview> {
    const variables = (await variablesOf(tx, template.businessItemCode)) ?? [];
    const given = renderTemplate(template, samples);
    const examples: Record<string, unknown> = {};
    for (const v of variables) if (v.example !== undefined && v.example !== '') examples[v.name] = v.example;
    const { title, content } = renderTemplate(template, { ...examples, ...stripNulls(samples) });
    const params = paramsOf(template);
    const declared = new Set(variables.map((v) => v.name));
    const unknownParams = template.businessItemCode ? params.filter((p) => !declared.has(p)) : [];
    return { title, content, params, missing: given.missing, unknownParams };
  }

  return {
    resource,

    /** A saved template rendered with sample values. */
    preview: (tenantId: string, id: string, samples: Record<string, unknown>) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const row = await find(tx, id);
        if (!row) throw notFound();
        return preview(tx, row, samples);
      }),

    /** A template being edited, not saved yet, rendered with sample values (its placeholders checked as on save). */
    previewDraft: (tenantId: string, draft: PreviewDraft, lang: Lang) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        checkPlaceholders(draft, lang);
        if (draft.businessItemCode && !(await variablesOf(tx, draft.businessItemCode)))
          throw invalidField('businessItemCode', texts[lang].noBusinessItem);
        return preview(tx, draft, draft.params ?? {});
      }),
  };
}

const stripNulls = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined));

export type MessageTemplateService = ReturnType<typeof createMessageTemplateService>;
