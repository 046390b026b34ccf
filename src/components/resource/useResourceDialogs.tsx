import { lazy, type ReactNode, Suspense, useState } from 'react';
import type { ResourceService } from '@/services/resource';
import type GenericResourceForm from './ResourceForm';
import type { RowDescriptor } from './types';

// Neither dialog is part of a list's first paint: each loads the first time it opens.
// lazy() forgets the form's row type parameter; the component is the same
const ResourceForm = lazy(() => import('./ResourceForm')) as unknown as typeof GenericResourceForm;
const ImportModal = lazy(() => import('./ImportModal'));

export interface Editing<Row> {
  record?: Row;
  defaults?: Record<string, unknown>;
}

/** What a screen's own create/edit form is given: the record (none: create), and what to call when it is done. */
export interface FormDialogProps<Row> extends Editing<Row> {
  onClose: () => void;
  onSaved: (row: Row) => void;
}

interface Options<Row extends { id: string; version: number }> {
  descriptor: RowDescriptor<Row>;
  service: ResourceService<Row, never, never>;
  canImport: boolean;
  /** After a create or edit saved (the form has closed). */
  onSaved: (row: Row, editing: Editing<Row>) => void;
  onImported: () => void;
  /** Replaces the generic create/edit form (a form whose fields depend on what is chosen in it). */
  renderForm?: (props: FormDialogProps<Row>) => ReactNode;
  /** Replaces the generic import dialog (e.g. an import with a diff preview). */
  renderImport?: (props: { open: boolean; onClose: () => void; onImported: () => void }) => ReactNode;
}

/** The create/edit form and the import dialog of a list of a descriptor, and the calls that open them. */
export function useResourceDialogs<Row extends { id: string; version: number }>({
  descriptor,
  service,
  canImport,
  onSaved,
  onImported,
  renderForm,
  renderImport,
}: Options<Row>) {
  const [editing, setEditing] = useState<Editing<Row> | undefined>();
  const [importing, setImporting] = useState(false);
  const [importOpened, setImportOpened] = useState(false);
  const closeImport = () => setImporting(false);

  const dialogs = (
    <Suspense fallback={null}>
      {editing &&
        renderForm?.({
          ...editing,
          onClose: () => setEditing(undefined),
          onSaved: (row) => {
            setEditing(undefined);
            onSaved(row, editing);
          },
        })}
      {editing && !renderForm && (
        <ResourceForm
          descriptor={descriptor}
          service={service}
          open
          record={editing.record}
          defaults={editing.defaults}
          onOpenChange={(open) => !open && setEditing(undefined)}
          onSaved={(row) => {
            setEditing(undefined);
            onSaved(row as Row, editing);
          }}
        />
      )}
      {canImport &&
        (renderImport
          ? renderImport({ open: importing, onClose: closeImport, onImported })
          : importOpened && (
              <ImportModal
                open={importing}
                onClose={closeImport}
                service={service}
                name={descriptor.resource}
                addsOnly={descriptor.importAddsOnly}
                onImported={onImported}
              />
            ))}
    </Suspense>
  );

  return {
    edit: (next: Editing<Row>) => setEditing(next),
    openImport: () => {
      setImportOpened(true);
      setImporting(true);
    },
    dialogs,
  };
}
