/**
 * Stands in for antd's Tree where antd's Table imports it (build only, see .umirc.ts): the Table shows a Tree only in a
 * column filter of `filterMode: 'tree'`, which the console's lists do not use, yet rc-tree came with every list. Here
 * it loads if such a filter ever opens.
 * Plain JavaScript: it takes the place of a file of node_modules, which is not compiled as TypeScript.
 */
import { createElement, lazy, Suspense } from 'react';

const Tree = lazy(() => import('antd/es/tree'));

export default function TableFilterTree(props) {
  return createElement(Suspense, { fallback: null }, createElement(Tree, props));
}
