import { lazy, Suspense } from 'react';
import { unitChoices } from '@/pages/people/trainee/descriptor';

// the tree picker is the form's, not the list's first download
const OrganizationPicker = lazy(() => import('./OrganizationPicker'));

/** A descriptor column's form item that picks an organisation from the tree (a department, say). */
export const organizationPicker = (schema: { fieldProps?: unknown }) => (
  <Suspense fallback={null}>
    <OrganizationPicker {...(schema.fieldProps as object)} />
  </Suspense>
);

/** A descriptor column's form item that picks an external unit, found by name as it is typed. */
export const unitPicker = {
  valueType: 'select',
  fieldProps: { showSearch: true },
  request: ({ keyWords }: { keyWords?: string }) => unitChoices(keyWords),
} as const;
