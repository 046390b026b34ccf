import type { Principal, Services } from '../../../core/context';
import type { Lang } from '../../../core/i18n';
import { type ListSpec, type Page, parseListQuery } from '../../../core/resource/list-query';
import type { PermissionCode } from '../../../core/route';
import { questionResource } from '../../assess/question/question.resource';
import { qualificationResource } from '../../people/qualification/qualification.resource';
import { traineeList } from '../../people/trainee/trainee.resource';
import { activityResource } from '../../teaching/activity/activity.resource';
import { courseResource } from '../../teaching/course/course.resource';
import type { WorkspaceCard } from './workspace.schema';

/** The lists the training cards count, as their screens ask for them. */
export type WorkspaceSources = Pick<Services, 'trainees' | 'questions' | 'activities' | 'courses' | 'qualifications'>;

export interface CardContext {
  principal: Principal;
  lang: Lang;
  sources: WorkspaceSources;
  /** The caller's today, as a `from,to` range of instants (the list contract's date range). */
  today: string;
}

/**
 * A card over a list: it counts what the list at `screen` with `filter` shows the caller (the list's own service, its
 * data scope and its filters), so a card never tells more than its screen would.
 */
export interface ListCard {
  key: string;
  permission: PermissionCode;
  screen: string;
  filter: (ctx: CardContext) => Record<string, string>;
  /** The card's number and what it adds (a progress over the listed rows, a breakdown). */
  compute: (ctx: CardContext, filter: Record<string, string>) => Promise<Omit<WorkspaceCard, 'key' | 'path'>>;
}

/** The path of a screen with its list's filters in the query (the screen reads them). */
export const screenPath = (screen: string, filter: Record<string, string>) => {
  const query = new URLSearchParams(filter).toString();
  return query ? `${screen}?${query}` : screen;
};

type Lister<Row> = { list: (tenantId: string, query: ReturnType<typeof parseListQuery>) => Promise<Page<Row>> };

const MAX_PAGE = 200;

/** The list's page `current` of `pageSize` for the caller, as its screen would ask for it. */
export function listFor<Row>(
  ctx: CardContext,
  service: Lister<Row>,
  spec: ListSpec,
  filter: Record<string, string>,
  current = 1,
  pageSize = 1,
) {
  const query = parseListQuery(spec, { ...filter, current, pageSize }, ctx.lang);
  return service.list(ctx.principal.tenantId, { ...query, viewer: ctx.principal.userId });
}

/** Every row of a short list (today's activities, the published courses), page by page. */
async function* allRows<Row>(ctx: CardContext, service: Lister<Row>, spec: ListSpec, filter: Record<string, string>) {
  for (let current = 1; ; current++) {
    const page = await listFor(ctx, service, spec, filter, current, MAX_PAGE);
    yield* page.data;
    if (page.data.length < MAX_PAGE || current * MAX_PAGE >= page.total) return;
  }
}

/** Sums two counts over every row of a list: attended of expected, completed of enrolled. */
async function progressOver<Row>(
  ctx: CardContext,
  service: Lister<Row>,
  spec: ListSpec,
  filter: Record<string, string>,
  done: (row: Row) => number,
  of: (row: Row) => number,
) {
  let rows = 0;
  const progress = { done: 0, of: 0 };
  for await (const row of allRows(ctx, service, spec, filter)) {
    rows++;
    progress.done += done(row);
    progress.of += of(row);
  }
  return { count: rows, progress };
}

const total = async (page: Promise<Page<unknown>>) => ({ count: (await page).total });

export const TRAINEES_IN_TRAINING = { status: 'in_training' };

/** The training administrator's cards, in the order the workspace shows them; the breakdowns are the service's. */
export const trainingCards: ListCard[] = [
  {
    key: 'traineesInTraining',
    permission: 'trainee:trainee:list',
    screen: '/trainee/list',
    filter: () => TRAINEES_IN_TRAINING,
    compute: (ctx, filter) => total(listFor(ctx, ctx.sources.trainees.resource, traineeList, filter)),
  },
  {
    key: 'questionsAwaitingReview',
    permission: 'assess:question:list',
    screen: '/question/list',
    filter: () => ({ status: 'pending_review' }),
    compute: (ctx, filter) => total(listFor(ctx, ctx.sources.questions.resource, questionResource.list, filter)),
  },
  {
    key: 'activitiesToday',
    permission: 'teaching:activity:list',
    screen: '/teach/teaching/list',
    filter: (ctx) => ({ startAt: ctx.today }),
    compute: (ctx, filter) =>
      progressOver(
        ctx,
        ctx.sources.activities.resource,
        activityResource.list,
        filter,
        (row) => row.presentCount,
        (row) => row.participantCount,
      ),
  },
  {
    key: 'courseCompletion',
    permission: 'teaching:course:list',
    screen: '/teach/course/list',
    filter: () => ({ status: 'published' }),
    compute: (ctx, filter) =>
      progressOver(
        ctx,
        ctx.sources.courses.resource,
        courseResource.list,
        filter,
        (row) => row.completedCount,
        (row) => row.enrolmentCount,
      ),
  },
  {
    key: 'expiringQualifications',
    permission: 'expert:qualification:list',
    screen: '/expert/qualifications',
    filter: () => ({ expiring: 'true' }),
    compute: (ctx, filter) =>
      total(listFor(ctx, ctx.sources.qualifications.resource, qualificationResource.list, filter)),
  },
];
