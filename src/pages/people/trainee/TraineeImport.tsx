import { useIntl } from '@umijs/max';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import ImportModal from '@/components/resource/ImportModal';
import type { ResourceService } from '@/services/resource';
import message from '@/utils/message';
import { type Trainee, trainees } from './descriptor';

interface Props {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
  types: { id: string; name: string }[];
  /** The type chosen above the list (none: all types), which the import is made for unless another is chosen. */
  typeId: string;
}

/**
 * Trainees' import, made for one type (its own fields are columns of the sheet): the type chosen above the list, or
 * one chosen in the dialog; a template or a check without one asks for it.
 */
export default function TraineeImport({ open, onClose, onImported, types, typeId }: Props) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [chosen, setChosen] = useState<string | undefined>(typeId || (types.length === 1 ? types[0]?.id : undefined));
  const service = useMemo(() => {
    const forType = { traineeTypeId: chosen ?? '' };
    const asked = <T,>(call: () => Promise<T>) =>
      chosen ? call() : Promise.reject(message.error(intl.formatMessage({ id: 'people.trainee.chooseType' })));
    return {
      template: () => asked(() => trainees.template(forType)),
      importFile: (file: Blob, options: { dryRun: boolean } & Record<string, string | boolean>) =>
        asked(() => trainees.importFile(file, { ...options, ...forType })),
      importJobs: {
        ...trainees.importJobs,
        start: (file: Blob, options: { mode: string }) =>
          asked(() => trainees.importJobs.start(file, { ...options, ...forType })),
      },
    } as Pick<ResourceService<Trainee, never, never>, 'template' | 'importFile' | 'importJobs'>;
  }, [chosen, intl]);
  return (
    <ImportModal
      open={open}
      onClose={onClose}
      onImported={onImported}
      service={service as Pick<ResourceService<unknown>, 'template' | 'importFile' | 'importJobs'>}
      name="people-trainee"
      choiceKey={chosen}
      choices={(disabled) => (
        <Select
          data-testid="import-trainee-type"
          aria-label={t('people.trainee.traineeTypeId')}
          placeholder={t('people.trainee.chooseType')}
          style={{ minWidth: 180 }}
          value={chosen}
          onChange={setChosen}
          disabled={disabled}
          status={chosen ? undefined : 'warning'}
          options={types.map((type) => ({ value: type.id, label: type.name }))}
        />
      )}
    />
  );
}
