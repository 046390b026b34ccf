import { useIntl } from '@umijs/max';
import { Radio } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import type { ImportReport, ResourceService } from '@/services/resource';
import ImportDialog from './ImportDialog';

interface Props {
  open: boolean;
  onClose: () => void;
  service: Pick<ResourceService<unknown>, 'template' | 'importFile' | 'importJobs'>;
  /** Base of the template's file name when the server does not name it. */
  name: string;
  /** After a committed import: reload the list. */
  onImported: (report: ImportReport) => void;
  /** No choice of mode: the import only adds. */
  addsOnly?: boolean;
  /** Choices the import is made for, before the mode (a trainee type); a change of `choiceKey` discards the last check. */
  choices?: (disabled: boolean) => ReactNode;
  choiceKey?: string;
}

/** A resource's import: new rows only, or new and existing ones (upsert). */
export default function ImportModal({ open, onClose, service, name, onImported, addsOnly, choices, choiceKey }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [mode, setMode] = useState<'insert' | 'upsert'>('insert');
  const api = service.importJobs;
  const jobs = useMemo(() => ({ ...api, start: (file: Blob) => api.start(file, { mode }) }), [api, mode]);
  return (
    <ImportDialog<ImportReport>
      open={open}
      onClose={onClose}
      onImported={onImported}
      title={t('resource.import.title')}
      template={service.template}
      templateName={name}
      send={(file, dryRun) => service.importFile(file, { dryRun, mode })}
      jobs={jobs}
      optionsKey={`${mode}:${choiceKey ?? ''}`}
      options={
        addsOnly && !choices
          ? undefined
          : (disabled) => (
              <>
                {choices?.(disabled)}
                {!addsOnly && (
                  <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)} disabled={disabled}>
                    <Radio value="insert">{t('resource.import.mode.insert')}</Radio>
                    <Radio value="upsert">{t('resource.import.mode.upsert')}</Radio>
                  </Radio.Group>
                )}
              </>
            )
      }
      hint={t('resource.import.hint')}
      checkLabel={t('resource.import.check')}
      commitLabel={t('resource.import.commit')}
      summary={(report, phase) =>
        t(phase === 'done' ? 'resource.import.done' : 'resource.import.preview', {
          created: report.created,
          updated: report.updated,
          failed: report.failed.length,
        })
      }
    />
  );
}
