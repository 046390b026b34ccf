import { AppError, invalidField } from '../../../core/errors';
import { type PlatformScope, platformWrites } from '../../../core/platform-scope';
import type { ResourceStore } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { industryResource } from './industry.resource';
import type { CreateIndustry, Industry, IndustryNode, UpdateIndustry } from './industry.schema';

const texts = {
  'zh-CN': { noParent: '上级行业不存在', tooDeep: '最多四级（门类、大类、中类、小类）' },
  'en-US': { noParent: 'is not an existing industry', tooDeep: 'the classification has four levels at most' },
};

/** A tree by parent_code; the level follows from the parent. Global rows, written from the platform tenant only. */
export function createIndustryService(deps: ResourceDeps & { platform: PlatformScope }) {
  const { store: plain, repository } = industryResource;
  const store: ResourceStore<Industry, CreateIndustry, UpdateIndustry> = {
    ...plain,
    async create(tx, input, ctx) {
      const parent = input.parentCode ? await plain.findByKey?.(tx, input.parentCode) : undefined;
      const field = (message: string) => invalidField('parentCode', message);
      if (input.parentCode && !parent) throw field(texts[ctx.lang].noParent);
      if (parent && parent.level >= 4) throw field(texts[ctx.lang].tooDeep);
      const leveled = { ...input, level: parent ? parent.level + 1 : 1 };
      return plain.create(tx, leveled, ctx);
    },
    async remove(tx, rows, ctx) {
      const codes = new Set(rows.map((r) => r.code));
      if ((await repository.childKeys(tx, [...codes])).some((c) => !codes.has(c)))
        throw new AppError('industry.hasChildren');
      for (const row of [...rows].sort((a, b) => b.level - a.level)) await plain.remove(tx, [row], ctx);
    },
  };
  return {
    resource: createResourceService(industryResource, platformWrites(store, deps.platform), deps),
    tree: (tenantId: string, parentCode?: string, status?: string): Promise<IndustryNode[]> =>
      deps.tenancy.inTenant(tenantId, (tx) => repository.children(tx, parentCode, status)),
  };
}

export type IndustryService = ReturnType<typeof createIndustryService>;
