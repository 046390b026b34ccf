import { type ComponentProps, lazy, Suspense } from 'react';
import { unitChoices } from '@/pages/people/trainee/descriptor';

// the tree picker is the form's, not the list's first download
const OrganizationTree = lazy(() => import('./OrganizationPicker'));

/**
 * Organisations picked from the tree, loaded with the form that shows it. A form control whose `value` and `onChange`
 * the form item hands it (through the loading boundary, which would drop them).
 */
export function LazyOrganizationPicker(props: ComponentProps<typeof OrganizationTree>) {
  return (
    <Suspense fallback={null}>
      <OrganizationTree {...props} />
    </Suspense>
  );
}

/** A descriptor column's form item that picks an organisation from the tree (a department, say). */
export const organizationPicker = (schema: { fieldProps?: unknown }) => (
  <LazyOrganizationPicker {...(schema.fieldProps as object)} />
);

/** A descriptor column's form item that picks an external unit, found by name as it is typed. */
export const unitPicker = {
  valueType: 'select',
  fieldProps: { showSearch: true },
  request: ({ keyWords }: { keyWords?: string }) => unitChoices(keyWords),
} as const;
