import { type ComponentProps, lazy, Suspense } from 'react';

// the editor is the form's, not the list's first download
const RichTextEditor = lazy(() => import('./RichTextEditor'));

/** The rich-text editor, loaded with the form that shows it; `value` and `onChange` pass through the boundary. */
export function LazyRichTextEditor(props: ComponentProps<typeof RichTextEditor>) {
  return (
    <Suspense fallback={null}>
      <RichTextEditor {...props} />
    </Suspense>
  );
}
