const MEASURE_ROW = 'tr.ant-table-measure-row';

function quiet(row: Element) {
  row.setAttribute('inert', '');
  row.removeAttribute('tabindex');
}

/**
 * antd's Table (with a horizontal scroll) keeps a row that only measures its columns: hidden from assistive technology
 * (aria-hidden) yet focusable (tabindex="-1"), with a copy of each column's title in it. Each one is made inert and
 * unfocusable as it appears (WCAG 4.1.2: nothing hidden from a screen reader can take the focus). Undone by the
 * returned function.
 */
export function quietMeasureRows(root: HTMLElement = document.body): () => void {
  root.querySelectorAll(MEASURE_ROW).forEach(quiet);
  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.matches(MEASURE_ROW)) quiet(node);
        else if (node.firstElementChild) node.querySelectorAll(MEASURE_ROW).forEach(quiet);
      }
  });
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}
