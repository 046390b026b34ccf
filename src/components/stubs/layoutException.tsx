import type { ReactNode } from 'react';

interface Props {
  children: ReactNode;
  route?: { unaccessible?: boolean };
  notFound?: ReactNode;
  noAccessible?: ReactNode;
  unAccessible?: ReactNode;
  noFound?: ReactNode;
}

/**
 * Stands in for plugin-layout's Exception (build only, see .umirc.ts), the same choice without its default antd
 * Result: src/app.tsx's layout always gives `noFound` and `unAccessible`, so that default never shows, but it would
 * put Result into the download of every screen.
 */
export default function Exception({ children, route, notFound, noAccessible, unAccessible, noFound }: Props) {
  if (!route) return <>{noFound ?? notFound ?? children}</>;
  if (route.unaccessible) return <>{unAccessible ?? noAccessible ?? children}</>;
  return <>{children}</>;
}
