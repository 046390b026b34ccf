import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Alert, Button, Modal, Progress, Space, Table, Upload, type UploadFile } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import type { FileAnswer, ImportJob, ImportReport } from '@/services/resource';
import { saveBlob } from '@/utils/download';

/** The import as a job on the server: started, followed, cancelled; the latest one is shown when the dialog opens. */
export interface ImportJobsApi {
  start: (file: Blob) => Promise<ImportJob>;
  get: (id: string) => Promise<ImportJob>;
  latest: () => Promise<ImportJob | null>;
  cancel: (id: string) => Promise<ImportJob>;
  failures: (id: string) => Promise<FileAnswer>;
}

const POLL_MS = 500;
const running = (job: ImportJob | undefined) =>
  job !== undefined && !['done', 'failed', 'cancelled'].includes(job.status);

export type ImportPhase = 'idle' | 'checking' | 'checked' | 'committing' | 'done';

export interface ImportDialogProps<R extends ImportReport> {
  open: boolean;
  onClose: () => void;
  onImported: (report: R) => void;
  title: string;
  template: () => Promise<{ blob: Blob; filename?: string }>;
  templateName: string;
  /** Sends the file: first as a dry run, then for real. */
  send: (file: Blob, dryRun: boolean) => Promise<R>;
  /** Controls beside the template button (disabled while busy); a change of `optionsKey` discards the last dry run. */
  options?: (disabled: boolean) => ReactNode;
  optionsKey?: unknown;
  hint: string;
  checkLabel: string;
  commitLabel: string;
  summary: (report: R, phase: ImportPhase) => string;
  /** The report beyond its summary; given the table of rows that failed, which it shows by default. */
  details?: (report: R, failures: ReactNode) => ReactNode;
  /** Commit as a job with progress and cancel (the dry run stays a plain request). */
  jobs?: ImportJobsApi;
}

/** A failed import (422) still answers its report; the request layer has already said why. */
const reportOf = <R extends ImportReport>(error: unknown): R | undefined => {
  const data = (error as { data?: Partial<R> })?.data;
  return data && Array.isArray(data.failed) ? (data as R) : undefined;
};

/**
 * Import from a spreadsheet: template, dry run with per-row errors (and warnings that stop no row, listed apart: a
 * likely duplicate), then commit (all rows or none).
 */
export default function ImportDialog<R extends ImportReport>(props: ImportDialogProps<R>) {
  const { open, onClose, onImported, title, template, templateName, send, options, optionsKey } = props;
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [file, setFile] = useState<UploadFile>();
  const [phase, setPhase] = useState<ImportPhase>('idle');
  const [report, setReport] = useState<R>();
  const [job, setJob] = useState<ImportJob>();
  const jobs = props.jobs;

  useEffect(() => {
    setReport(undefined);
    setPhase('idle');
  }, [optionsKey]);

  // Reopened: the latest import, still running (follow it) or finished (its result); a check (a dry run, kept as a job
  // too) wrote nothing and is no import to report
  useEffect(() => {
    if (open && jobs)
      jobs.latest().then(
        (latest) => setJob(latest?.dryRun ? undefined : (latest ?? undefined)),
        () => undefined,
      );
  }, [open, jobs]);

  const jobId = job?.id;
  const jobRunning = running(job);
  useEffect(() => {
    if (!open || !jobs || !jobId || !jobRunning) return undefined;
    let stopped = false;
    const timer = setTimeout(async () => {
      const next = await jobs.get(jobId).catch(() => undefined);
      if (stopped || !next) return;
      setJob(next);
      if (running(next)) return;
      const finalReport = next.report as unknown as R | null;
      setReport(finalReport ?? undefined);
      if (next.status === 'done' && finalReport) {
        setPhase('done');
        onImported(finalReport);
      } else setPhase(finalReport?.failed.length ? 'checked' : 'idle');
    }, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // Every answer is a new object: the next poll is scheduled after each one.
  }, [open, jobs, job]);

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
    const answer = await template().catch(() => undefined);
    if (answer) saveBlob(answer.blob, answer.filename ?? `${templateName}-template.xlsx`);
  };

  const run = async (dryRun: boolean) => {
    if (!file?.originFileObj) return;
    // what an earlier import said is not mixed with this run's report
    setJob(undefined);
    if (!dryRun && jobs) {
      setPhase('committing');
      const started = await jobs.start(file.originFileObj).catch(() => undefined);
      setJob(started);
      if (!started) setPhase('checked');
      return;
    }
    setPhase(dryRun ? 'checking' : 'committing');
    try {
      const answer = await send(file.originFileObj, dryRun);
      setReport(answer);
      setPhase(dryRun ? 'checked' : 'done');
      if (!dryRun) onImported(answer);
    } catch (error) {
      const failedReport = reportOf<R>(error);
      setReport(failedReport);
      setPhase(failedReport ? 'checked' : 'idle');
    }
  };

  const busy = phase === 'checking' || phase === 'committing' || jobRunning;
  const cancelJob = async () => {
    if (jobId) setJob(await jobs?.cancel(jobId).catch(() => job));
  };
  const downloadFailures = async () => {
    const answer = jobId ? await jobs?.failures(jobId).catch(() => undefined) : undefined;
    if (answer) saveBlob(answer.blob, answer.filename ?? `${templateName}-errors.xlsx`);
  };
  const jobError = job?.report?.error;
  const failed = report?.failed ?? [];
  const canCommit = phase === 'checked' && report !== undefined && failed.length === 0;
  const warned = report?.warnings ?? [];
  const checkedSome = report?.warningsChecked;
  // what stops no row (a likely duplicate), apart from the failures
  const warnings =
    warned.length > 0 || checkedSome ? (
      <Space direction="vertical" style={{ width: '100%' }} data-testid="import-warnings">
        <Alert
          type="warning"
          showIcon
          message={intl.formatMessage(
            { id: 'resource.import.warnings' },
            { count: report?.warningTotal ?? warned.length },
          )}
          description={checkedSome && <span data-testid="import-warnings-checked">{checkedSome.message}</span>}
        />
        {warned.length > 0 && (
          <Table
            data-testid="import-warning-rows"
            size="small"
            rowKey={(w) => `${w.row}:${w.column}:${w.message}`}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            dataSource={warned}
            columns={[
              { title: t('resource.import.row'), dataIndex: 'row', width: 80 },
              { title: t('resource.import.column'), dataIndex: 'column', width: 160 },
              { title: t('resource.import.warning'), dataIndex: 'message' },
            ]}
          />
        )}
      </Space>
    ) : null;
  const failures =
    failed.length > 0 ? (
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
    ) : null;

  return (
    <Modal
      open={open}
      title={title}
      onCancel={close}
      maskClosable={!busy || jobRunning}
      closable={!busy || jobRunning}
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
              jobRunning ? (
                <Button
                  key="stop"
                  danger
                  onClick={cancelJob}
                  disabled={job?.status === 'undoing'}
                  data-testid="import-cancel-job"
                >
                  {t('resource.import.job.cancel')}
                </Button>
              ) : (
                <Button key="cancel" onClick={close} disabled={busy}>
                  {t('resource.cancel')}
                </Button>
              ),
              <Button
                key="check"
                onClick={() => run(true)}
                disabled={!file || busy}
                loading={phase === 'checking'}
                data-testid="import-check"
              >
                {props.checkLabel}
              </Button>,
              <Button
                key="commit"
                type="primary"
                onClick={() => run(false)}
                disabled={!canCommit}
                loading={phase === 'committing'}
                data-testid="import-commit"
              >
                {props.commitLabel}
              </Button>,
            ]
      }
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="import-modal">
        <Space wrap>
          <Button icon={<DownloadOutlined />} onClick={downloadTemplate} data-testid="import-template">
            {t('resource.import.template')}
          </Button>
          {options?.(busy || phase === 'done')}
        </Space>
        <Upload.Dragger
          accept=".xlsx"
          maxCount={1}
          disabled={busy || phase === 'done'}
          fileList={file ? [file] : []}
          beforeUpload={(picked) => {
            setFile({ uid: picked.uid, name: picked.name, status: 'done', originFileObj: picked });
            setJob(undefined);
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
          <p className="ant-upload-hint">{props.hint}</p>
        </Upload.Dragger>
        {busy && !jobRunning && (
          <div data-testid="import-progress">
            <Progress percent={phase === 'checking' ? 50 : 90} status="active" showInfo={false} />
            {t(phase === 'checking' ? 'resource.import.checking' : 'resource.import.committing')}
          </div>
        )}
        {job && jobRunning && (
          <div
            data-testid="import-job-progress"
            data-status={job.status}
            data-done={job.done}
            data-total={job.total ?? ''}
          >
            <Progress percent={job.total ? Math.floor((job.done / job.total) * 100) : 0} status="active" />
            {intl.formatMessage({ id: `resource.import.job.${job.status}` }, { done: job.done, total: job.total ?? 0 })}
          </div>
        )}
        {job && !jobRunning && phase !== 'done' && (
          <Alert
            data-testid="import-job-result"
            data-status={job.status}
            type={job.status === 'done' ? 'success' : job.status === 'cancelled' ? 'info' : 'error'}
            showIcon
            message={intl.formatMessage(
              { id: `resource.import.job.${job.status}` },
              { file: job.fileName, created: job.report?.created ?? 0, updated: job.report?.updated ?? 0 },
            )}
            description={jobError?.message}
          />
        )}
        {report && (
          <Alert
            data-testid="import-summary"
            data-phase={phase}
            type={failed.length ? 'error' : 'success'}
            showIcon
            message={props.summary(report, phase)}
          />
        )}
        {report && (props.details ? props.details(report, failures) : failures)}
        {warnings}
        {job && !jobRunning && (job.report?.failedTotal ?? 0) > 0 && (
          <Space data-testid="import-failure-totals">
            {intl.formatMessage(
              { id: 'resource.import.job.failedTotal' },
              { total: job.report?.failedTotal ?? 0, rows: job.report?.failedRows ?? 0 },
            )}
            <Button icon={<DownloadOutlined />} onClick={downloadFailures} data-testid="import-failure-sheet">
              {t('resource.import.job.failureSheet')}
            </Button>
          </Space>
        )}
      </Space>
    </Modal>
  );
}
