import '@/pages/system/catalogue';
import { useIntl } from '@umijs/max';
import { Popconfirm } from 'antd';
import ActionLink from '@/components/ActionLink';
import ResourceTreeTable from '@/components/resource/ResourceTreeTable';
import { resourceService } from '@/services/resource';
import message from '@/utils/message';
import DistrictImportModal from './DistrictImportModal';
import { type CreateDistrict, type District, districtDescriptor, type UpdateDistrict } from './descriptor';
import { usePathNames } from './usePathNames';

const districts = resourceService<District, CreateDistrict, UpdateDistrict>('system/district');

/**
 * /system/district: the division tree, one level at a time; a search lists matches flat with their full path;
 * import previews what an official code list changes before applying it.
 */
export default function DistrictPage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const { loadLevel, resolve, fullPath } = usePathNames();
  return (
    <div data-testid="system-district">
      <ResourceTreeTable<District>
        descriptor={districtDescriptor}
        loadChildren={loadLevel}
        canHaveChildren={(row) => row.level !== 'township'}
        createDefaults={{ status: 'enabled', sort: 0 }}
        prepareFlat={resolve}
        flatColumns={[
          {
            title: t('system.district.path'),
            key: 'path',
            render: (_dom, row) => <span data-testid="district-path">{fullPath(row)}</span>,
          },
        ]}
        rowActions={(row, { can, reload }) => {
          if (!can('system:district:update')) return [];
          const next = row.status === 'enabled' ? 'disabled' : 'enabled';
          const action = next === 'disabled' ? 'disable' : 'enable';
          const toggle = async () => {
            const done = await districts.update(row.id, { name: row.name, status: next, version: row.version }).then(
              () => true,
              () => false,
            );
            if (!done) return;
            message.success(t('system.district.done'));
            reload();
          };
          return [
            <Popconfirm
              key={action}
              title={t(`system.district.confirm.${action}`, { name: row.name })}
              onConfirm={toggle}
            >
              <ActionLink data-testid={`row-${action}`}>{t(`system.district.action.${action}`)}</ActionLink>
            </Popconfirm>,
          ];
        }}
        renderImport={(props) => <DistrictImportModal {...props} />}
      />
    </div>
  );
}
