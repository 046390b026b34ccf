import { useIntl } from '@umijs/max';
import { Checkbox, Table, Tabs } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import ImportDialog from '@/components/resource/ImportDialog';
import { type DistrictImportReport, importDistricts } from '@/services/dictionary';
import { resourceService } from '@/services/resource';

interface Props {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
  /** Defaults to the API; tests may hand another. */
  run?: typeof importDistricts;
}

const small = { size: 'small' as const, pagination: { pageSize: 10, hideOnSinglePage: true } };

/**
 * Import an official code list: the server's dry run previews what is added, renamed and retired (and rows it
 * cannot use); applying writes all of it or nothing.
 */
export default function DistrictImportModal({ open, onClose, onImported, run = importDistricts }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [retireMissing, setRetireMissing] = useState(false);
  /** One kind of change the file makes, as a tab of its own. */
  const tab = <Row extends { code: string }>(key: string, rows: Row[], columns: ColumnsType<Row>) => ({
    key,
    label: t(`system.district.import.${key}`, { count: rows.length }),
    children: <Table<Row> data-testid={`import-${key}`} rowKey="code" dataSource={rows} columns={columns} {...small} />,
  });
  return (
    <ImportDialog<DistrictImportReport>
      open={open}
      onClose={onClose}
      onImported={onImported}
      title={t('system.district.import.title')}
      template={resourceService('system/district').template}
      templateName="districts"
      send={(file, dryRun) => run(file, { dryRun, retireMissing })}
      optionsKey={retireMissing}
      options={(disabled) => (
        <Checkbox
          checked={retireMissing}
          disabled={disabled}
          onChange={(e) => setRetireMissing(e.target.checked)}
          data-testid="import-retire-missing"
        >
          {t('system.district.import.retireMissing')}
        </Checkbox>
      )}
      hint={t('system.district.import.hint')}
      checkLabel={t('system.district.import.preview')}
      commitLabel={t('system.district.import.apply')}
      summary={(report, phase) =>
        t(phase === 'done' ? 'system.district.import.done' : 'system.district.import.summary', {
          ...report.counts,
          failed: report.failed.length,
        })
      }
      details={(report, failures) => (
        <Tabs
          data-testid="import-changes"
          size="small"
          items={[
            tab('added', report.added, [
              { title: t('system.district.code'), dataIndex: 'code' },
              { title: t('system.district.name'), dataIndex: 'name' },
              {
                title: t('system.district.level'),
                dataIndex: 'level',
                render: (level: string) => t(`system.district.level.${level}`),
              },
              { title: t('system.district.parentCode'), dataIndex: 'parentCode' },
            ]),
            tab('renamed', report.renamed, [
              { title: t('system.district.code'), dataIndex: 'code' },
              { title: t('system.district.import.from'), dataIndex: 'from' },
              { title: t('system.district.import.to'), dataIndex: 'to' },
            ]),
            tab('retired', report.retired, [
              { title: t('system.district.code'), dataIndex: 'code' },
              { title: t('system.district.name'), dataIndex: 'name' },
              { title: t('system.district.replacedByCode'), dataIndex: 'replacedByCode' },
            ]),
            ...(failures
              ? [
                  {
                    key: 'failed',
                    label: t('system.district.import.failed', { count: report.failed.length }),
                    children: failures,
                  },
                ]
              : []),
          ]}
        />
      )}
    />
  );
}
