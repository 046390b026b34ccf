import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Alert, Button, Checkbox, Modal, Progress, Space, Table, Tabs, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { importDistricts, type DistrictImportReport } from '@/services/dictionary';
import { resourceService } from '@/services/resource';
import { saveBlob } from '@/utils/download';

type Phase = 'idle' | 'checking' | 'checked' | 'committing' | 'done';

interface Props {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
  /** Defaults to the API; tests may hand another. */
  run?: typeof importDistricts;
}

const reportOf = (error: unknown): DistrictImportReport | undefined => {
  const data = (error as { data?: Partial<DistrictImportReport> })?.data;
  return data && Array.isArray(data.failed) && Array.isArray(data.added) ? (data as DistrictImportReport) : undefined;
};

/**
 * Import an official code list: the server's dry run previews what is added, renamed and retired (and rows it
 * cannot use); applying writes all of it or nothing.
 */
export default function DistrictImportModal({ open, onClose, onImported, run = importDistricts }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [file, setFile] = useState<UploadFile>();
  const [retireMissing, setRetireMissing] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const [report, setReport] = useState<DistrictImportReport>();

  const reset = () => {
    setFile(undefined);
    setReport(undefined);
    setPhase('idle');
  };
  const close = () => {
    reset();
    onClose();
  };

  const downloadTemplate = async () => {
    const answer = await resourceService('districts').template().catch(() => undefined);
    if (answer) saveBlob(answer.blob, answer.filename ?? 'districts-template.xlsx');
  };

  const submit = async (dryRun: boolean) => {
    if (!file?.originFileObj) return;
    setPhase(dryRun ? 'checking' : 'committing');
    try {
      const answer = await run(file.originFileObj, { dryRun, retireMissing });
      setReport(answer);
      setPhase(dryRun ? 'checked' : 'done');
      if (!dryRun) onImported();
    } catch (error) {
      // the request layer has shown why; a failed import still answers its rows
      setReport(reportOf(error));
      setPhase(reportOf(error) ? 'checked' : 'idle');
    }
  };

  const busy = phase === 'checking' || phase === 'committing';
  const failed = report?.failed ?? [];
  const canApply = phase === 'checked' && report !== undefined && failed.length === 0;
  const small = { size: 'small' as const, pagination: { pageSize: 10, hideOnSinglePage: true } };

  return (
    <Modal
      open={open}
      title={t('system.district.import.title')}
      onCancel={close}
      maskClosable={!busy}
      closable={!busy}
      width={820}
      destroyOnHidden
      footer={
        phase === 'done'
          ? [
              <Button key="close" type="primary" onClick={close} data-testid="import-close">
                {t('resource.import.close')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close} disabled={busy}>
                {t('resource.cancel')}
              </Button>,
              <Button key="check" onClick={() => submit(true)} disabled={!file || busy} loading={phase === 'checking'} data-testid="import-check">
                {t('system.district.import.preview')}
              </Button>,
              <Button key="commit" type="primary" onClick={() => submit(false)} disabled={!canApply} loading={phase === 'committing'} data-testid="import-commit">
                {t('system.district.import.apply')}
              </Button>,
            ]
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="district-import">
        <Space wrap>
          <Button icon={<DownloadOutlined />} onClick={downloadTemplate} data-testid="import-template">
            {t('resource.import.template')}
          </Button>
          <Checkbox
            checked={retireMissing}
            disabled={busy || phase === 'done'}
            onChange={(e) => {
              setRetireMissing(e.target.checked);
              setReport(undefined);
              setPhase(file ? 'idle' : phase);
            }}
            data-testid="import-retire-missing"
          >
            {t('system.district.import.retireMissing')}
          </Checkbox>
        </Space>
        <Upload.Dragger
          accept=".xlsx"
          maxCount={1}
          disabled={busy || phase === 'done'}
          fileList={file ? [file] : []}
          beforeUpload={(picked) => {
            setFile({ uid: picked.uid, name: picked.name, status: 'done', originFileObj: picked });
            setReport(undefined);
            setPhase('idle');
            return false;
          }}
          onRemove={() => reset()}
          data-testid="import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('resource.import.pick')}</p>
          <p className="ant-upload-hint">{t('system.district.import.hint')}</p>
        </Upload.Dragger>
        {busy && (
          <div data-testid="import-progress">
            <Progress percent={phase === 'checking' ? 50 : 90} status="active" showInfo={false} />
            {t(phase === 'checking' ? 'resource.import.checking' : 'resource.import.committing')}
          </div>
        )}
        {report && (
          <Alert
            data-testid="import-summary"
            data-phase={phase}
            type={failed.length ? 'error' : 'success'}
            showIcon
            message={t(phase === 'done' ? 'system.district.import.done' : 'system.district.import.summary', {
              ...report.counts,
              failed: failed.length,
            })}
          />
        )}
        {report && (
          <Tabs
            data-testid="import-changes"
            size="small"
            items={[
              {
                key: 'added',
                label: t('system.district.import.added', { count: report.added.length }),
                children: (
                  <Table
                    data-testid="import-added"
                    rowKey="code"
                    dataSource={report.added}
                    columns={[
                      { title: t('system.district.code'), dataIndex: 'code' },
                      { title: t('system.district.name'), dataIndex: 'name' },
                      { title: t('system.district.level'), dataIndex: 'level', render: (level: string) => t(`system.district.level.${level}`) },
                      { title: t('system.district.parentCode'), dataIndex: 'parentCode' },
                    ]}
                    {...small}
                  />
                ),
              },
              {
                key: 'renamed',
                label: t('system.district.import.renamed', { count: report.renamed.length }),
                children: (
                  <Table
                    data-testid="import-renamed"
                    rowKey="code"
                    dataSource={report.renamed}
                    columns={[
                      { title: t('system.district.code'), dataIndex: 'code' },
                      { title: t('system.district.import.from'), dataIndex: 'from' },
                      { title: t('system.district.import.to'), dataIndex: 'to' },
                    ]}
                    {...small}
                  />
                ),
              },
              {
                key: 'retired',
                label: t('system.district.import.retired', { count: report.retired.length }),
                children: (
                  <Table
                    data-testid="import-retired"
                    rowKey="code"
                    dataSource={report.retired}
                    columns={[
                      { title: t('system.district.code'), dataIndex: 'code' },
                      { title: t('system.district.name'), dataIndex: 'name' },
                      { title: t('system.district.replacedByCode'), dataIndex: 'replacedByCode' },
                    ]}
                    {...small}
                  />
                ),
              },
              ...(failed.length
                ? [
                    {
                      key: 'failed',
                      label: t('system.district.import.failed', { count: failed.length }),
                      children: (
                        <Table
                          data-testid="import-errors"
                          rowKey={(f: { row: number; column: string; message: string }) => `${f.row}:${f.column}:${f.message}`}
                          dataSource={failed}
                          columns={[
                            { title: t('resource.import.row'), dataIndex: 'row', width: 80 },
                            { title: t('resource.import.column'), dataIndex: 'column', width: 160 },
                            { title: t('resource.import.message'), dataIndex: 'message' },
                          ]}
                          {...small}
                        />
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
