import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Alert, Button, Modal, Progress, Radio, Space, Table, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import type { ImportReport, ResourceService } from '@/services/resource';
import { saveBlob } from '@/utils/download';

type Phase = 'idle' | 'checking' | 'checked' | 'committing' | 'done';

interface Props {
  open: boolean;
  onClose: () => void;
  service: Pick<ResourceService<unknown>, 'template' | 'importFile'>;
  /** Base of the template's file name when the server does not name it. */
  name: string;
  /** After a committed import: reload the list. */
  onImported: (report: ImportReport) => void;
}

const failureOf = (error: unknown): ImportReport | undefined => {
  const data = (error as { data?: Partial<ImportReport> })?.data;
  return data && Array.isArray(data.failed) ? (data as ImportReport) : undefined;
};

/** Import from a spreadsheet: template, dry run with per-row errors, then commit (all rows or none). */
export default function ImportModal({ open, onClose, service, name, onImported }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [file, setFile] = useState<UploadFile>();
  const [mode, setMode] = useState<'insert' | 'upsert'>('insert');
  const [phase, setPhase] = useState<Phase>('idle');
  const [report, setReport] = useState<ImportReport>();

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
    const answer = await service.template().catch(() => undefined);
    if (answer) saveBlob(answer.blob, answer.filename ?? `${name}-template.xlsx`);
  };

  const run = async (dryRun: boolean) => {
    if (!file?.originFileObj) return;
    setPhase(dryRun ? 'checking' : 'committing');
    try {
      const answer = await service.importFile(file.originFileObj, { dryRun, mode });
      setReport(answer);
      setPhase(dryRun ? 'checked' : 'done');
      if (!dryRun) onImported(answer);
    } catch (error) {
      setReport(failureOf(error));
      setPhase(failureOf(error) ? 'checked' : 'idle');
    }
  };

  const busy = phase === 'checking' || phase === 'committing';
  const failed = report?.failed ?? [];
  const canCommit = phase === 'checked' && report !== undefined && failed.length === 0;

  return (
    <Modal
      open={open}
      title={t('resource.import.title')}
      onCancel={close}
      maskClosable={!busy}
      closable={!busy}
      width={720}
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
              <Button key="check" onClick={() => run(true)} disabled={!file || busy} loading={phase === 'checking'} data-testid="import-check">
                {t('resource.import.check')}
              </Button>,
              <Button key="commit" type="primary" onClick={() => run(false)} disabled={!canCommit} loading={phase === 'committing'} data-testid="import-commit">
                {t('resource.import.commit')}
              </Button>,
            ]
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="import-modal">
        <Space wrap>
          <Button icon={<DownloadOutlined />} onClick={downloadTemplate} data-testid="import-template">
            {t('resource.import.template')}
          </Button>
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)} disabled={busy || phase === 'done'}>
            <Radio value="insert">{t('resource.import.mode.insert')}</Radio>
            <Radio value="upsert">{t('resource.import.mode.upsert')}</Radio>
          </Radio.Group>
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
          <p className="ant-upload-hint">{t('resource.import.hint')}</p>
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
            message={t(phase === 'done' ? 'resource.import.done' : 'resource.import.preview', {
              created: report.created,
              updated: report.updated,
              failed: failed.length,
            })}
          />
        )}
        {failed.length > 0 && (
          <Table
            data-testid="import-errors"
            size="small"
            rowKey={(f) => `${f.row}:${f.column}:${f.message}`}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            dataSource={failed}
            columns={[
              { title: t('resource.import.row'), dataIndex: 'row', width: 80 },
              { title: t('resource.import.column'), dataIndex: 'column', width: 160 },
              { title: t('resource.import.message'), dataIndex: 'message' },
            ]}
          />
        )}
      </Space>
    </Modal>
  );
}
