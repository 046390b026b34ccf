import '@/pages/community/catalogue';
import { ProFormDependency, ProFormList, ProFormSelect } from '@ant-design/pro-components';
import type { Board, CreateBoard, ModeratorRow, UpdateBoard } from '@server/modules/community/board/board.resource';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import RecordModalForm from '@/components/RecordModalForm';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request, { ignoreShownError } from '@/utils/request';

export type { Board };

export const boards = resourceService<Board, CreateBoard, UpdateBoard>('community/board');
const moderatorsPath = (id: string) => `/api/community/board/${id}/moderators`;

/** Boards in their order, as choices (a post's board, a move's target, a board's group). */
export const boardChoices = (topLevelOnly = false) =>
  boards
    .list({ pageSize: '200', sort: 'sort,code' })
    .then(({ data }) => data.filter((b) => !topLevelOnly || !b.parentId).map((b) => ({ value: b.id, label: b.name })));

const STATUS_COLOURS: Record<Board['status'], string> = { open: 'success', locked: 'warning', archived: 'default' };
const FORM = [
  'code',
  'name',
  'parentId',
  'moderationMode',
  'postPolicy',
  'allowAnonymous',
  'sort',
  'description',
  'remark',
] as const;

/** Boards (docs/domain.md §5.4): /post/board/list, API community/board, permission prefix community:board. */
export const boardDescriptor = describeResource<Board, CreateBoard, UpdateBoard>('community/board', (column) => ({
  auditType: 'board',
  recordName: (row) => row.name,
  formLayout: 'DrawerForm',
  form: { create: [...FORM], update: [...FORM] },
  columns: [
    column('keyword', { searchOnly: true }),
    column('code', { hideInSearch: true, sorter: true, copyable: true, required: true }),
    column('name', { hideInSearch: true, sorter: true, required: true }),
    column('parentId', {
      valueType: 'select',
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      request: () => boardChoices(true),
    }),
    column('parentName', { hideInSearch: true, hideInForm: true }),
    column('moderationMode', {
      options: (['post_moderation', 'pre_moderation'] as const).map((value) => ({
        value,
        labelId: `community.board.moderationMode.${value}`,
        color: value === 'pre_moderation' ? 'processing' : 'default',
      })),
    }),
    column('postPolicy', {
      hideInTable: true,
      hideInSearch: true,
      options: (['everyone', 'staff_only', 'selected_roles'] as const).map((value) => ({
        value,
        labelId: `community.board.postPolicy.${value}`,
      })),
    }),
    column('allowAnonymous', { valueType: 'switch', hideInTable: true, hideInSearch: true }),
    column('status', {
      hideInForm: true,
      options: (Object.keys(STATUS_COLOURS) as Board['status'][]).map((value) => ({
        value,
        labelId: `community.board.status.${value}`,
        color: STATUS_COLOURS[value],
      })),
    }),
    column('postCount', { hideInSearch: true, hideInForm: true }),
    column('pendingCount', { hideInSearch: true, hideInForm: true }),
    column('moderatorCount', { hideInSearch: true, hideInForm: true }),
    column('lastPostAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true }),
    column('sort', { valueType: 'digit', hideInSearch: true, sorter: true }),
    column('description', { valueType: 'textarea', hideInSearch: true, hideInTable: true }),
    column('remark', { valueType: 'textarea', hideInSearch: true, hideInTable: true }),
    column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
  ],
}));

const userChoices = () =>
  request
    .get<{ data: { id: string; displayName: string; username: string }[] }>('/api/system/admin', {
      params: { pageSize: '200' },
    })
    .then(({ data }) => data.map((u) => ({ value: u.id, label: `${u.displayName} (${u.username})` })));
const doctorChoices = () =>
  request
    .get<{ data: { id: string; name: string }[] }>('/api/people/doctor', { params: { pageSize: '200' } })
    .then(({ data }) => data.map((d) => ({ value: d.id, label: d.name })));

/** The moderators of a board, edited as a whole. */
function ModeratorsDialog({ board, onClose, onDone }: { board?: Board; onClose: () => void; onDone: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { data: moderators, loading } = useRequest(
    () => (board ? request.get<ModeratorRow[]>(moderatorsPath(board.id)) : Promise.resolve([])),
    { refreshDeps: [board?.id], onError: ignoreShownError },
  );
  if (board && (loading || !moderators)) return null;
  return (
    <RecordModalForm<{ moderators: Pick<ModeratorRow, 'subjectType' | 'subjectId'>[] }>
      record={board}
      title={t('community.board.moderators.title')}
      initialValues={{
        moderators: (moderators ?? []).map(({ subjectType, subjectId }) => ({ subjectType, subjectId })),
      }}
      submitTestId="board-moderators-submit"
      save={(values, options) =>
        request.put(moderatorsPath(board?.id ?? ''), {
          ...options,
          data: { moderators: values.moderators ?? [], version: board?.version },
        })
      }
      onClose={onClose}
      onSaved={onDone}
    >
      <ProFormList name="moderators" creatorRecord={{ subjectType: 'admin_user' }}>
        <ProFormSelect
          name="subjectType"
          label={t('community.board.moderator.subjectType')}
          rules={[{ required: true }]}
          options={(['admin_user', 'doctor'] as const).map((value) => ({
            value,
            label: t(`community.board.moderator.subjectType.${value}`),
          }))}
        />
        <ProFormDependency name={['subjectType']}>
          {({ subjectType }) => (
            <ProFormSelect
              key={subjectType}
              name="subjectId"
              label={t('community.board.moderator.subjectId')}
              rules={[{ required: true }]}
              fieldProps={{ showSearch: true, optionFilterProp: 'label' }}
              params={{ subjectType }}
              request={subjectType === 'doctor' ? doctorChoices : userChoices}
            />
          )}
        </ProFormDependency>
      </ProFormList>
    </RecordModalForm>
  );
}

/** The boards in their order with `id` one place up (-1) or down (+1). */
async function moveBoard(id: string, step: -1 | 1) {
  const { data } = await boards.list({ pageSize: '200', sort: 'sort,code' });
  const ids = data.map((b) => b.id);
  const at = ids.indexOf(id);
  const to = at + step;
  if (at < 0 || to < 0 || to >= ids.length) return;
  [ids[at], ids[to]] = [ids[to], ids[at]];
  await request.post('/api/community/board/reorder', { data: { ids } });
}

/** /post/board/list: the tenant's boards in their order; opened, locked or archived; their moderators. */
export default function BoardPage() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const actionRef = useRef<TableActions>();
  const [moderating, setModerating] = useState<Board>();
  const reload = () => actionRef.current?.reload();
  const setStatus = (row: Board, status: Board['status']) =>
    boards.action<Board>(row.id, 'status', { status, version: row.version }).then(reload, ignoreShownError);
  return (
    <div data-testid="community-board">
      <ResourceTable<Board>
        descriptor={boardDescriptor}
        actionRef={actionRef}
        createDefaults={{ moderationMode: 'post_moderation', postPolicy: 'everyone', allowAnonymous: false, sort: 0 }}
        rowActions={(row, { can }) => [
          can('community:board:reorder') && (
            <ActionLink key="up" onClick={() => moveBoard(row.id, -1).then(reload, ignoreShownError)}>
              {t('community.board.moveUp')}
            </ActionLink>
          ),
          can('community:board:reorder') && (
            <ActionLink key="down" onClick={() => moveBoard(row.id, 1).then(reload, ignoreShownError)}>
              {t('community.board.moveDown')}
            </ActionLink>
          ),
          can('community:board:update') && (
            <ActionLink key="moderators" data-testid="board-moderators" onClick={() => setModerating(row)}>
              {t('community.board.moderators')}
            </ActionLink>
          ),
          can('community:board:update') &&
            (row.status === 'open' ? (
              <ActionLink key="lock" data-testid="board-lock" onClick={() => setStatus(row, 'locked')}>
                {t('community.board.lock')}
              </ActionLink>
            ) : (
              <ActionLink key="open" data-testid="board-open" onClick={() => setStatus(row, 'open')}>
                {t('community.board.open')}
              </ActionLink>
            )),
          can('community:board:update') && row.status !== 'archived' && (
            <ActionLink key="archive" data-testid="board-archive" onClick={() => setStatus(row, 'archived')}>
              {t('community.board.archive')}
            </ActionLink>
          ),
        ]}
      />
      <ModeratorsDialog
        board={moderating}
        onClose={() => setModerating(undefined)}
        onDone={() => {
          setModerating(undefined);
          reload();
        }}
      />
    </div>
  );
}
